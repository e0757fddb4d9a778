import type { FastifyInstance } from 'fastify';
import { isIP } from 'node:net';
import { decryptSecret } from '../lib/crypto';
import { entitlementsFor } from '../modules/billing/service';
import { accountMcpRouteNames, endpointByRouteName, priceOf } from '../modules/aiendpoint/service';
import { modelProviders, type TModelProvider } from '../modules/aiendpoint-shared/service';
import type { TPrice } from '@air/shared/schemas/price';
import { ROUTING_LIMITS, type TUpstreamFormat } from '@air/shared/schemas/aiendpoint';
import { AppError } from '../lib/app-error';
import { LookupCache } from '../lib/lookup-cache';
import { isPrivateAddress } from '../lib/upstream-address';
import { circuitKeyOf } from './circuit-health';
import { headersForFormat } from './formats';
import { servedProtocols, type TProtocolName } from './protocols';

/** One upstream of a route, ready to dispatch to. */
export interface TUpstreamTarget {
  /** The URL as configured (it may carry a secret in its query or user part: never a label or a log field). */
  url: string;
  /** Its circuit's name: the endpoint and a hash of the URL (circuit.ts). */
  circuitKey: string;
  /** host[:port], without user, path or query: the metrics' name for it. */
  host: string;
  origin: string;
  path: string;
  weight: number;
  /** The URL names an IP literal in a private range (DNS checks never see literals). */
  literalPrivate: boolean;
  /** The API it speaks (contract 6c): calls to another format are translated (formats/). */
  format: TUpstreamFormat;
  /** What is sent to it: the route's headers, as its format takes them (formats/index.ts). */
  headers: Record<string, string>;
}

/** An endpoint's routing settings (contract 6a) with defaults filled in; null on a plain route. */
export interface TRouting {
  retries: number;
  backoffMs: number;
  fallbacks: readonly string[];
  failures: number;
  cooldownMs: number;
  cacheTtlMs: number;
}

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
  /** Every upstream (the first is origin + path above); one entry on a plain route. */
  upstreams: readonly TUpstreamTarget[];
  /** Sum of the upstreams' weights. */
  totalWeight: number;
  /** null: the plain path of server contract section 6 (one upstream, no retry, circuit or cache). */
  routing: TRouting | null;
  /** The marketplace price other accounts' calls are charged at; null when free. */
  price: TPrice | null;
  /** The protocols it serves (contract 6c): its registration's, of those its URL serves (protocols.ts); none for MCP. */
  protocols: ReadonlySet<TProtocolName | 'mcp'>;
  /** An MCP server (contract 6d), called at `/api/mcp/{route}` and nowhere under `/api/v1`. */
  mcp: boolean;
  /** An MCP server's tools its owner switched off, by name. */
  disabledTools: ReadonlySet<string>;
  /**
   * An MCP server's per-tool prices (decision 063): a call of one of these tools is charged this
   * price (per call only; null when that tool is free) instead of `price`; null when none.
   */
  toolPrices: ReadonlyMap<string, TPrice | null> | null;
  /** Its owner lets traces record prompts and answers (`config.trace_content`, off by default). */
  traceContent: boolean;
  /** `x-air-route` and `x-air-attempts: 1`, built once: what most answers carry. */
  airHeaders: readonly string[];
}

/**
 * A model id's providers (contract 5b): the endpoints declaring it, by route name, with the
 * catalog's figures read when the entry was loaded (they are at most 60 s old, like the entry).
 */
export interface TModelEntry {
  modelId: string;
  providers: readonly TModelProvider[];
}

export interface TPlanLimits {
  planId: string;
  quotaCallsMonth: number;
  rateLimitPerMinute: number;
  /** Tokens per key and minute (contract 6e), or null. */
  tokensPerMinute: number | null;
  /** A card is on file (priced marketplace routes need one). */
  hasCard: boolean;
  /** Marketplace spend cap per period (minor units), or null. */
  spendLimitMinor: number | null;
  /** When that cap was saved (ms): names its spend counter (spend.ts). */
  spendLimitSetAt: number | null;
}

/** Per-tool prices as the calls are charged: per call only, 0 being free. */
function toolPricesOf(stored: Record<string, number> | null): ReadonlyMap<string, TPrice | null> | null {
  if (!stored) return null;
  const prices = new Map<string, TPrice | null>();
  for (const [tool, perCall] of Object.entries(stored))
    prices.set(
      tool,
      perCall > 0 ? { per_call: perCall, per_1m_input_tokens: 0, per_1m_output_tokens: 0 } : null,
    );
  return prices.size > 0 ? prices : null;
}

/**
 * The route as a call of `tool` is admitted, charged and metered on (decision 063): its own entry,
 * or, when the tool has a price of its own, a copy carrying that price. One path for both MCP
 * addresses (mcp-proxy.ts, mcp-aggregate.ts); everything after it (card check, spend reservation,
 * usage row, invoice, earnings) reads `price` as it does for any call.
 */
export function toolCallRoute(route: TRouteEntry, tool: string): TRouteEntry {
  const prices = route.toolPrices;
  if (prices === null || !prices.has(tool)) return route;
  return { ...route, price: prices.get(tool)! };
}

/** Routes and accounts kept, found or missing (a miss is a route name someone tried). */
const MAX_ENTRIES = 100_000;

/** Headers an endpoint's configuration may not set: they belong to the gateway or the transport. */
const RESERVED_UPSTREAM_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

function upstreamTarget(
  endpointId: string,
  raw: string,
  weight: number,
  format: TUpstreamFormat,
): TUpstreamTarget | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    url: raw,
    circuitKey: circuitKeyOf(endpointId, raw),
    host: url.host,
    origin: url.origin,
    path: (url.pathname || '/') + url.search,
    weight,
    literalPrivate: isIP(host) !== 0 && isPrivateAddress(host),
    format,
    headers: {},
  };
}

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
    const configured = row.routing?.upstreams?.length
      ? row.routing.upstreams
      : [{ url: row.routeEndpoint, weight: ROUTING_LIMITS.weight.default }];
    const upstreams: TUpstreamTarget[] = [];
    for (const upstream of configured) {
      const target = upstreamTarget(row.id, upstream.url, upstream.weight, upstream.format ?? 'openai');
      if (!target) {
        app.log.warn({ routeName }, 'gateway: endpoint has an invalid URL');
        return null;
      }
      upstreams.push(target);
    }
    let headers: Record<string, string>;
    try {
      headers = upstreamHeaders(config.secret, row.upstreamHeadersEnc);
    } catch (error) {
      // A header blob that does not open (SECRET changed) must not be sent half-configured.
      app.log.error({ err: error, routeName }, "gateway: cannot open the endpoint's upstream headers");
      return null;
    }
    const formats = new Set(upstreams.map((upstream) => upstream.format));
    for (const upstream of upstreams) upstream.headers = headersForFormat(headers, upstream.format, formats);
    const first = upstreams[0]!;
    const routing = row.routing;
    const routed =
      routing !== null &&
      ((routing.upstreams?.length ?? 0) > 1 ||
        routing.retry !== undefined ||
        routing.fallbacks !== undefined ||
        routing.circuit !== undefined ||
        (routing.cache_ttl_s ?? 0) > 0);
    return {
      endpointId: row.id,
      accountId: row.accountId,
      routeName: row.routeName,
      price: priceOf(row),
      isActive: row.isActive,
      isPublic: row.isActive && row.isShared && !row.isPrivate,
      origin: first.origin,
      path: first.path,
      headers,
      // An MCP call's body is JSON-RPC: it has no model to set.
      upstreamModel: row.protocol === 'mcp' ? null : (row.upstreamModel ?? null),
      traceContent: row.traceContent,
      timeoutMs: row.upstreamTimeoutMs ?? config.gatewayTimeoutMs,
      literalPrivate: first.literalPrivate,
      upstreams,
      // Another format's upstream is translated for chat calls only: a route with one serves chat alone.
      protocols: new Set(
        row.protocol === 'mcp'
          ? []
          : servedProtocols(first.path).filter(
              (name) =>
                (row.protocols === null || row.protocols.includes(name)) &&
                (name === 'chat' || (formats.size === 1 && formats.has('openai'))),
            ),
      ),
      mcp: row.protocol === 'mcp',
      disabledTools: new Set(row.disabledTools),
      toolPrices: row.protocol === 'mcp' ? toolPricesOf(row.toolPrices) : null,
      airHeaders: Object.freeze(['x-air-route', row.routeName, 'x-air-attempts', '1']),
      totalWeight: upstreams.reduce((sum, upstream) => sum + upstream.weight, 0),
      routing: routed
        ? {
            retries: routing.retry?.attempts ?? ROUTING_LIMITS.attempts.default,
            backoffMs: routing.retry?.backoff_ms ?? ROUTING_LIMITS.backoffMs.default,
            fallbacks: routing.fallbacks ?? [],
            failures: routing.circuit?.failures ?? ROUTING_LIMITS.failures.default,
            cooldownMs: (routing.circuit?.cooldown_s ?? ROUTING_LIMITS.cooldownS.default) * 1000,
            cacheTtlMs: (routing.cache_ttl_s ?? 0) * 1000,
          }
        : null,
    };
  }

  // A model id's providers, looked up when a name is no route (invoke.ts). The route look-up that
  // missed first took the address's budget; a model found gives it back.
  const models = new LookupCache<TModelEntry, string>(
    async (modelId, clientIp) => {
      const providers = await modelProviders(db, modelId);
      if (providers.length === 0) return null;
      if (clientIp !== undefined) app.unknownLookups.refund(clientIp);
      return { modelId, providers };
    },
    { max: MAX_ENTRIES },
  );

  // The limits come from the billing module's entitlements (the active subscription's plan, the
  // free plan's when unpaid or cancelled), read once per account and dropped on a billing change.
  const planLimits = new LookupCache<TPlanLimits>((accountId) => entitlementsFor(db, app.plans, accountId), {
    max: MAX_ENTRIES,
  });

  // The account's MCP routes, for its keys at /api/mcp (mcp-aggregate.ts): read once per account;
  // a change names a route, not its account, so any endpoint change drops them all (changes are rare).
  const mcpRoutes = new LookupCache<{ names: readonly string[] }>(
    async (accountId) => ({ names: await accountMcpRouteNames(db, accountId) }),
    { max: MAX_ENTRIES },
  );

  const unsubscribe = app.changes.subscribe((change) => {
    switch (change.kind) {
      case 'endpoint':
        routes.invalidate(change.routeName);
        mcpRoutes.clear();
        // The change may add, drop or move an endpoint of any model (a change names the route only).
        models.clear();
        break;
      case 'account':
        planLimits.invalidate(change.accountId);
        mcpRoutes.invalidate(change.accountId);
        // A closed or changed account: its routes are re-read on their next use.
        routes.invalidateWhere((entry) => entry.accountId === change.accountId);
        models.clear();
        break;
      case 'reset':
        routes.clear();
        models.clear();
        planLimits.clear();
        mcpRoutes.clear();
        break;
    }
  });

  return { routes, models, planLimits, mcpRoutes, close: unsubscribe };
}

export type TDirectory = ReturnType<typeof createDirectory>;
