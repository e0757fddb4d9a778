import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TUsagePeriod, TUsageLogQuery } from '@air/shared/schemas/usage-insight';
import type { TQueryOf } from '@air/shared/api';
import { call } from '@/lib/api';

export interface TPeriodChoice {
  period: TUsagePeriod;
  from?: string;
  to?: string;
}

function periodQuery(choice: TPeriodChoice): TQueryOf<'GET /api/account/usage/insight'> {
  return choice.period === 'custom' && choice.from && choice.to
    ? { period: choice.period, from: choice.from, to: choice.to }
    : { period: choice.period };
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
  const query = { ...filters, cursor };
  return (await call('GET /api/account/usage/log', { query, signal })).data;
}

/** GET /api/account/usage: this month's calls against the quota (the console's banner). */
export const monthUsageQuery = queryOptions({
  queryKey: ['account-usage'],
  queryFn: async ({ signal }) => (await call('GET /api/account/usage', { signal })).data ?? [],
  staleTime: 60_000,
});
