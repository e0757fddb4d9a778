import type { TKeyAuth } from '../core/credentials';
import { jsonDepthExceeds } from '../lib/json-guard';
import type { TRouteEntry } from './directory';
import type { TGatewayErrorCode } from './errors';
import type { TUsageRow } from '../modules/usage/service';
import { GATEWAY_ERRORS } from './errors';
import type { TCallResult } from './upstream';

// What the plain call (invoke.ts) and the routed call (routed-call.ts) share: who may call a
// route, the body read as a JSON object, and how a call ended that no upstream answered.

/** The caller's key may call this route now (server contract section 6, plus the key's allow-list). */
export function mayCall(key: TKeyAuth, route: TRouteEntry | null | undefined): route is TRouteEntry {
  if (!route || !route.isActive) return false;
  if (route.accountId !== key.accountId && !route.isPublic) return false;
  return key.routes === null || key.routes.has(route.routeName);
}

/** The body as a JSON object, or null (not JSON, not an object, or too deep to re-serialise safely). */
export function parseObject(body: Buffer): Record<string, unknown> | null {
  try {
    const text = body.toString('utf8');
    // JSON.stringify recurses: a body too deep for it is refused like any bad body.
    if (jsonDepthExceeds(text)) return null;
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * A call no upstream answered: the gateway's own answer (`status`, `errorCode`), an answer from
 * the cache or a kept upstream answer (`body` for its usage), or nothing sent (`retried`).
 */
export function ownResult(
  status: number,
  errorCode: TGatewayErrorCode | null,
  body: Buffer | null = null,
  retried?: boolean,
): TCallResult {
  return {
    status,
    errorCode,
    upstreamMs: 0,
    body,
    stream: null,
    clientGone: false,
    streamed: false,
    ...(retried === undefined ? {} : { retried }),
  };
}

/** The caller left before an upstream was called. */
export function goneResult(): TCallResult {
  return {
    status: 499,
    errorCode: null,
    upstreamMs: 0,
    body: null,
    stream: null,
    clientGone: true,
    streamed: false,
  };
}

/**
 * The request-log row of a valid key's call the gateway refused itself (issue 38 item 2): an
 * unknown route, a missing card, the spend limit, the quota, the key's cap or its rate. No
 * endpoint and no provider, so it is never billed, never counted to the quota (storedCalls reads
 * calls with an endpoint) and never in a provider's statistics; its status counts in the caller's
 * error rate.
 */
export function refusedRow(key: TKeyAuth, code: TGatewayErrorCode, latencyMs: number): TUsageRow {
  return {
    callerAccountId: key.accountId,
    keyId: key.keyId,
    endpointId: null,
    providerAccountId: null,
    status: GATEWAY_ERRORS[code].status,
    latencyMs: Math.round(latencyMs),
    promptTokens: null,
    completionTokens: null,
    tokensEstimated: false,
    streamed: false,
    errorCode: code,
    attempts: 0,
    cacheHit: false,
    price: null,
    createdAt: new Date(),
  };
}

/** The request-log row of a valid key's call to a route it cannot reach: no endpoint, never billed. */
export function unknownRouteRow(key: TKeyAuth, latencyMs: number): TUsageRow {
  return refusedRow(key, 'route_not_found', latencyMs);
}
