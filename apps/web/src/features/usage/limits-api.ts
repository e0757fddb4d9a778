import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';

export const LIMITS_QUERY = ['usage-limits'] as const;

/**
 * GET /api/account/usage/limits: the limits reached this period (plan quota, spend limit, each
 * key's cap) and the calls refused for a limit, for the "limit reached" state of the dashboard,
 * the usage page and the key list.
 */
export const limitsQuery = queryOptions({
  queryKey: LIMITS_QUERY,
  queryFn: async ({ signal }) => (await call('GET /api/account/usage/limits', { signal })).data,
});
