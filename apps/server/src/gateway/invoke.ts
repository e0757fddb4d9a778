import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TRouteEntry } from './directory';
import { GATEWAY_ERRORS, writeGatewayError, type TGatewayErrorCode } from './errors';
import { tokensFrom } from './metering';
import type { TGatewayState } from './state';
import { ProxyCall, type TCallResult } from './upstream';

const BEARER = /^Bearer\s+(\S+)$/i;
const MAX_ROUTE_NAME = 200;

/** The caller's AIR key: `Authorization: Bearer air_…`, else `x-api-key`. */
export function apiKeyOf(headers: IncomingHttpHeaders): string | null {
  const authorization = headers.authorization;
  if (authorization) {
    const match = BEARER.exec(authorization);
    if (match && match[1]!.startsWith('air_')) return match[1]!;
  }
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header.startsWith('air_')) return header;
  return null;
}

/** What the gateway needs of the calling key. */
export interface TKeyEntry {
  keyId: string;
  accountId: string;
  /** Holds gateway.invoke (the key is active: inactive keys do not resolve). */
  canInvoke: boolean;
}

/** First non-blank byte is `{`: a cheap test that the body is meant as a JSON object. */
function startsLikeObject(body: Buffer): boolean {
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (byte === 0x7b) return true;
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false;
  }
  return false;
}

function parseObject(body: Buffer): Record<string, unknown> | null {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The calling key. A bearer `air_` key was already resolved by the auth hook (request.auth, from
 * the shared in-memory key cache that app.changes invalidates); `x-api-key` goes through the same
 * cache. Either way the database is asked only on a cache miss.
 */
export async function resolveKey(app: FastifyInstance, request: FastifyRequest): Promise<TKeyEntry | null> {
  const auth = request.auth;
  let resolved: { keyId: string; accountId: string; scopes: readonly string[] } | null = null;
  if (auth && auth.kind === 'key') resolved = auth;
  else {
    const rawKey = apiKeyOf(request.headers);
    if (rawKey) resolved = await app.resolveApiKey(rawKey);
  }
  if (!resolved) return null;
  return {
    keyId: resolved.keyId,
    accountId: resolved.accountId,
    canInvoke: resolved.scopes.includes('gateway.invoke'),
  };
}

/**
 * `POST /api/v1` and `/api/v1/chat/completions`. Answers on the raw response (Fastify's reply is
 * hijacked): the upstream's status, headers and bytes are written as they arrive. On a warm cache
 * nothing here awaits: key, route and plan come from memory, the rate limit and quota are memory
 * counters, metering appends to a buffer.
 */
export function createInvokeHandler(app: FastifyInstance, state: TGatewayState) {
  const { directory, limiter, monthlyCalls, meter, agent, metrics } = state;
  const allowPrivate = app.config.upstreamAllowPrivate;
  const callsByStatus = new Map<number, { inc(): void }>();
  const countCall = (status: number) => {
    let child = callsByStatus.get(status);
    if (!child) {
      child = metrics.calls.labels(String(status));
      callsByStatus.set(status, child);
    }
    child.inc();
  };
  const errorsByCode = new Map<string, { inc(): void }>();
  const countError = (code: string) => {
    let child = errorsByCode.get(code);
    if (!child) {
      child = metrics.errors.labels(code);
      errorsByCode.set(code, child);
    }
    child.inc();
  };

  function refuse(
    res: ServerResponse,
    requestId: string,
    started: number,
    code: TGatewayErrorCode,
    retryAfter?: number,
  ) {
    writeGatewayError(res, code, requestId, retryAfter);
    countCall(GATEWAY_ERRORS[code].status);
    countError(code);
    metrics.duration.observe((performance.now() - started) / 1000);
  }

  function forward(
    res: ServerResponse,
    requestId: string,
    started: number,
    key: TKeyEntry,
    route: TRouteEntry,
    body: Buffer,
  ) {
    const onDone = (result: TCallResult) => {
      const latencyMs = performance.now() - started;
      countCall(result.status);
      if (result.errorCode) countError(result.errorCode);
      else if (result.status >= 400)
        countError(result.clientGone ? 'client_closed' : `upstream_${result.status}`);
      metrics.duration.observe(latencyMs / 1000);
      metrics.upstreamDuration.observe(result.upstreamMs / 1000);
      const tokens = result.body ? tokensFrom(result.body) : null;
      meter.record({
        callerAccountId: key.accountId,
        keyId: key.keyId,
        endpointId: route.endpointId,
        providerAccountId: route.accountId,
        status: result.status,
        latencyMs: Math.round(latencyMs),
        promptTokens: tokens?.prompt ?? null,
        completionTokens: tokens?.completion ?? null,
        createdAt: new Date(),
      });
    };
    if (route.literalPrivate && !allowPrivate) {
      // Same answer as a refused DNS result: the caller learns nothing about the network.
      app.log.warn({ routeName: route.routeName }, 'gateway: upstream is a private address');
      const status = writeGatewayError(res, 'upstream_unreachable', requestId);
      return onDone({
        status,
        errorCode: 'upstream_unreachable',
        upstreamMs: 0,
        body: null,
        clientGone: false,
      });
    }
    ProxyCall.start(
      agent,
      res,
      {
        origin: route.origin,
        path: route.path,
        headers: route.headers,
        body,
        timeoutMs: route.timeoutMs,
        requestId,
      },
      onDone,
    );
  }

  return async function invoke(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const started = performance.now();
    reply.hijack();
    const res = reply.raw;
    const requestId = request.id;
    try {
      const headers = request.headers;
      const key = await resolveKey(app, request);
      if (!key) return refuse(res, requestId, started, 'invalid_api_key');
      if (!key.canInvoke) return refuse(res, requestId, started, 'insufficient_scope');

      const body = request.body;
      if (!Buffer.isBuffer(body) || !startsLikeObject(body))
        return refuse(res, requestId, started, 'invalid_request');
      // The route header spares parsing the body at all; without it the body's `model` names it.
      let routeName = headers['x-route-name'];
      let parsed: Record<string, unknown> | null = null;
      if (typeof routeName !== 'string' || routeName === '') {
        parsed = parseObject(body);
        if (!parsed) return refuse(res, requestId, started, 'invalid_request');
        routeName = parsed.model as string | undefined;
        if (typeof routeName !== 'string' || routeName === '')
          return refuse(res, requestId, started, 'missing_route');
      }
      if (routeName.length > MAX_ROUTE_NAME) return refuse(res, requestId, started, 'route_not_found');
      routeName = routeName.toLowerCase();
      let route = directory.routes.peek(routeName);
      if (route === undefined) route = await directory.routes.load(routeName);
      // Another account's private route answers exactly like a missing one.
      if (!route || !route.isActive || (route.accountId !== key.accountId && !route.isPublic)) {
        return refuse(res, requestId, started, 'route_not_found');
      }

      let limits = directory.planLimits.peek(key.accountId);
      if (!limits) limits = await directory.planLimits.load(key.accountId);
      if (!limits) return refuse(res, requestId, started, 'internal_error');
      let wait = limiter.hit(key.keyId, limits.rateLimitPerMinute);
      if (typeof wait !== 'number') wait = await wait;
      if (wait > 0) return refuse(res, requestId, started, 'rate_limit_exceeded', wait);
      let used = monthlyCalls.current(key.accountId);
      if (typeof used !== 'number') used = await used;
      if (used >= limits.quotaCallsMonth) return refuse(res, requestId, started, 'quota_exceeded');

      let out = body;
      if (route.upstreamModel) {
        parsed ??= parseObject(body);
        if (!parsed) return refuse(res, requestId, started, 'invalid_request');
        parsed.model = route.upstreamModel;
        out = Buffer.from(JSON.stringify(parsed));
      }
      // The caller may have left while a look-up was awaited: nothing to forward to.
      if (res.destroyed) return;
      monthlyCalls.add(key.accountId);
      forward(res, requestId, started, key, route, out);
    } catch (error) {
      request.log.error({ err: error }, 'gateway: call failed');
      refuse(res, requestId, started, 'internal_error');
    }
  };
}
