import { queryOptions } from '@tanstack/react-query';
import { hasPermission } from '@air/shared/permissions';
import { call } from '@/lib/api';
import { revealKey } from '@/features/apikeys/api-keys-api';

/**
 * The user's first API key in full (GET /api/key, then GET /api/key/{id} to reveal). Any failure
 * (no developer permission, no key, network) is only logged as a warning and yields null: the
 * quick-start keeps its placeholder (spec section 2).
 */
export async function firstApiKey(): Promise<string | null> {
  try {
    const res = await call('GET /api/key');
    const keys = Array.isArray(res.data) ? res.data : [];
    const first = keys.find((k) => k.active) ?? keys[0];
    if (!first) return null;
    return await revealKey(first.id);
  } catch (error) {
    console.warn('Quick-start: could not load an API key', error);
    return null;
  }
}

/** A real route name of the user's (an active one first), or null. */
export async function firstRouteName(): Promise<string | null> {
  try {
    const res = await call('GET /api/aiendpoint');
    const list = Array.isArray(res.data) ? res.data : [];
    return (list.find((e) => e.isActive) ?? list[0])?.route_name ?? null;
  } catch (error) {
    console.warn('Quick-start: could not load the registry', error);
    return null;
  }
}

/** Whether a member may read keys, and so gets the quick-start's real key (a refused call is a console error). */
export const mayReadKeys = (permission: Parameters<typeof hasPermission>[0]) =>
  hasPermission(permission, 'developer');

/** The quick-start's key (only for members who may read keys). */
export const quickstartKeyQuery = queryOptions({
  queryKey: ['quickstart-key'],
  queryFn: firstApiKey,
  staleTime: 60_000,
});

/** The quick-start's route name. */
export const quickstartRouteQuery = queryOptions({ queryKey: ['quickstart-route'], queryFn: firstRouteName });
