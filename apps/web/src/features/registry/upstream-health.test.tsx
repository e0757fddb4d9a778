import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { TUpstreamHealth } from '@air/shared/schemas/aiendpoint';
import { endpointFixture, PERMISSION_MAPS, routingConfigFixture, signInFixture } from '@/test/fixtures';
import { clearSession, setSession } from '@/lib/session';
import { mockFetch, renderPage } from '@/test/render-page';
import EndpointPage from './routes/endpoint';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => clearSession());
});

const id = '00000000-0000-4000-8000-000000000019';
const own = endpointFixture({
  id,
  route_name: 'acme/routed',
  route_endpoint: 'http://127.0.0.1:9/a',
  editable: true,
  config: routingConfigFixture('http://127.0.0.1:9/a', {
    upstreams: [
      { url: 'http://127.0.0.1:9/a', weight: 1, format: 'openai' },
      { url: 'http://127.0.0.1:9/b', weight: 1, format: 'openai' },
      { url: 'http://127.0.0.1:9/c', weight: 1, format: 'openai' },
    ],
  }),
});

type TRow = TUpstreamHealth['upstreams'][number];
const quiet = { weight: 1, last_failure_at: null, attempts_1h: 10, failures_1h: 0 };
const rows: TRow[] = [
  {
    ...quiet,
    url: 'http://127.0.0.1:9/a',
    state: 'open',
    open_reason: 'callers',
    opened_by_callers: 2,
    open_for_callers: 0,
  },
  {
    ...quiet,
    url: 'http://127.0.0.1:9/b',
    state: 'closed',
    open_reason: null,
    opened_by_callers: 0,
    open_for_callers: 1,
  },
  {
    ...quiet,
    url: 'http://127.0.0.1:9/c',
    state: 'probing',
    open_reason: 'connection',
    opened_by_callers: 0,
    open_for_callers: 0,
  },
];

describe('the upstream card', () => {
  it('says why each circuit is open, and for how many callers alone', async () => {
    act(() =>
      setSession(
        signInFixture({
          token: 't',
          name: 'Ann',
          account_id: 'acc',
          role: 'user',
          permission: { ...PERMISSION_MAPS.user },
        }),
      ),
    );
    mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'GET /api/aiendpoint/:id/upstreams': { body: { data: { routed: true, upstreams: rows } } },
    });
    renderPage(EndpointPage, { route: '/aiendpoints/:id', path: `/aiendpoints/${id}`, title: 'endpoint' });
    const list = await screen.findByRole('list', { name: 'Upstreams' });
    const [byCallers, oneCaller, byConnection] = within(list).getAllByRole('listitem');
    expect(byCallers).toHaveTextContent('Opened by failures from 2 caller accounts: skipped for everyone.');
    expect(oneCaller).toHaveTextContent('Healthy');
    expect(oneCaller).toHaveTextContent(
      'Failing for 1 caller account only: its own calls failed; everyone else is served.',
    );
    expect(within(oneCaller!).queryByTestId('upstream-reason')).toBeNull();
    expect(byConnection).toHaveTextContent('Opened by connection failures');
  });

  it("uses the dashboard's words for a circuit and says when a failing upstream is tried again", async () => {
    act(() => setSession(signInFixture({ token: 't', name: 'Ann', account_id: 'acc', role: 'user' })));
    const failing: TRow = {
      ...quiet,
      url: 'http://127.0.0.1:9/a',
      state: 'open',
      last_failure_at: new Date(Date.now() - 5_000).toISOString(),
      open_reason: 'owner',
      opened_by_callers: 0,
      open_for_callers: 0,
    };
    mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'GET /api/aiendpoint/:id/upstreams': { body: { data: { routed: true, upstreams: [failing] } } },
    });
    renderPage(EndpointPage, { route: '/aiendpoints/:id', path: `/aiendpoints/${id}`, title: 'endpoint' });
    const list = await screen.findByRole('list', { name: 'Upstreams' });
    expect(list).toHaveTextContent('Failing');
    expect(list).not.toHaveTextContent(/\bOpen\b/);
    // The fixture's cooldown is 30 s, and the failure was 5 s ago (plus however long a loaded
    // machine took to render: a fixed 25 or 26 failed at 22).
    const retry = /tried again in (\d+) s/.exec(within(list).getByTestId('upstream-retry').textContent ?? '');
    expect(Number(retry?.[1])).toBeGreaterThan(0);
    expect(Number(retry?.[1])).toBeLessThanOrEqual(25);
  });

  it('asks for the upstreams again after routing is saved', async () => {
    act(() => setSession(signInFixture({ token: 't', name: 'Ann', account_id: 'acc', role: 'user' })));
    const calls = mockFetch({
      'GET /api/aiendpoint/:id': { body: { data: own } },
      'GET /api/aiendpoint/:id/upstreams': { body: { data: { routed: true, upstreams: rows } } },
      'GET /api/aiendpoint': { body: { data: [own] } },
      'GET /api/aiendpointShared': { body: { data: [] } },
      'PATCH /api/aiendpoint/:id': { body: { data: own } },
    });
    const { user, queryClient } = renderPage(EndpointPage, {
      route: '/aiendpoints/:id',
      path: `/aiendpoints/${id}`,
      title: 'endpoint',
    });
    await screen.findByRole('list', { name: 'Upstreams' });
    // The card refreshes itself every 10 s; a save must not wait for that: it drops the card's answer.
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    const form = await screen.findByRole('form', { name: 'Routing and resilience' });
    await user.click(within(form).getByRole('button', { name: 'Save routing' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['upstream-health', id] }));
  }, 20_000);
});
