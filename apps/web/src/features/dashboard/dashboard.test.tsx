import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TUsageLogEntry } from '@air/shared/schemas/usage-insight';
import i18n from '@/lib/i18n';
import { clearSession, setSession } from '@/lib/session';
import {
  PERMISSION_MAPS,
  apiKeyFixture,
  endpointFixture,
  overviewFixture,
  trendFixture,
  userFixture,
} from '@/test/fixtures';
import { mockFetch, renderPage } from '@/test/render-page';
import DashboardPage from './routes/dashboard';
import { PLACEHOLDER_KEY, PLACEHOLDER_ROUTE } from '@air/shared/snippets';

afterEach(async () => {
  act(() => clearSession());
  await act(() => i18n.changeLanguage('en'));
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const FULL_KEY = `air_${'a'.repeat(40)}`;
const MASKED = 'air_aaaa…';
const keyId = '00000000-0000-4000-8000-000000000001';
const EP_OK = '00000000-0000-4000-8000-00000000e001';
const EP_DOWN = '00000000-0000-4000-8000-00000000e002';

function signIn(role: keyof typeof PERMISSION_MAPS = 'owner') {
  act(() => setSession({ ...userFixture({ role, permission: { ...PERMISSION_MAPS[role] } }), token: 't' }));
}

/** A key and a route exist, no call has succeeded yet: the checklist shows with the examples. */
function withKeyAndRoute() {
  return mockFetch({
    'GET /api/key': { body: { data: [apiKeyFixture({ id: keyId, name: 'k', key: 'air_aaaa…' })] } },
    'GET /api/key/:id': { body: { data: apiKeyFixture({ id: keyId, key: FULL_KEY }) } },
    'GET /api/aiendpoint': { body: { data: [endpointFixture({ route_name: 'acme/echo', isActive: true })] } },
    'GET /api/account/overview': {
      body: { data: overviewFixture({ started: { key: true, endpoint: true, call: false } }) },
    },
  });
}

const CALL: TUsageLogEntry = {
  id: 'call-1',
  time: '2026-05-20T12:05:09.000Z',
  endpoint_id: EP_OK,
  route_name: 'acme/chat',
  tool: null,
  key_id: keyId,
  key_name: 'k',
  status: 502,
  latency_ms: 1234,
  prompt_tokens: null,
  completion_tokens: null,
  tokens_estimated: false,
  streamed: false,
  error_code: 'upstream_502',
  attempts: 1,
  cache_hit: false,
  client_format: 'openai',
  upstream_format: 'openai',
  requested_route_name: null,
};

const BUSY = overviewFixture({
  calls_today: 1234,
  calls_period: 5678,
  errors_period: 142,
  error_rate: 142 / 5678,
  latency_p50_ms: 180.4,
  trend: trendFixture((i) => i * 10),
  quota: {
    period: '2026-05',
    calls: 5678,
    quota: 10000,
    percent: 56,
    projected_day: '2026-05-27',
    reached: false,
  },
  top_routes: [
    { endpoint_id: EP_OK, route_name: 'acme/chat', calls: 5000, errors: 100 },
    { endpoint_id: '00000000-0000-4000-8000-00000000dead', route_name: null, calls: 678, errors: 0 },
  ],
  endpoints: [
    {
      id: EP_DOWN,
      route_name: 'acme/down',
      active: true,
      state: 'open',
      upstreams: 2,
      open_upstreams: 1,
      attempts_1h: 9,
      failures_1h: 9,
    },
    {
      id: EP_OK,
      route_name: 'acme/chat',
      active: false,
      state: 'closed',
      upstreams: 1,
      open_upstreams: 0,
      attempts_1h: 0,
      failures_1h: 0,
    },
  ],
  endpoint_count: 8,
  latest_calls: [CALL],
  started: { key: true, endpoint: true, call: true },
});

describe('dashboard overview', () => {
  it('shows the figures: today, this period with its trend, error rate, p50, quota, routes, health, calls', async () => {
    signIn();
    mockFetch({
      'GET /api/key': { body: { data: [] } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/overview': { body: { data: BUSY } },
    });
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByTestId('calls-today')).toHaveTextContent('1,234');
    expect(screen.getByTestId('usage-total')).toHaveTextContent('5,678');
    // Calls today and this period count every call, the quota only admitted ones: said (issue 38).
    expect(screen.getByText('Since May 1, refused calls included')).toBeInTheDocument();
    expect(screen.getByTestId('calls-today-tile')).toHaveTextContent('the quota counts only admitted calls');
    expect(screen.getByTestId('error-rate')).toHaveTextContent('2.5%');
    expect(screen.getByText('142 of 5,678 calls answered 4xx or 5xx')).toBeInTheDocument();
    expect(screen.getByTestId('latency-p50')).toHaveTextContent('180 ms');
    // The trend line: one point a day, its figures in its accessible name.
    const line = screen.getByRole('img', {
      name: 'Calls per day over the last 30 days: 4,350 in all, at most 290 in a day',
    });
    expect(line.querySelector('polyline')!.getAttribute('points')!.split(' ')).toHaveLength(30);
    // Quota with the projected day.
    expect(screen.getByText('5,678 of 10,000 calls used (56%)')).toBeInTheDocument();
    expect(screen.getByText('At this pace the quota is reached on May 27, 2026.')).toBeInTheDocument();
    // Top routes, the route name as identity (monospace, a link to its page), a deleted one named so.
    const routes = within(screen.getByTestId('top-routes')).getAllByRole('listitem');
    expect(routes[0]).toHaveTextContent('acme/chat5,000 calls100 errors');
    expect(within(routes[0]!).getByRole('link', { name: 'acme/chat' })).toHaveAttribute(
      'href',
      `/aiendpoints/${EP_OK}`,
    );
    expect(within(routes[0]!).getByRole('link', { name: 'acme/chat' })).toHaveClass('font-mono');
    expect(routes[1]).toHaveTextContent('(deleted endpoint)678 calls');
    // Endpoint health, the failing one first, an inactive one marked, a link to all of them.
    const health = within(screen.getByTestId('endpoint-health')).getAllByRole('listitem');
    expect(health[0]).toHaveTextContent('acme/downFailing');
    expect(health[1]).toHaveTextContent('acme/chatInactiveHealthy');
    expect(screen.getByRole('link', { name: 'See all 8 endpoints' })).toHaveAttribute('href', '/registry');
    // Latest calls.
    const latest = within(screen.getByTestId('latest-calls')).getAllByRole('listitem');
    expect(latest[0]).toHaveTextContent('502acme/chat1,234 ms');
    expect(screen.getByRole('link', { name: 'Open the request log' })).toHaveAttribute(
      'href',
      '/account/usage',
    );
    // A key exists and a call succeeded: the checklist has folded into the examples.
    expect(screen.queryByTestId('get-started')).not.toBeInTheDocument();
    expect(screen.getByTestId('quick-start')).not.toHaveAttribute('open');
  });

  it('shows a loading state until the figures come, then empty states that say what to do', async () => {
    signIn();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    mockFetch({
      'GET /api/key': { body: { data: [] } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/overview': async () => {
        await held;
        return { body: { data: overviewFixture() } };
      },
    });
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByTestId('overview-loading')).toHaveAttribute('role', 'status');
    release();
    expect(await screen.findByTestId('calls-today')).toHaveTextContent('0');
    expect(screen.queryByTestId('overview-loading')).not.toBeInTheDocument();
    expect(screen.getByTestId('error-rate')).toHaveTextContent('—');
    expect(
      screen.getByText('No calls this period. Call a route with your API key and it shows here.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/No calls in the last 30 days/)).toBeInTheDocument();
    expect(screen.getByText('No endpoints yet.')).toBeInTheDocument();
  });

  it('says so when the figures cannot be read', async () => {
    signIn();
    mockFetch({
      'GET /api/key': { body: { data: [] } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/overview': { status: 500, body: { message: 'boom' } },
    });
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The overview is not available right now');
  });

  it('reads in Spanish', async () => {
    signIn();
    await act(() => i18n.changeLanguage('es'));
    mockFetch({
      'GET /api/key': { body: { data: [] } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/overview': { body: { data: BUSY } },
    });
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByTestId('calls-today')).toHaveTextContent('1.234');
    expect(screen.getByText('Llamadas hoy')).toBeInTheDocument();
    expect(screen.getByText('Tasa de errores')).toBeInTheDocument();
    expect(screen.getByText('Estado de los endpoints')).toBeInTheDocument();
    expect(within(screen.getByTestId('endpoint-health')).getAllByRole('listitem')[0]).toHaveTextContent(
      'acme/downFallando',
    );
  });
});

describe('dashboard "Get started" checklist', () => {
  it('lists the three steps, ticks what is done and links to what is not', async () => {
    signIn();
    mockFetch({
      'GET /api/key': { body: { data: [] } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/overview': {
        body: { data: overviewFixture({ started: { key: false, endpoint: true, call: false } }) },
      },
    });
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    const list = await screen.findByTestId('get-started');
    expect(within(list).getByText('1 of 3 steps done')).toBeInTheDocument();
    const steps = within(list).getAllByRole('listitem');
    expect(steps.map((step) => step.dataset.done)).toEqual(['false', 'true', 'false']);
    expect(steps[0]).toHaveTextContent('Create an API key (to do)');
    expect(steps[1]).toHaveTextContent('Register an endpoint (done)');
    expect(within(steps[0]!).getByRole('link', { name: 'Create an API key' })).toHaveAttribute(
      'href',
      '/account/apikeys/create',
    );
    // The last step carries the examples, with placeholders until a key and a route exist.
    expect(within(steps[2]!).getByTestId('snippet-curl')).toHaveTextContent(`x-api-key: ${PLACEHOLDER_KEY}`);
  });

  it('builds every example from the origin, the newest key masked and a real route, revealing nothing', async () => {
    signIn();
    const calls = withKeyAndRoute();
    const { user } = renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    const origin = window.location.origin;
    await waitFor(() => expect(screen.getByTestId('snippet-curl')).toHaveTextContent(MASKED));
    const curl = screen.getByTestId('snippet-curl').textContent!;
    expect(curl).toContain(`'${origin}/api/v1'`);
    expect(curl).toContain(`x-api-key: ${MASKED}`);
    expect(curl).not.toContain(FULL_KEY);
    expect(curl).toContain('x-route-name: acme/echo');
    expect(curl).toContain('"messages":[{"role":"user","content":"Hello!"}]');
    expect(curl).toContain('"stream":false');

    await user.click(screen.getByRole('tab', { name: 'NodeJS' }));
    const node = screen.getByTestId('snippet-node').textContent!;
    expect(node).toContain(`Bearer ${MASKED}`);
    expect(node).toContain('\'x-route-name\': "acme/echo"');
    await user.click(screen.getByRole('tab', { name: 'Python' }));
    expect(screen.getByTestId('snippet-python')).toHaveTextContent(`"x-api-key": "${MASKED}"`);

    const openai = screen.getByTestId('snippet-openai').textContent!;
    expect(openai).toContain(`baseURL: "${origin}/api/v1"`);
    expect(openai).toContain('model: "gpt-4o"');
    // Each reveal is a line in the activity log: showing the dashboard reveals no key.
    expect(calls.some((c) => c.url.startsWith('/api/key/'))).toBe(false);
  });

  it('keeps the placeholders and only warns when the key fetch fails', async () => {
    signIn();
    mockFetch({
      'GET /api/key': { status: 403, body: { message: 'Forbidden' } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/overview': { body: { data: overviewFixture() } },
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    await waitFor(() => expect(warn).toHaveBeenCalled());
    const curl = (await screen.findByTestId('snippet-curl')).textContent!;
    expect(curl).toContain(`x-api-key: ${PLACEHOLDER_KEY}`);
    expect(curl).toContain(`x-route-name: ${PLACEHOLDER_ROUTE}`);
  });

  it('makes no call a user-role member may not make, and links nowhere it cannot go', async () => {
    signIn('user');
    const calls = mockFetch({
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/overview': { body: { data: overviewFixture() } },
    });
    const warn = vi.spyOn(console, 'warn');
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    const list = await screen.findByTestId('get-started');
    expect(
      within(list).getByText('Ask an owner or a developer of this account for an API key.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create an API key' })).not.toBeInTheDocument();
    await waitFor(() => expect(calls.map((call) => call.url)).toContain('/api/aiendpoint'));
    // The limits reached (any member may read them, as the overview).
    expect([...new Set(calls.map((call) => `${call.method} ${call.url}`))].sort()).toEqual([
      'GET /api/account/overview',
      'GET /api/account/usage/limits',
      'GET /api/aiendpoint',
    ]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('copies an example with the real key and confirms for 2 seconds', async () => {
    signIn();
    withKeyAndRoute();
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    // After renderPage: user-event installs its own clipboard stub on setup.
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await waitFor(() => expect(screen.getByTestId('snippet-curl')).toHaveTextContent(MASKED));
    vi.useFakeTimers();
    const panel = screen.getByTestId('snippet-curl').parentElement!;
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Copy' }));
    });
    // Shown masked, copied whole (the key is revealed only now).
    await vi.waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        screen.getByTestId('snippet-curl').textContent!.replace(MASKED, FULL_KEY),
      ),
    );
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1900));
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(within(panel).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });
});
