import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TUsagePeriod, TUsageLogQuery } from '@air/shared/schemas/usage-insight';
import { call } from '@/lib/api';

export interface TPeriodChoice {
  period: TUsagePeriod;
  from?: string;
  to?: string;
}

function periodQuery(choice: TPeriodChoice): string {
  const params = new URLSearchParams({ period: choice.period });
  if (choice.period === 'custom' && choice.from && choice.to) {
    params.set('from', choice.from);
    params.set('to', choice.to);
  }
  return params.toString();
}

/** GET /api/account/usage/insight: the usage page's caller and provider views and the quota. */
export function usageInsightQuery(choice: TPeriodChoice) {
  return queryOptions({
    queryKey: ['usage-insight', choice.period, choice.from ?? '', choice.to ?? ''],
    queryFn: async ({ signal }) =>
      (await call('GET /api/account/usage/insight', { query: periodQuery(choice), signal })).data,
    // "Custom" picked before both days are: nothing to ask yet (the server would answer 400), and
    // the last period's figures stay on the page meanwhile.
    enabled: choice.period !== 'custom' || Boolean(choice.from && choice.to),
    placeholderData: keepPreviousData,
  });
}

/** The request log's filters: the filter part of `ZUsageLogQuery`. */
export type TLogFilters = Pick<TUsageLogQuery, 'endpoint_id' | 'key_id' | 'status'>;

/** GET /api/account/usage/log: one page of the request log (cursor from the previous page). */
export async function fetchRequestLog(filters: TLogFilters, cursor?: string, signal?: AbortSignal) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  return (await call('GET /api/account/usage/log', { query: params, signal })).data;
}

/** GET /api/account/usage: this month's calls against the quota (the console's banner). */
export const monthUsageQuery = queryOptions({
  queryKey: ['account-usage'],
  queryFn: async ({ signal }) => (await call('GET /api/account/usage', { signal })).data ?? [],
  staleTime: 60_000,
});
