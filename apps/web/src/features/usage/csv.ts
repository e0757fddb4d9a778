import type { TUsageInsight } from '@air/shared/schemas/usage-insight';
import { csvCell as cell } from '@/lib/csv';

export { downloadText } from '@/lib/csv';

const ROW_COLUMNS = [
  'calls',
  'status_2xx',
  'status_4xx',
  'status_5xx',
  'status_other',
  'prompt_tokens',
  'completion_tokens',
  'estimated_calls',
] as const;

/**
 * The usage page as CSV, section by section as shown: caller per day, per endpoint, per key, the
 * totals, latency p50/p95 and the month's quota, then the provider view. The first column names the section, so one file stays sortable.
 */
export function usageCsv(data: TUsageInsight): string {
  const lines: string[] = [];
  const push = (...values: (string | number | null)[]) => lines.push(values.map(cell).join(','));
  push('section', 'name', ...ROW_COLUMNS);
  for (const day of data.caller.days) push('day', day.day, ...ROW_COLUMNS.map((c) => day[c]));
  for (const row of data.caller.endpoints)
    push('endpoint', row.route_name ?? row.endpoint_id ?? '', ...ROW_COLUMNS.map((c) => row[c]));
  for (const row of data.caller.keys)
    push('key', row.key_name ?? row.key_id ?? '', ...ROW_COLUMNS.map((c) => row[c]));
  push('total', `${data.period.from}..${data.period.to}`, ...ROW_COLUMNS.map((c) => data.caller.totals[c]));
  // Latency and quota as the page shows them, one figure per line (column `calls` holds it).
  push('latency_p50_ms', `${data.period.from}..${data.period.to}`, data.caller.totals.latency_p50_ms);
  push('latency_p95_ms', `${data.period.from}..${data.period.to}`, data.caller.totals.latency_p95_ms);
  push('quota_used', data.quota.period, data.quota.calls);
  push('quota', data.quota.period, data.quota.quota);
  push('quota_projected_day', data.quota.period, data.quota.projected_day);
  for (const day of data.provider.days) push('served_day', day.day, day.calls);
  for (const row of data.provider.endpoints) push('served_endpoint', row.route_name ?? '', row.calls);
  for (const row of data.provider.callers) push('served_organisation', row.account_name ?? '', row.calls);
  push('served_total', `${data.period.from}..${data.period.to}`, data.provider.totals.calls);
  return `${lines.join('\r\n')}\r\n`;
}
