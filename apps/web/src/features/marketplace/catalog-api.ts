import type { TMarketplaceSort } from '@air/shared/schemas/marketplace';
import type { TRouteType } from '@air/shared/schemas/aiendpoint';
import { call } from '@/lib/api';

export interface TCatalogFilters {
  q: string;
  type: TRouteType | '';
  provider: string;
  sort: TMarketplaceSort;
}

export const catalogQueryKey = (filters: TCatalogFilters) => ['marketplace', filters] as const;

/** One page of the public catalog (`GET /api/marketplace`), after `cursor` when given. */
export async function fetchCatalogPage(
  filters: TCatalogFilters,
  cursor: string | null,
  signal?: AbortSignal,
  limit?: number,
) {
  const query = {
    q: filters.q.trim() || undefined,
    type: filters.type || undefined,
    provider: filters.provider || undefined,
    sort: filters.sort,
    cursor: cursor ?? undefined,
    limit,
  };
  return (await call('GET /api/marketplace', { query, signal })).data!;
}

export async function fetchCatalogEndpoint(provider: string, name: string) {
  return (await call('GET /api/marketplace/:provider/:name', { params: { provider, name } })).data!;
}
