import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TMarketplaceItem } from '@air/shared/schemas/marketplace';
import { MARKETPLACE_NO_STATS } from '@air/shared/schemas/marketplace';
import { screen } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import MarketplacePage from './routes/mkt';
import { cardDescription } from './marketplace-text';

afterEach(() => vi.unstubAllGlobals());

const types = ['agent', 'model', 'datasource'] as const;
const listed: TMarketplaceItem[] = Array.from({ length: 10 }, (_, i) => ({
  name: `Shared ${i + 1}`,
  route_name: `org${i + 1}/route`,
  route_type: types[i % 3]!,
  protocol: 'openai' as const,
  provider: { name: `Org ${i + 1}`, slug: `org${i + 1}` },
  model_id: null,
  description: 'A very long description of this endpoint',
  price: i === 0 ? { per_call: 50_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 } : null,
  currency: 'usd',
  currency_symbol: '$',
  stats: { ...MARKETPLACE_NO_STATS, calls_7d: 1234, success_rate_7d: 0.5, p50_ms_7d: 80 },
  created_at: '2026-01-01T00:00:00.000Z',
}));

describe('marketplace', () => {
  it('cuts descriptions to 21 characters plus "..." after stripping HTML', () => {
    expect(cardDescription('<p>A <strong>very</strong> long description</p>')).toBe(
      'A very long descripti...',
    );
    expect(cardDescription('<p>Short &amp; sweet</p>')).toBe('Short & sweet');
    expect(cardDescription('<img src=x onerror="alert(1)">')).toBe('');
  });

  it('shows a spinner, then at most 8 cards titled by type with route, org, description, price, 7-day figures and Details', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked = '';
    mockFetch({
      'GET /api/marketplace': ({ params }) => {
        asked = params.toString();
        return { body: { data: { items: listed, next_cursor: null } } };
      },
    });
    const fetchMock = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate;
      return fetchMock(...args);
    });
    renderPage(MarketplacePage, { route: '/mkt', path: '/mkt', title: 'mkt' });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading shared endpoints…');
    release();

    const details = await screen.findAllByRole('link', { name: /^Details of/ });
    expect(details).toHaveLength(8);
    // The catalog's newest listings (the spec's grid of 8: the server is asked for no more), each
    // opening the catalog's own endpoint page (issue 38 item 5).
    expect(asked).toBe('sort=newest&limit=8');
    expect(details[0]).toHaveAttribute('href', '/marketplace/org1/route');
    expect(details[0]).toHaveTextContent('Details');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Agent',
      'Model',
      'Datasource',
      'Agent',
      'Model',
      'Datasource',
      'Agent',
      'Model',
    ]);
    expect(screen.getByText('org1/route')).toBeInTheDocument();
    expect(screen.getByText('Org 1')).toBeInTheDocument();
    expect(screen.queryByText('org9/route')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('card-description')[0]).toHaveTextContent(/^A very long descripti\.\.\.$/);
    expect(screen.getAllByTestId('price').map((price) => price.textContent)).toEqual([
      '$0.05 per call',
      ...Array<string>(7).fill('Free'),
    ]);
    expect(screen.getAllByText('Calls (7 days)')).toHaveLength(8);
    expect(screen.getAllByText('1,234')).toHaveLength(8);
  });
});
