import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import type { TUsageInsight, TUsageLogEntry } from '@air/shared/schemas/usage-insight';
import i18n from '@/lib/i18n';
import { mockFetch, renderPage } from '@/test/render-page';
import UsagePage from './routes/usage';

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

const zero = { status_2xx: 0, status_4xx: 0, status_5xx: 0, status_other: 0 };
const tokens = { prompt_tokens: 0, completion_tokens: 0, estimated_calls: 0 };
const INSIGHT: TUsageInsight = {
  period: { preset: 'this_month', from: '2026-11-01', to: '2026-11-02' },
  caller: {
    totals: { calls: 1234, ...zero, status_2xx: 1234, ...tokens, latency_p50_ms: 12, latency_p95_ms: 80 },
    days: [{ day: '2026-11-02', calls: 1234, ...zero, status_2xx: 1234, ...tokens }],
    endpoints: [],
    keys: [],
  },
  provider: { totals: { calls: 0 }, days: [], endpoints: [], callers: [] },
  quota: {
    period: '2026-11',
    calls: 1234,
    quota: 10000,
    percent: 12,
    projected_day: '2026-11-20',
    reached: false,
  },
};

// Noon UTC: the same calendar day in any time zone the test runs in.
const CALL: TUsageLogEntry = {
  id: 'call-1',
  time: '2026-11-02T12:05:09.000Z',
  endpoint_id: '00000000-0000-4000-8000-000000000001',
  route_name: 'acme/echo',
  tool: null,
  key_id: null,
  key_name: 'Clave de producción',
  status: 200,
  latency_ms: 1234,
  prompt_tokens: 1500,
  completion_tokens: 25000,
  tokens_estimated: false,
  streamed: true,
  error_code: null,
  attempts: 2,
  cache_hit: false,
  client_format: 'anthropic',
  upstream_format: 'gemini',
  requested_route_name: 'acme/primary',
};

describe('the console in Spanish (Intl es)', () => {
  it('writes the request log’s dates and the page’s numbers the Spanish way', async () => {
    await act(() => i18n.changeLanguage('es'));
    mockFetch({
      'GET /api/account/usage/insight': { body: { data: INSIGHT } },
      'GET /api/account/usage/log': { body: { data: { items: [CALL], next_cursor: null } } },
    });
    renderPage(UsagePage, { route: '/account/usage', path: '/account/usage', title: 'usage' });

    // Numbers: "." groups thousands (also four-digit ones), the console's date.
    expect(await screen.findByText('1.234 de 10.000 llamadas usadas (12 %)')).toBeInTheDocument();
    expect(screen.getByText(/A este ritmo la cuota se alcanza el 20 nov 2026/)).toBeInTheDocument();

    // The request log, a list with a date column: day, short month, year, 24-hour time.
    const log = await screen.findByRole('table', { name: 'Registro de peticiones' });
    const [header, row] = within(log).getAllByRole('row');
    expect(within(header!).getAllByRole('columnheader')[0]).toHaveTextContent('Hora');
    const cells = within(row!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[0]).toMatch(/^2 nov 2026, \d{2}:05:09$/);
    // The formats it went between, and the route a fallback's call asked for (decision 058).
    expect(within(header!).getAllByRole('columnheader')[4]).toHaveTextContent('Formato (cliente → upstream)');
    expect(cells[4]).toBe('Anthropic → Gemini');
    expect(within(row!).getByTestId('log-asked')).toHaveTextContent('se pidió acme/primary');
    expect(cells[5]).toBe('1.234 ms');
    expect(cells[6]).toBe('1.500 / 25.000');
    expect(cells[7]).toBe('Sí');
    // Upstream calls made for it (a retry), and no cache hit.
    expect(within(header!).getAllByRole('columnheader')[8]).toHaveTextContent('Intentos');
    expect(cells[8]).toBe('2');
    expect(cells[9]).toBe('');
  });
});
