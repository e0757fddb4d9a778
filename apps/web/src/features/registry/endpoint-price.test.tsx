import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { setSession } from '@/lib/session';
import { endpointFixture, PERMISSION_MAPS, signInFixture } from '@/test/fixtures';
import { mockFetch, renderPage, type TMockRoutes } from '@/test/render-page';
import { amountToMicros as toMicros } from '@air/shared/schemas/price';
import EndpointPage from './routes/endpoint';

const own = endpointFixture({ id: 'e1', name: 'Echo', route_name: 'acme/echo', editable: true });

function signIn() {
  act(() =>
    setSession(
      signInFixture({
        token: 't',
        name: 'Ann',
        account_id: 'acc',
        role: 'owner',
        permission: { ...PERMISSION_MAPS.owner },
      }),
    ),
  );
}

/** The owner on the endpoint page's Settings tab, its PATCH answered by `patch`: the calls made, and the user. */
async function openSettings(patch: TMockRoutes['PATCH /api/aiendpoint/:id']) {
  signIn();
  const calls = mockFetch({
    'GET /api/aiendpoint/:id': { body: { data: own } },
    'PATCH /api/aiendpoint/:id': patch,
    'GET /api/account/plans': { body: { data: { plans: [], active: null, options: [] } } },
  });
  const { user } = renderPage(EndpointPage, {
    route: '/aiendpoints/:id',
    path: '/aiendpoints/e1',
    title: 'endpoint',
  });
  await user.click(await screen.findByRole('tab', { name: 'Settings' }));
  return { calls, user };
}

describe('endpoint price (Settings tab)', () => {
  it('reads amounts of at most 6 decimals as micros', () => {
    expect(toMicros('0.05')).toBe(50_000);
    expect(toMicros('1,5')).toBe(1_500_000);
    expect(toMicros('12')).toBe(12_000_000);
    expect(toMicros('')).toBe(0);
    expect(toMicros('0.002')).toBe(2_000);
    expect(toMicros('0.0000001')).toBeNull();
    expect(toMicros('-1')).toBeNull();
    expect(toMicros('abc')).toBeNull();
  });

  it('saves the price in micros (0.002 per call), refuses a bad amount, and saves all empty as free', async () => {
    const { calls, user } = await openSettings({ body: { data: own } });
    const perCall = await screen.findByLabelText('Per call (USD)');
    await user.type(perCall, '0.0000001');
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    expect(
      await screen.findByText(/Enter an amount from 0 to 1,000 with at most 6 decimals/),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await user.clear(perCall);
    await user.type(perCall, '0.002');
    await user.type(screen.getByLabelText('Per 1M input tokens (USD)'), '1.50');
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      config: { price: { per_call: 2_000, per_1m_input_tokens: 1_500_000, per_1m_output_tokens: 0 } },
    });

    await user.clear(perCall);
    await user.clear(screen.getByLabelText('Per 1M input tokens (USD)'));
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]!.body).toEqual({ config: { price: null } });
  });

  it("shows the server's refusal under the amount it names", async () => {
    const { calls, user } = await openSettings({
      status: 400,
      body: { inputError: 'config.price.per_call', message: 'Per call is too large' },
    });
    const perCall = await screen.findByLabelText('Per call (USD)');
    await user.type(perCall, '2');
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    expect(await screen.findByText('Per call is too large')).toBeInTheDocument();
    expect(perCall).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
  });

  it('an MCP endpoint: one price per tool call and per-tool prices, saved as config.tool_prices', async () => {
    signIn();
    const mcp = endpointFixture({
      id: 'e1',
      route_name: 'acme/docs',
      route_endpoint: 'https://docs.acme.example/mcp',
      protocol: 'mcp',
      editable: true,
    });
    mcp.config = {
      ...mcp.config,
      price: { per_call: 10_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
      tool_prices: { search: 30_000 },
    };
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: mcp } },
      'GET /api/aiendpoint/:id/tools': {
        body: {
          data: {
            tools: [
              { name: 'search', description: null, input_schema: {}, read_only: true, destructive: null },
              { name: 'purge', description: null, input_schema: {}, read_only: null, destructive: true },
            ],
            error: null,
            detail: null,
            read_at: '2026-12-01T00:00:00.000Z',
          },
        },
      },
      'GET /api/aiendpoint/:id/upstreams': { body: { data: { routed: false, upstreams: [] } } },
      'PATCH /api/aiendpoint/:id': { body: { data: mcp } },
      'GET /api/account/plans': { body: { data: { plans: [], active: null, options: [] } } },
    });
    const { user } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: '/aiendpoints/e1',
      title: 'endpoint',
    });
    await user.click(await screen.findByRole('tab', { name: 'Settings' }));
    // A tool call has no tokens: no token prices.
    expect(await screen.findByLabelText('Per tool call (USD)')).toHaveValue('0.01');
    expect(screen.queryByLabelText('Per 1M input tokens (USD)')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Tool 1')).toHaveValue('search');
    expect(screen.getByLabelText('Price of tool 1 (USD)')).toHaveValue('0.03');

    // A bad amount is refused before anything is sent.
    await user.click(screen.getByRole('button', { name: 'Add a tool price' }));
    await user.type(screen.getByLabelText('Tool 2'), 'purge');
    await user.type(screen.getByLabelText('Price of tool 2 (USD)'), '0.0000001');
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    expect(await screen.findByText(/Enter an amount from 0 to 1,000/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Price of tool 2 (USD)'));
    await user.type(screen.getByLabelText('Price of tool 2 (USD)'), '0.5');
    // An empty row is left out.
    await user.click(screen.getByRole('button', { name: 'Add a tool price' }));
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      config: {
        price: { per_call: 10_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
        tool_prices: { search: 30_000, purge: 500_000 },
      },
    });

    // Every tool price removed: null.
    await user.click(screen.getByRole('button', { name: 'Remove tool price 3' }));
    await user.click(screen.getByRole('button', { name: 'Remove tool price 2' }));
    await user.click(screen.getByRole('button', { name: 'Remove tool price 1' }));
    await user.click(screen.getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]!.body).toMatchObject({
      config: { tool_prices: null },
    });
  });
});
