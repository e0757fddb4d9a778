import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { TMarketplaceEndpoint, TMarketplaceItem } from '@air/shared/schemas/marketplace';
import { MARKETPLACE_NO_STATS } from '@air/shared/schemas/marketplace';
import i18n from '@/lib/i18n';
import { mockFetch, renderPage } from '@/test/render-page';
import CatalogPage from './routes/catalog';
import CatalogEndpointPage from './routes/endpoint';

// Issue 44 item 3, per model: the model id on a card, the model filter, and an endpoint page's
// "this model across N providers" figures (decision 062).

const MODEL = 'meta-llama/llama-3.1-70b-instruct';

function item(patch: Partial<TMarketplaceItem> = {}): TMarketplaceItem {
  return {
    route_name: 'acme/llama',
    name: 'Acme Llama',
    route_type: 'model',
    protocol: 'openai' as const,
    provider: { name: 'Acme Labs', slug: 'acme' },
    model_id: MODEL,
    description: '',
    price: null,
    currency: 'usd',
    currency_symbol: '$',
    stats: { ...MARKETPLACE_NO_STATS, calls_7d: 10, uptime_7d: 1 },
    created_at: '2026-11-01T00:00:00.000Z',
    ...patch,
  };
}

function detail(model: TMarketplaceEndpoint['model']): TMarketplaceEndpoint {
  return {
    ...item(),
    description_html: '',
    daily: [],
    snippets: { curl: 'curl', node: 'node', python: 'python' },
    model,
  };
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('one model across providers, in the console', () => {
  it('a card shows its model id, linking to the catalog filtered by it; the Model field asks the server', async () => {
    const calls = mockFetch({
      'GET /api/marketplace': ({ params }) => ({
        body: {
          data: {
            items: params.get('model')
              ? [item()]
              : [item(), item({ route_name: 'other/chat', name: 'Other Chat', model_id: null })],
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
    const cards = await screen.findAllByTestId('catalog-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByTestId('catalog-model')).toHaveAttribute(
      'href',
      `/marketplace?model=${encodeURIComponent(MODEL)}`,
    );
    expect(within(cards[0]!).getByText(/Model:/)).toBeInTheDocument();
    expect(within(cards[1]!).queryByTestId('catalog-model')).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'Model' }), ` ${MODEL} `);
    await waitFor(() => expect(screen.getAllByTestId('catalog-card')).toHaveLength(1));
    const asked = calls.filter((c) => c.url.includes('model='));
    // One request for the settled text, trimmed.
    expect(asked.map((c) => new URLSearchParams(c.url.split('?')[1]).get('model'))).toEqual([MODEL]);
  });

  it("a card's model link filters the catalog by it and fills the Model field; clearing it lists all", async () => {
    const calls = mockFetch({
      'GET /api/marketplace': { body: { data: { items: [item()], next_cursor: null } } },
    });
    const { user } = renderPage(CatalogPage, {
      route: '/marketplace',
      path: '/marketplace',
      title: 'marketplace',
    });
    await user.click(await screen.findByTestId('catalog-model'));
    const field = screen.getByRole('textbox', { name: 'Model' });
    await waitFor(() => expect(field).toHaveValue(MODEL));
    await waitFor(() => expect(calls.at(-1)!.url).toContain(`model=${encodeURIComponent(MODEL)}`));
    await user.clear(field);
    await waitFor(() => expect(calls.at(-1)!.url).not.toContain('model='));
    expect(field).toHaveValue('');
  });

  it('the Model field reads the address and is in Spanish in Spanish', async () => {
    await act(() => i18n.changeLanguage('es'));
    const calls = mockFetch({
      'GET /api/marketplace': { body: { data: { items: [item()], next_cursor: null } } },
    });
    renderPage(CatalogPage, {
      route: '/marketplace',
      path: `/marketplace?model=${encodeURIComponent(MODEL)}`,
      title: 'marketplace',
    });
    const card = await screen.findByTestId('catalog-card');
    expect(within(card).getByText(/Modelo:/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Modelo' })).toHaveValue(MODEL);
    expect(calls[0]!.url).toContain(`model=${encodeURIComponent(MODEL)}`);
  });

  it("an endpoint's page shows its model across N providers: their names and combined figures", async () => {
    mockFetch({
      'GET /api/marketplace/:provider/:name': {
        body: {
          data: detail({
            model_id: MODEL,
            providers: 3,
            route_names: ['beta/llama', 'acme/llama', 'gamma/llama'],
            stats: { ...MARKETPLACE_NO_STATS, calls_7d: 4321, uptime_7d: 0.9876, p95_ms_7d: 1950 },
          }),
        },
      },
    });
    renderPage(CatalogEndpointPage, {
      route: '/marketplace/:provider/:name',
      path: '/marketplace/acme/llama',
      title: 'marketplaceEndpoint',
    });
    const card = await screen.findByTestId('model-figures');
    expect(card).toHaveTextContent(`${MODEL} across 3 providers`);
    expect(within(card).getByRole('table', { name: `${MODEL} across 3 providers` })).toBeInTheDocument();
    const list = within(card).getByRole('list', { name: 'Endpoints serving this model' });
    expect(within(list).getByRole('link', { name: 'beta/llama' })).toHaveAttribute(
      'href',
      '/marketplace/beta/llama',
    );
    // This endpoint is named, not linked.
    expect(within(list).queryByRole('link', { name: 'acme/llama' })).toBeNull();
    expect(within(list).getByText('acme/llama')).toHaveAttribute('aria-current', 'page');
    const figures = within(card).getByTestId('figures');
    expect(within(figures).getByRole('row', { name: /^Calls/ })).toHaveTextContent('4,321');
    expect(within(figures).getByRole('row', { name: /Uptime/ })).toHaveTextContent('98.8%');
    expect(within(figures).getByRole('row', { name: /95th percentile/ })).toHaveTextContent('1950 ms');
    expect(within(card).getByRole('link', { name: 'Compare them in the catalog' })).toHaveAttribute(
      'href',
      `/marketplace?model=${encodeURIComponent(MODEL)}`,
    );
  });

  it('in Spanish, for one provider', async () => {
    await act(() => i18n.changeLanguage('es'));
    mockFetch({
      'GET /api/marketplace/:provider/:name': ({ url }) => ({
        body: {
          data: url.endsWith('/acme/llama')
            ? detail({
                model_id: MODEL,
                providers: 1,
                route_names: ['acme/llama'],
                stats: MARKETPLACE_NO_STATS,
              })
            : { ...detail(null), route_name: 'acme/plain', model_id: null },
        },
      }),
    });
    renderPage(CatalogEndpointPage, {
      route: '/marketplace/:provider/:name',
      path: '/marketplace/acme/llama',
      title: 'marketplaceEndpoint',
    });
    const card = await screen.findByTestId('model-figures');
    expect(card).toHaveTextContent(`${MODEL} en 1 proveedor`);
    expect(within(card).getByRole('table', { name: `${MODEL} en 1 proveedor` })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Compararlos en el catálogo' })).toBeInTheDocument();
  });

  it('an endpoint without a model shows no model figures', async () => {
    mockFetch({
      'GET /api/marketplace/:provider/:name': {
        body: { data: { ...detail(null), route_name: 'acme/plain', model_id: null } },
      },
    });
    renderPage(CatalogEndpointPage, {
      route: '/marketplace/:provider/:name',
      path: '/marketplace/acme/plain',
      title: 'marketplaceEndpoint',
    });
    expect(await screen.findByRole('heading', { name: 'Acme Llama', level: 1 })).toBeInTheDocument();
    expect(screen.queryByTestId('model-figures')).toBeNull();
    expect(screen.queryByText(/^Model:/)).toBeNull();
  });
});
