import { call } from '@/lib/api';
import type { TAiEndpoint } from './endpoint-types';

export const MY_ENDPOINTS_QUERY = ['aiendpoints'] as const;
export const SHARED_ENDPOINTS_QUERY = ['aiendpoints-shared'] as const;

export async function fetchMyEndpoints(): Promise<TAiEndpoint[]> {
  const res = await call('GET /api/aiendpoint');
  return Array.isArray(res.data) ? res.data : [];
}

export async function fetchSharedEndpoints(): Promise<TAiEndpoint[]> {
  const res = await call('GET /api/aiendpointShared');
  return Array.isArray(res.data) ? res.data : [];
}

/** DELETE /api/aiendpoint/{ids}: the ids joined by commas in the path. */
export function deleteEndpoints(ids: string[]) {
  return call('DELETE /api/aiendpoint/:ids', { params: { ids } });
}
