import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';
import type { TAiEndpoint } from './endpoint-types';

export const MY_ENDPOINTS_QUERY = ['aiendpoints'] as const;
export const SHARED_ENDPOINTS_QUERY = ['aiendpoints-shared'] as const;

export async function fetchMyEndpoints(): Promise<TAiEndpoint[]> {
  const res = await call('GET /api/aiendpoint');
  return Array.isArray(res.data) ? res.data : [];
}

/** My Registry's list (the registry page's first query, also preloaded with its code). */
export const myEndpointsQuery = queryOptions({ queryKey: MY_ENDPOINTS_QUERY, queryFn: fetchMyEndpoints });

/** One endpoint of the account (the endpoint page; a 404 is not retried). */
export const endpointQuery = (id: string) =>
  queryOptions({
    queryKey: ['aiendpoint', id],
    retry: false,
    queryFn: async (): Promise<TAiEndpoint | null> =>
      (await call('GET /api/aiendpoint/:id', { params: { id } })).data ?? null,
  });

export async function fetchSharedEndpoints(): Promise<TAiEndpoint[]> {
  const res = await call('GET /api/aiendpointShared');
  return Array.isArray(res.data) ? res.data : [];
}

/** DELETE /api/aiendpoint/{ids}: the ids joined by commas in the path. */
export function deleteEndpoints(ids: string[]) {
  return call('DELETE /api/aiendpoint/:ids', { params: { ids } });
}
