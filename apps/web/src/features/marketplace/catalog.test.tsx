import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { TMarketplaceEndpoint, TMarketplaceItem } from '@air/shared/schemas/marketplace';
import { MARKETPLACE_NO_STATS } from '@air/shared/schemas/marketplace';
import { mockFetch, renderPage } from '@/test/render-page';
import CatalogPage from './routes/catalog';
import CatalogEndpointPage from './routes/endpoint';
import ProviderPage from './routes/provider';

function item(patch: Partial<TMarketplaceItem> = {}): TMarketplaceItem {
  return {
    route_name: 'acme/chat',
    name: 'Acme Chat',
    route_type: 'model',
    protocol: 'openai' as const,
    provider: { name: 'Acme Labs', slug: 'acme' },
    model_id: null,
    description: 'Answers questions about tides',
    price: { per_call: 50_000, per_1m_input_tokens: 1_500_000, per_1m_output_tokens: 0 },
    currency: 'usd',
    currency_symbol: '$',
    stats: { ...MARKETPLACE_NO_STATS, calls_7d: 1234, success_rate_7d: 0.995, p50_ms_7d: 41.6 },
    created_at: '2026-11-01T00:00:00.000Z',
    ...patch,
  };
}

describe('marketplace catalog', () => {
  it('filters by first token, tokens per second and price per million tokens, and asks the server so', async () => {
    const calls = mockFetch({
      'GET /api/marketplace': ({ params }) => ({
        body: { data: { items: params.get('max_price_1m') ? [] : [item()], next_cursor: null } },
      }),
    });
    const { user } = renderPage(CatalogPage, {
      route: '/marketplace',
      path: '/marketplace',
      title: 'marketplace',
    });
    await screen.findAllByTestId('catalog-card');
    await user.selectOptions(screen.getByLabelText('Time to first token'), 'At most 500 ms');
    await user.selectOptions(screen.getByLabelText('Tokens per second'), 'At least 25/s');
    await user.selectOptions(screen.getByLabelText('Price per 1M tokens'), 'At most 1.00');
    expect(await screen.findByText('No endpoint matches')).toBeInTheDocument();
    const last = new URLSearchParams(calls.at(-1)!.url.split('?')[1]);
    expect([last.get('max_ttft_ms'), last.get('min_tokens_per_s'), last.get('max_price_1m')]).toEqual([
      '500',
      '25',
      '1000000',
    ]);
    // Back to any price: the parameter leaves the request.
    await user.selectOptions(screen.getByLabelText('Price per 1M tokens'), 'Any');
    expect(await screen.findAllByTestId('catalog-card')).toHaveLength(1);
    expect(calls.at(-1)!.url).not.toContain('max_price_1m');
  });

  it('a card followed while the search text settles is reached: the search does not cancel the navigation', async () => {
    mockFetch({
      'GET /api/marketplace': () => ({ body: { data: { items: [item()], next_cursor: null } } }),
    });
    const { user, router } = renderPage(CatalogPage, {
      route: '/marketplace',
      path: '/marketplace',
      title: 'marketplace',
      elsewhereLoadsMs: 700,
    });
    const [card] = await screen.findAllByTestId('catalog-card');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'acme');
    // The endpoint's page is still loading when the typed text settles (250 ms later).
    await user.click(within(card!).getAllByRole('link')[0]!);
    expect(await screen.findByTestId('elsewhere', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).not.toBe('/marketplace');
  });

  it('lists cards with price and statistics, searches as you type and pages with Show more', async () => {
    const calls = mockFetch({
      'GET /api/marketplace': ({ params }) => {
        const q = params.get('q') ?? '';
        if (q === 'nothing') return { body: { data: { items: [], next_cursor: null } } };
        if (params.get('cursor') === 'next')
          return {
            body: {
              data: { items: [item({ route_name: 'acme/two', name: 'Acme Two' })], next_cursor: null },
            },
          };
        const items = [
          item(),
          item({
            route_name: 'free/one',
            name: 'Free One',
            price: null,
            provider: { name: 'Free Co', slug: 'free' },
            stats: { ...MARKETPLACE_NO_STATS, calls_7d: 0, success_rate_7d: null, p50_ms_7d: null },
          }),
        ];
        return { body: { data: { items, next_cursor: 'next' } } };
      },
    });
    const { user } = renderPage(CatalogPage, {
      route: '/marketplace',
      path: '/marketplace',
      title: 'marketplace',
    });
    const cards = await screen.findAllByTestId('catalog-card');
    expect(cards).toHaveLength(2);
    const acme = cards[0]!;
    expect(within(acme).getByRole('link', { name: 'Acme Chat' })).toHaveAttribute(
      'href',
      '/marketplace/acme/chat',
    );
    expect(within(acme).getByTestId('price')).toHaveTextContent('$0.05 per call · $1.50 per 1M input tokens');
    expect(within(acme).getByText('1,234')).toBeInTheDocument();
    expect(within(acme).getByText('99.5%')).toBeInTheDocument();
    expect(within(acme).getByText('42 ms')).toBeInTheDocument();
    expect(within(cards[1]!).getByTestId('price')).toHaveTextContent('Free');
    expect(within(cards[1]!).getAllByText('No data')).toHaveLength(4);
    expect(document.title).toBe('AI endpoint marketplace | AIR');

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('link', { name: 'Acme Two' })).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'nothing');
    expect(await screen.findByText('No endpoint matches')).toBeInTheDocument();
    // One request for the settled text, not one per key.
    const searches = calls.filter((c) => c.url.includes('q='));
    expect(searches.map((c) => new URLSearchParams(c.url.split('?')[1]).get('q'))).toEqual(['nothing']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'fastest');
    await waitFor(() => expect(calls.at(-1)!.url).toContain('sort=fastest'));
  });

  it('shows the empty state when nothing is shared', async () => {
    mockFetch({ 'GET /api/marketplace': { body: { data: { items: [], next_cursor: null } } } });
    renderPage(CatalogPage, { route: '/marketplace', path: '/marketplace', title: 'marketplace' });
    expect(await screen.findByText('Nothing shared yet')).toBeInTheDocument();
  });

  it("a provider's page shows its profile and combined figures, and asks the catalog for its endpoints only", async () => {
    const calls = mockFetch({
      'GET /api/marketplace': { body: { data: { items: [item()], next_cursor: null } } },
      'GET /api/marketplace/:provider': {
        body: {
          data: {
            provider: { name: 'Acme AI', slug: 'acme', profile: 'Fast models.\nSince 2024.' },
            stats: {
              ...MARKETPLACE_NO_STATS,
              calls_7d: 1234,
              calls_30d: 5000,
              uptime_7d: 0.995,
              p95_ms_7d: 750,
            },
            endpoints: [item()],
          },
        },
      },
    });
    renderPage(ProviderPage, {
      route: '/marketplace/:provider',
      path: '/marketplace/acme',
      title: 'marketplaceProvider',
    });
    expect(await screen.findByRole('heading', { name: 'Acme AI', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('provider-profile')).toHaveTextContent('Fast models. Since 2024.');
    const figures = screen.getByTestId('figures');
    expect(within(figures).getByRole('row', { name: /Uptime/ })).toHaveTextContent('99.5%');
    expect(within(figures).getByRole('row', { name: /95th percentile/ })).toHaveTextContent('750 ms');
    expect(within(figures).getByRole('row', { name: /^Calls/ })).toHaveTextContent('1,2345,000');
    await screen.findByTestId('catalog-card');
    expect(calls.some((c) => c.url.includes('/api/marketplace?') && c.url.includes('provider=acme'))).toBe(
      true,
    );
  });

  it('a provider with nothing listed is not found', async () => {
    mockFetch({
      'GET /api/marketplace/:provider': { status: 404, body: { code: 'not_found', message: 'Not found' } },
    });
    renderPage(ProviderPage, {
      route: '/marketplace/:provider',
      path: '/marketplace/nobody',
      title: 'marketplaceProvider',
    });
    expect(await screen.findByText('Provider not found')).toBeInTheDocument();
  });

  it("an endpoint's page shows its chart, price and snippets; an unlisted one is not found", async () => {
    const detail: TMarketplaceEndpoint = {
      ...item(),
      description: 'Answers questions about tides',
      description_html: '<p>Answers questions about tides</p>',
      daily: Array.from({ length: 30 }, (_, i) => ({
        day: `2026-11-${String(i + 1).padStart(2, '0')}`,
        calls: i,
        success_rate: i === 0 ? null : 1,
      })),
      model: null,
      snippets: {
        curl: 'curl acme/chat',
        node: 'fetch acme/chat',
        python: 'requests acme/chat',
        openai: 'OpenAI acme/chat',
      },
    };
    mockFetch({
      'GET /api/marketplace/:provider/:name': ({ url }) =>
        url.endsWith('/acme/chat')
          ? { body: { data: detail } }
          : { status: 404, body: { message: 'Not found' } },
    });
    const { user } = renderPage(CatalogEndpointPage, {
      route: '/marketplace/:provider/:name',
      path: '/marketplace/acme/chat',
      title: 'marketplaceEndpoint',
    });
    expect(await screen.findByRole('heading', { name: 'Acme Chat', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('daily-chart').querySelectorAll('rect')).toHaveLength(30);
    expect(screen.getByTestId('price')).toHaveTextContent('$0.05 per call');
    expect(screen.getByTestId('snippet-curl')).toHaveTextContent('curl acme/chat');
    await user.click(screen.getByRole('tab', { name: 'OpenAI SDK' }));
    expect(await screen.findByTestId('snippet-openai')).toHaveTextContent('OpenAI acme/chat');
    expect(document.title).toBe('Acme Chat | AIR');
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'Answers questions about tides',
    );
  });

  it("an MCP endpoint's page offers an mcpServers configuration instead of the OpenAI SDK", async () => {
    const detail: TMarketplaceEndpoint = {
      ...item({ route_name: 'acme/docs', name: 'Acme Docs', protocol: 'mcp' }),
      description_html: '',
      daily: [],
      model: null,
      snippets: {
        curl: 'curl acme/docs',
        node: 'StreamableHTTPClientTransport acme/docs',
        python: 'streamablehttp_client acme/docs',
        mcp_servers: '{"mcpServers": {"acme-docs": {}}}',
      },
    };
    mockFetch({ 'GET /api/marketplace/:provider/:name': { body: { data: detail } } });
    const { user } = renderPage(CatalogEndpointPage, {
      route: '/marketplace/:provider/:name',
      path: '/marketplace/acme/docs',
      title: 'marketplaceEndpoint',
    });
    expect(await screen.findByRole('heading', { name: 'Acme Docs', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'OpenAI SDK' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'MCP client config' }));
    expect(await screen.findByTestId('snippet-mcp_servers')).toHaveTextContent('"mcpServers"');
  });

  it("an MCP endpoint's page and card show its per-tool prices", async () => {
    const priced = item({
      route_name: 'acme/docs',
      name: 'Acme Docs',
      protocol: 'mcp',
      price: { per_call: 10_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
      tool_prices: { purge: 0, search: 30_000 },
    });
    const detail: TMarketplaceEndpoint = {
      ...priced,
      description_html: '',
      daily: [],
      model: null,
      snippets: { curl: 'c', node: 'n', python: 'p', mcp_servers: '{}' },
    };
    mockFetch({
      'GET /api/marketplace/:provider/:name': { body: { data: detail } },
      'GET /api/marketplace': { body: { data: { items: [priced], next_cursor: null } } },
    });
    renderPage(CatalogEndpointPage, {
      route: '/marketplace/:provider/:name',
      path: '/marketplace/acme/docs',
      title: 'marketplaceEndpoint',
    });
    const list = await screen.findByTestId('tool-prices');
    expect(screen.getByTestId('price')).toHaveTextContent('$0.01 per call');
    const rows = within(list)
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual(['purgeFree', 'search$0.03 per call']);
  });

  it('a catalog card says how many tools are priced on their own', async () => {
    mockFetch({
      'GET /api/marketplace': {
        body: {
          data: {
            items: [item({ route_name: 'acme/docs', protocol: 'mcp', tool_prices: { search: 30_000 } })],
            next_cursor: null,
          },
        },
      },
    });
    renderPage(CatalogPage, { route: '/marketplace', path: '/marketplace', title: 'marketplace' });
    const [card] = await screen.findAllByTestId('catalog-card');
    expect(card).toHaveTextContent('1 tool priced on its own');
  });

  it('says an unlisted endpoint is not found', async () => {
    mockFetch({ 'GET /api/marketplace/:provider/:name': { status: 404, body: { message: 'Not found' } } });
    renderPage(CatalogEndpointPage, {
      route: '/marketplace/:provider/:name',
      path: '/marketplace/acme/secret',
      title: 'marketplaceEndpoint',
    });
    expect(await screen.findByText('Endpoint not found')).toBeInTheDocument();
  });
});
