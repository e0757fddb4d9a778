import type { FastifyInstance } from 'fastify';
import { isIP } from 'node:net';
import { decryptSecret } from '../lib/crypto';
import { entitlementsFor } from '../modules/billing/service';
import { endpointByRouteName } from '../modules/aiendpoint/service';
import { AppError } from '../lib/app-error';
import { LookupCache } from '../lib/lookup-cache';
import { isPrivateAddress } from '../lib/upstream-address';

/** What the gateway needs of an endpoint, by route name, ready to forward. */
export interface TRouteEntry {
  endpointId: string;
  accountId: string;
  routeName: string;
  /** Callable by other accounts: active, shared and public. */
  isPublic: boolean;
  isActive: boolean;
  origin: string;
  path: string;
  /** Sent to the upstream on every call: content type plus the endpoint's configured headers. */
  headers: Record<string, string>;
  upstreamModel: string | null;
  timeoutMs: number;
  /** The URL names an IP literal in a private range (DNS checks never see literals). */
  literalPrivate: boolean;
}

export interface TPlanLimits {
  planId: string;
  quotaCallsMonth: number;
  rateLimitPerMinute: number;
}

/** Routes and accounts kept, found or missing (a miss is a route name someone tried). */
const MAX_ENTRIES = 100_000;

/** Headers an endpoint's configuration may not set: they belong to the gateway or the transport. */
const RESERVED_UPSTREAM_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

export function upstreamHeaders(secret: string, sealed: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!sealed) return headers;
  const parsed = JSON.parse(decryptSecret(secret, sealed)) as unknown;
  if (parsed && typeof parsed === 'object') {
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      const lower = name.toLowerCase();
      if (typeof value === 'string' && !RESERVED_UPSTREAM_HEADERS.has(lower)) headers[lower] = value;
    }
  }
  return headers;
}

/**
 * The gateway's in-memory view of routes and account plan limits (the key is already on
 * `request.auth`, from the keys module's cache). Each is read from the database once, on first
 * use, and dropped the moment app.changes says it changed (from this instance or, with
 * REDIS_URL, any other), after 60 s at the latest, and all at once when the Redis connection
 * comes back (a message may have been lost while it was down). A route name not cached costs a
 * look-up from the client address's budget of unknown look-ups (shared with unknown keys), given
 * back when the route exists; a burst for one cold name joins one look-up.
 */
export function createDirectory(app: FastifyInstance) {
  const { db, config } = app;

  const routes = new LookupCache<TRouteEntry, string>(
    async (routeName, clientIp) => {
      if (clientIp !== undefined) {
        const wait = app.unknownLookups.take(clientIp);
        if (wait > 0)
          throw new AppError('rate_limited', { messageKey: 'error.too_many_unknown', retryAfter: wait });
      }
      const entry = await routeEntry(routeName);
      if (entry && clientIp !== undefined) app.unknownLookups.refund(clientIp);
      return entry;
    },
    { max: MAX_ENTRIES },
  );

  async function routeEntry(routeName: string): Promise<TRouteEntry | null> {
    const row = await endpointByRouteName(db, routeName);
    if (!row) return null;
    let url: URL;
    try {
      url = new URL(row.routeEndpoint);
    } catch {
      app.log.warn({ routeName }, 'gateway: endpoint has an invalid URL');
      return null;
    }
    let headers: Record<string, string>;
    try {
      headers = upstreamHeaders(config.secret, row.upstreamHeadersEnc);
    } catch (error) {
      // A header blob that does not open (SECRET changed) must not be sent half-configured.
      app.log.error({ err: error, routeName }, "gateway: cannot open the endpoint's upstream headers");
      return null;
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return {
      endpointId: row.id,
      accountId: row.accountId,
      routeName: row.routeName,
      isActive: row.isActive,
      isPublic: row.isActive && row.isShared && !row.isPrivate,
      origin: url.origin,
      path: (url.pathname || '/') + url.search,
      headers,
      upstreamModel: row.upstreamModel ?? null,
      timeoutMs: row.upstreamTimeoutMs ?? config.gatewayTimeoutMs,
      literalPrivate: isIP(host) !== 0 && isPrivateAddress(host),
    };
  }

  // The limits come from the billing module's entitlements (the active subscription's plan, the
  // free plan's when unpaid or cancelled), read once per account and dropped on a billing change.
  const planLimits = new LookupCache<TPlanLimits>((accountId) => entitlementsFor(db, app.plans, accountId), {
    max: MAX_ENTRIES,
  });

  const unsubscribe = app.changes.subscribe((change) => {
    switch (change.kind) {
      case 'endpoint':
        routes.invalidate(change.routeName);
        break;
      case 'account':
        planLimits.invalidate(change.accountId);
        // A closed or changed account: its routes are re-read on their next use.
        routes.invalidateWhere((entry) => entry.accountId === change.accountId);
        break;
      case 'reset':
        routes.clear();
        planLimits.clear();
        break;
    }
  });

  return { routes, planLimits, close: unsubscribe };
}

export type TDirectory = ReturnType<typeof createDirectory>;
