import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { TAnswerOf } from '@air/shared/api';
import type { TUsageInsight } from '@air/shared/schemas/usage-insight';
import { mockFetch, renderPage } from '@/test/render-page';
import { usageCsv } from './csv';
import UsagePage from './routes/usage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const row = { status_other: 0, prompt_tokens: 0, completion_tokens: 0, estimated_calls: 0 };
const INSIGHT: TUsageInsight = {
  period: { preset: 'this_month', from: '2026-11-01', to: '2026-11-02' },
  caller: {
    totals: {
      calls: 5,
      status_2xx: 3,
      status_4xx: 0,
      status_5xx: 2,
      ...row,
      prompt_tokens: 12,
      estimated_calls: 1,
      latency_p50_ms: 12.5,
      latency_p95_ms: 80,
    },
    days: [
      { day: '2026-11-01', calls: 1, status_2xx: 1, status_4xx: 0, status_5xx: 0, ...row },
      { day: '2026-11-02', calls: 4, status_2xx: 2, status_4xx: 0, status_5xx: 2, ...row, prompt_tokens: 12 },
    ],
    endpoints: [
      {
        endpoint_id: '00000000-0000-4000-8000-000000000001',
        route_name: 'acme/echo',
        calls: 5,
        status_2xx: 3,
        status_4xx: 0,
        status_5xx: 2,
        ...row,
      },
    ],
    keys: [],
  },
  provider: { totals: { calls: 0 }, days: [], endpoints: [], callers: [] },
  quota: {
    period: '2026-11',
    calls: 900,
    quota: 1000,
    percent: 90,
    projected_day: '2026-11-20',
    reached: false,
  },
};

type TLogPage = TAnswerOf<'GET /api/account/usage/log'>['data'];

/** The usage page over INSIGHT and `log` (the request log): the calls it makes, and its user. */
function renderUsage(log: TLogPage = { items: [], next_cursor: null }) {
  const calls = mockFetch({
    'GET /api/account/usage/insight': { body: { data: INSIGHT } },
    'GET /api/account/usage/log': { body: { data: log } },
    'GET /api/account/usage': { body: { data: [] } },
  });
  const { user } = renderPage(UsagePage, { route: '/account/usage', path: '/account/usage', title: 'usage' });
  return { calls, user };
}

describe('/account/usage', () => {
  it('shows the quota, the totals and the chart numbers in an accessible table; CSV holds the same', async () => {
    renderUsage();
    const table = await screen.findByRole('table', { name: 'Calls per day by status class' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['Day2xx4xx5xx', 'Nov 1100', 'Nov 2202']);
    expect(screen.getByRole('progressbar', { name: 'Monthly quota used' })).toHaveAttribute(
      'aria-valuenow',
      '90',
    );
    expect(screen.getByText('900 of 1,000 calls used (90%)')).toBeInTheDocument();
    expect(screen.getByText(/At this pace the quota is reached on Nov 20, 2026/)).toBeInTheDocument();
    expect(screen.getByTestId('usage-totals')).toHaveTextContent('Prompt tokens≈12');
    expect(screen.getByText('No other account called your endpoints in this period')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No calls match')).toBeInTheDocument());

    const csv = usageCsv(INSIGHT).split('\r\n');
    expect(csv[0]).toBe(
      'section,name,calls,status_2xx,status_4xx,status_5xx,status_other,prompt_tokens,completion_tokens,estimated_calls',
    );
    expect(csv).toContain('total,2026-11-01..2026-11-02,5,3,0,2,0,12,0,1');
    expect(csv).toContain('endpoint,acme/echo,5,3,0,2,0,0,0,0');
    expect(csv).toContain('latency_p50_ms,2026-11-01..2026-11-02,12.5');
    expect(csv).toContain('latency_p95_ms,2026-11-01..2026-11-02,80');
    expect(csv).toContain('quota_used,2026-11,900');
    expect(csv).toContain('quota,2026-11,1000');
    expect(csv).toContain('quota_projected_day,2026-11,2026-11-20');
  });

  it('asks for the period again when a preset is picked', async () => {
    const { calls, user } = renderUsage();
    await screen.findByRole('table', { name: 'Calls per day by status class' });
    await user.selectOptions(screen.getByLabelText('Period'), 'last_7_days');
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/api/account/usage/insight?period=last_7_days')).toBe(true),
    );
  });

  it('a custom period: refuses a range the server would (the query schema), then asks for the typed days', async () => {
    const { calls, user } = renderUsage();
    await screen.findByRole('table', { name: 'Calls per day by status class' });
    await user.selectOptions(screen.getByLabelText('Period'), 'custom');
    const from = await screen.findByLabelText('From');
    const to = screen.getByLabelText('To');
    await user.type(from, '2025-01-01');
    await user.type(to, '2026-06-30');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText('Choose a first and last day, 366 days at most (both included)'),
    ).toBeInTheDocument();
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.url.includes('from=2025-01-01'))).toBe(false);

    await user.clear(from);
    await user.type(from, '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.url === '/api/account/usage/insight?period=custom&from=2026-01-01&to=2026-06-30'),
      ).toBe(true),
    );
  });

  it('lists a call to an unknown route in the request log, as no such route with its error code', async () => {
    renderUsage({
      items: [
        {
          id: 'call-404',
          time: '2026-11-02T12:05:09.000Z',
          endpoint_id: null,
          route_name: null,
          tool: null,
          key_id: '00000000-0000-4000-8000-000000000002',
          key_name: 'CI key',
          status: 404,
          latency_ms: 1,
          prompt_tokens: null,
          completion_tokens: null,
          tokens_estimated: false,
          streamed: false,
          error_code: 'route_not_found',
          attempts: 0,
          cache_hit: false,
          client_format: null,
          upstream_format: null,
          requested_route_name: null,
        },
      ],
      next_cursor: null,
    });
    const log = await screen.findByRole('table', { name: 'Request log' });
    const [, row] = within(log).getAllByRole('row');
    const cells = within(row!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[1]).toBe('(no such route)');
    expect(cells).toContain('route_not_found');
    expect(row).toHaveAttribute('data-status', '404');
  });

  it('lists a call refused for a limit as refused before routing, with its code (issue 38 item 2)', async () => {
    renderUsage({
      items: [
        {
          id: 'call-429',
          time: '2026-11-02T12:05:09.000Z',
          endpoint_id: null,
          route_name: null,
          tool: null,
          key_id: '00000000-0000-4000-8000-000000000002',
          key_name: 'CI key',
          status: 429,
          latency_ms: 1,
          prompt_tokens: null,
          completion_tokens: null,
          tokens_estimated: false,
          streamed: false,
          error_code: 'key_quota_exceeded',
          attempts: 0,
          cache_hit: false,
          client_format: null,
          upstream_format: null,
          requested_route_name: null,
        },
      ],
      next_cursor: null,
    });
    const log = await screen.findByRole('table', { name: 'Request log' });
    const [, row] = within(log).getAllByRole('row');
    const cells = within(row!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[1]).toBe('(refused before routing)');
    expect(cells).toContain('key_quota_exceeded');
  });

  it("names an MCP tool call's tool under its route (issue 41)", async () => {
    renderUsage({
      items: [
        {
          id: 'call-tool',
          time: '2026-11-02T12:05:09.000Z',
          endpoint_id: '00000000-0000-4000-8000-000000000041',
          route_name: 'acme/docs',
          tool: 'search',
          key_id: '00000000-0000-4000-8000-000000000002',
          key_name: 'CI key',
          status: 200,
          latency_ms: 4,
          prompt_tokens: null,
          completion_tokens: null,
          tokens_estimated: false,
          streamed: false,
          error_code: null,
          attempts: 1,
          cache_hit: false,
          client_format: null,
          upstream_format: null,
          requested_route_name: null,
        },
      ],
      next_cursor: null,
    });
    const log = await screen.findByRole('table', { name: 'Request log' });
    const [, row] = within(log).getAllByRole('row');
    expect(within(row!).getByTestId('log-tool')).toHaveTextContent('search');
    expect(within(row!).getAllByRole('cell')[1]).toHaveTextContent('acme/docssearch');
    // An MCP call speaks no model API: no format.
    expect(within(row!).getByTestId('log-format')).toHaveTextContent('—');
  });

  it("shows each call's client and upstream format, and the route a fallback's call asked for (decision 058)", async () => {
    const call = {
      time: '2026-11-02T12:05:09.000Z',
      tool: null,
      key_id: '00000000-0000-4000-8000-000000000002',
      key_name: 'CI key',
      status: 200,
      latency_ms: 4,
      prompt_tokens: 11,
      completion_tokens: 7,
      tokens_estimated: false,
      streamed: false,
      error_code: null,
      cache_hit: false,
    };
    renderUsage({
      items: [
        {
          ...call,
          id: 'call-fallback',
          endpoint_id: '00000000-0000-4000-8000-000000000051',
          route_name: 'acme/backup',
          attempts: 2,
          client_format: 'openai',
          upstream_format: 'anthropic',
          requested_route_name: 'acme/primary',
        },
        {
          ...call,
          id: 'call-direct',
          endpoint_id: '00000000-0000-4000-8000-000000000052',
          route_name: 'acme/claude',
          attempts: 1,
          client_format: 'anthropic',
          upstream_format: 'anthropic',
          requested_route_name: null,
        },
      ],
      next_cursor: null,
    });
    const log = await screen.findByRole('table', { name: 'Request log' });
    const [header, fellBack, direct] = within(log).getAllByRole('row');
    expect(within(header!).getAllByRole('columnheader')[4]).toHaveTextContent('Format (client → upstream)');
    expect(within(fellBack!).getByTestId('log-format')).toHaveTextContent('OpenAI → Anthropic');
    expect(within(fellBack!).getByTestId('log-asked')).toHaveTextContent('asked for acme/primary');
    expect(within(fellBack!).getAllByRole('cell')[1]).toHaveTextContent('acme/backupasked for acme/primary');
    expect(within(direct!).getByTestId('log-format')).toHaveTextContent('Anthropic → Anthropic');
    expect(within(direct!).queryByTestId('log-asked')).toBeNull();
  });
});
