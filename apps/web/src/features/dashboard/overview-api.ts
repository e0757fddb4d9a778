import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';

/** GET /api/account/overview: the dashboard's figures (any member may read them). */
export const overviewQuery = queryOptions({
  queryKey: ['account-overview'],
  queryFn: async ({ signal }) => (await call('GET /api/account/overview', { signal })).data,
  // The figures move with every call: fresh on each visit, and every minute while the page is open.
  refetchInterval: 60_000,
});
