import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { TMarketplaceModelItem } from '@air/shared/schemas/marketplace';
import { MARKETPLACE_NO_STATS } from '@air/shared/schemas/marketplace';
import i18n from '@/lib/i18n';
import { mockFetch, renderPage } from '@/test/render-page';
import CatalogPage from './routes/catalog';

// The catalog's models view (decision 062): the models the listed endpoints serve, sorted by the
// figures callers choose by, each linking to the endpoints serving it.

const LLAMA = 'meta-llama/llama-3.1-70b-instruct';
const QWEN = 'qwen/qwen-2.5-72b';

function model(patch: Partial<TMarketplaceModelItem> = {}): TMarketplaceModelItem {
  return {
    model_id: LLAMA,
    providers: 3,
    route_names: ['acme/llama', 'beta/llama', 'gamma/llama'],
    price: { per_call: 0, per_1m_input_tokens: 1_000_000, per_1m_output_tokens: 2_000_000 },
    currency: 'usd',
    currency_symbol: '$',
    stats: {
      ...MARKETPLACE_NO_STATS,
      calls_7d: 1200,
      uptime_7d: 0.995,
      p50_ms_7d: 420,
      calls_30d: 5000,
      uptime_30d: 0.9,
    },
    created_at: '2026-11-01T00:00:00.000Z',
    ...patch,
  };
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('the catalog by model', () => {
  it('switches to the models, sorts them by a figure on the server and links each to its endpoints', async () => {
    const calls = mockFetch({
      'GET /api/marketplace': { body: { data: { items: [], next_cursor: null } } },
      'GET /api/marketplace-models': ({ params }) => ({
        body: {
          data: {
            items:
              params.get('sort') === 'uptime'
                ? [model(), model({ model_id: QWEN, providers: 1, price: null })]
                : [model({ model_id: QWEN, providers: 1, price: null }), model()],
            next_cursor: null,
          },
        },
      }),
    });
    const { user } = renderPage(CatalogPage, {
      route: '/marketplace',
      path: '/marketplace',
      title: 'marketplace',
    });
    await user.click(await screen.findByRole('link', { name: 'Models' }));
    expect(screen.getByRole('link', { name: 'Models' })).toHaveAttribute('aria-current', 'page');
    let rows = await screen.findAllByTestId('model-row');
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([QWEN, LLAMA]);
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Highest uptime');
    await waitFor(() =>
      expect(
        screen.getAllByTestId('model-row').map((row) => within(row).getByRole('rowheader').textContent),
      ).toEqual([LLAMA, QWEN]),
    );
    const asked = new URLSearchParams(calls.at(-1)!.url.split('?')[1]);
    expect(asked.get('sort')).toBe('uptime');
    rows = screen.getAllByTestId('model-row');
    const llama = rows[0]!;
    expect(within(llama).getByRole('link', { name: LLAMA })).toHaveAttribute(
      'href',
      `/marketplace?model=${encodeURIComponent(LLAMA)}`,
    );
    // Providers, the cheapest price, calls and uptime over 7 days.
    expect(llama).toHaveTextContent('3');
    expect(llama).toHaveTextContent('$1.00 per 1M input tokens');
    expect(llama).toHaveTextContent('1,200');
    expect(llama).toHaveTextContent('99.5%');
    expect(within(rows[1]!).getByTestId('price')).toHaveTextContent('Free');

    // The 30-day window: asked of the server and shown.
    await user.selectOptions(screen.getByLabelText('Figures over'), '30 days');
    await waitFor(() => expect(calls.at(-1)!.url).toContain('window=30d'));
    await waitFor(() => expect(screen.getAllByTestId('model-row')[0]).toHaveTextContent('5,000'));
    expect(screen.getAllByTestId('model-row')[0]).toHaveTextContent('90%');
  });

  it('reads its sort from the address, searches model ids and is in Spanish in Spanish', async () => {
    await act(() => i18n.changeLanguage('es'));
    const calls = mockFetch({
      'GET /api/marketplace-models': ({ params }) => ({
        body: { data: { items: params.get('q') ? [] : [model()], next_cursor: null } },
      }),
    });
    const { user } = renderPage(CatalogPage, {
      route: '/marketplace',
      path: '/marketplace?view=models&sort=price',
      title: 'marketplace',
    });
    expect(await screen.findByTestId('model-row')).toHaveTextContent('por 1M de tokens de entrada');
    expect(screen.getByRole('link', { name: 'Modelos' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByLabelText('Ordenar por')).toHaveDisplayValue('Proveedor más barato');
    expect(screen.getByRole('columnheader', { name: 'Proveedores' })).toBeInTheDocument();
    expect(new URLSearchParams(calls[0]!.url.split('?')[1]).get('sort')).toBe('price');
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'mistral');
    expect(await screen.findByText('Ningún modelo coincide')).toBeInTheDocument();
    expect(new URLSearchParams(calls.at(-1)!.url.split('?')[1]).get('q')).toBe('mistral');
  });
});
