import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';

/** GET /api/account/payouts (owner): balance, accrued, pending, paid, the payouts and where they go. */
export const payoutsQuery = queryOptions({
  queryKey: ['account-payouts'],
  queryFn: async ({ signal }) => (await call('GET /api/account/payouts', { signal })).data,
});
