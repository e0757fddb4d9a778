import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
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
      { url: 'http://127.0.0.1:9/a', weight: 1 },
      { url: 'http://127.0.0.1:9/b', weight: 1 },
      { url: 'http://127.0.0.1:9/c', weight: 1 },
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
    expect(oneCaller).toHaveTextContent('Closed');
    expect(oneCaller).toHaveTextContent(
      'Open for 1 caller account only: its own calls failed; everyone else is served.',
    );
    expect(within(oneCaller!).queryByTestId('upstream-reason')).toBeNull();
    expect(byConnection).toHaveTextContent('Opened by connection failures');
  });
});
