import type { TMarketplaceSort, TMarketplaceWindow } from '@air/shared/schemas/marketplace';
import type { TRouteType } from '@air/shared/schemas/aiendpoint';
import { call } from '@/lib/api';

export interface TCatalogFilters {
  q: string;
  type: TRouteType | '';
  provider: string;
  /** A model id the endpoints declare (decision 060), or '' for any. */
  model: string;
  sort: TMarketplaceSort;
  /** The figures' window the sort and filters use (decision 057). */
  window: TMarketplaceWindow;
  /** Least uptime (0 to 1), or '' for any. */
  minUptime: string;
  /** Most p95 latency (ms), or '' for any. */
  maxP95: string;
  /** Most median time to first token (ms), or '' for any. */
  maxTtft: string;
  /** Fewest tokens per second, or '' for any. */
  minThroughput: string;
  /** Highest input and output price per million tokens (micros), or '' for any. */
  maxPrice: string;
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
    model: filters.model.trim() || undefined,
    sort: filters.sort,
    // The default window is left out of the address.
    window: filters.window === '7d' ? undefined : filters.window,
    min_uptime: filters.minUptime ? Number(filters.minUptime) : undefined,
    max_p95_ms: filters.maxP95 ? Number(filters.maxP95) : undefined,
    max_ttft_ms: filters.maxTtft ? Number(filters.maxTtft) : undefined,
    min_tokens_per_s: filters.minThroughput ? Number(filters.minThroughput) : undefined,
    max_price_1m: filters.maxPrice ? Number(filters.maxPrice) : undefined,
    cursor: cursor ?? undefined,
    limit,
  };
  return (await call('GET /api/marketplace', { query, signal })).data!;
}

export async function fetchCatalogEndpoint(provider: string, name: string) {
  return (await call('GET /api/marketplace/:provider/:name', { params: { provider, name } })).data!;
}

/** A provider's page: its endpoints, their combined figures and its profile. */
export async function fetchProvider(provider: string) {
  return (await call('GET /api/marketplace/:provider', { params: { provider } })).data!;
}

/** What the catalog's models view asks for (decision 062): its search, sort and window. */
export interface TModelsFilters {
  q: string;
  sort: TMarketplaceSort;
  window: TMarketplaceWindow;
}

export const modelsQueryKey = (filters: TModelsFilters) => ['marketplace-models', filters] as const;

/** One page of the catalog's models (`GET /api/marketplace-models`), after `cursor` when given. */
export async function fetchModelsPage(filters: TModelsFilters, cursor: string | null, signal?: AbortSignal) {
  const query = {
    q: filters.q.trim() || undefined,
    sort: filters.sort,
    window: filters.window === '7d' ? undefined : filters.window,
    cursor: cursor ?? undefined,
  };
  return (await call('GET /api/marketplace-models', { query, signal })).data!;
}
