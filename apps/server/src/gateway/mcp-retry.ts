import type { TRouteEntry } from './directory';

/*
 * The retries of an MCP tool call (contract 6a, decision 065), as mcp-proxy.ts sends them: the
 * wait before each, and the headers of an answer AIR writes after some.
 */

/** A `Retry-After` shorter than this is waited; a longer one falls back to the backoff (as routed-call.ts). */
const RETRY_AFTER_MAX_MS = 10_000;

/** The wait before retry `attempt` (1 for the first): `backoff_ms` doubled each retry, 50-100 %, or a short Retry-After. */
export function retryDelay(backoffMs: number, attempt: number, retryAfter: number): number {
  if (retryAfter >= 0 && retryAfter < RETRY_AFTER_MAX_MS) return retryAfter;
  return Math.round(backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() * 0.5));
}

/** The routing headers of an answer AIR writes: the route's own, or with the attempts it took. */
export function attemptHeaders(route: TRouteEntry, attempt: number): readonly string[] {
  return attempt === 1
    ? route.airHeaders
    : ['x-air-route', route.routeName, 'x-air-attempts', String(attempt)];
}
