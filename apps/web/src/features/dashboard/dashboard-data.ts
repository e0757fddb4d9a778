import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { hasPermission } from '@air/shared/permissions';
import { call } from '@/lib/api';
import { revealKey, type TApiKey } from '@/features/apikeys/api-keys-api';
import { overviewQuery } from './overview-api';

/** Newest first by creation date: the one just made is the one a snippet should use. */
function newestFirst<T extends { date_created: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => Date.parse(b.date_created) - Date.parse(a.date_created));
}

/**
 * The key the quick-start names: the newest active one (else the newest), as the list answers it,
 * masked (`air_AbCd…`). Its full value is fetched only when a snippet is copied (see
 * `revealedKeyQuery`): every reveal is recorded in the activity log, so merely opening the
 * dashboard must not reveal one. Any failure is only logged and yields null: the quick-start keeps
 * its placeholder (spec section 2).
 */
export async function quickstartKey(): Promise<TApiKey | null> {
  try {
    const res = await call('GET /api/key');
    const keys = newestFirst(Array.isArray(res.data) ? res.data : []);
    return keys.find((k) => k.active) ?? keys[0] ?? null;
  } catch (error) {
    console.warn('Quick-start: could not load an API key', error);
    return null;
  }
}

/** The route name of the user's newest endpoint (an active one first), or null. */
export async function quickstartRoute(): Promise<string | null> {
  try {
    const res = await call('GET /api/aiendpoint');
    const list = newestFirst(Array.isArray(res.data) ? res.data : []);
    return (list.find((e) => e.isActive) ?? list[0])?.route_name ?? null;
  } catch (error) {
    console.warn('Quick-start: could not load the registry', error);
    return null;
  }
}

/** Whether a member may read keys, and so gets the quick-start's real key (a refused call is a console error). */
export const mayReadKeys = (permission: Parameters<typeof hasPermission>[0]) =>
  hasPermission(permission, 'developer');

/** The quick-start's key, masked (only for members who may read keys). */
export const quickstartKeyQuery = queryOptions({ queryKey: ['quickstart-key'], queryFn: quickstartKey });

/** The quick-start's route name. */
export const quickstartRouteQuery = queryOptions({
  queryKey: ['quickstart-route'],
  queryFn: quickstartRoute,
});

/** One key in full, revealed once per session for copying (each reveal is a line in the activity log). */
export const revealedKeyQuery = (id: string) =>
  queryOptions({ queryKey: ['quickstart-key-full', id], queryFn: () => revealKey(id), staleTime: Infinity });

/**
 * What the dashboard shows of keys and endpoints: the overview (checklist, endpoint health) and the
 * snippets' key and route. Every write to a key or an endpoint calls this, so the dashboard reached
 * next (by a client-side navigation, its answers cached) shows the change at once.
 */
export function refreshDashboard(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [overviewQuery, quickstartRouteQuery, quickstartKeyQuery].map(({ queryKey }) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
