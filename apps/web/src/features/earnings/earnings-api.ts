import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { fetchMyEndpoints } from '@/features/registry/registry-api';

/** GET /api/account/earnings (owner): the provider's statement, every month. */
export const earningsQuery = queryOptions({
  queryKey: ['account-earnings'],
  queryFn: async ({ signal }) => (await call('GET /api/account/earnings', { signal })).data,
});

/**
 * This account's endpoints that carry a price (from GET /api/aiendpoint): what the empty page needs
 * to tell "set a price first" from "no invoice has charged for your calls yet".
 */
export const pricedEndpointsQuery = queryOptions({
  queryKey: ['aiendpoints', 'priced'],
  queryFn: async () => (await fetchMyEndpoints()).filter((endpoint) => Boolean(endpoint.config.price)),
});
