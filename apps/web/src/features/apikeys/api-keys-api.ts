import type { TApiKey } from '@air/shared/schemas/api-key';
import type { TListedApiKey } from '@air/shared/schemas/limits';
import { queryOptions } from '@tanstack/react-query';
import { call } from '@/lib/api';

export type { TApiKey, TListedApiKey };

export const API_KEYS_QUERY = ['api-keys'] as const;
/** The routes a key may be limited to (the key form's list): the account's endpoints change it. */
export const CALLABLE_ROUTES_QUERY = ['callable-routes'] as const;

/** The full key of one API key (GET /api/key/{id} reveals it). */
export async function revealKey(id: string): Promise<string> {
  const res = await call('GET /api/key/:id', { params: { id } });
  const key = res.data && 'full_key' in res.data ? res.data.full_key : res.data?.key;
  if (typeof key !== 'string' || !key) throw new Error('The server returned no key');
  return key;
}

/** The account's keys, each with its use this period against its cap. */
export async function fetchApiKeys(): Promise<TListedApiKey[]> {
  const res = await call('GET /api/key');
  return Array.isArray(res.data) ? res.data : [];
}

/** The API keys page's list (also preloaded with its code). */
export const apiKeysQuery = queryOptions({ queryKey: API_KEYS_QUERY, queryFn: fetchApiKeys });

/** GET /api/key/scopes answers a list of scope names (or `{ value, label }` pairs). */
export async function fetchScopes(): Promise<string[]> {
  const res = await call('GET /api/key/scopes');
  const list = Array.isArray(res.data) ? res.data : [];
  return list
    .map((item) =>
      typeof item === 'string'
        ? item
        : ((item as { value?: string; name?: string }).value ?? (item as { name?: string }).name),
    )
    .filter((s): s is string => typeof s === 'string' && s.length > 0);
}

export function deleteApiKeys(ids: string[]) {
  return call('DELETE /api/key', { body: { ids } });
}
