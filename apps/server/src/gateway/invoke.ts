import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TAuth, TKeyAuth } from '../core/credentials';
import type { TRouteEntry } from './directory';
import { KEY_QUOTA_EXCEEDED, QUOTA_EXCEEDED } from './counter-types';
import { GATEWAY_ERRORS, keyQuotaBody, writeGatewayError, type TGatewayErrorCode } from './errors';
import { goneResult, mayCall, ownResult, parseObject, unknownRouteRow } from './call-outcome';
import { RoutedCall } from './routed-call';
import { isAppError } from '../lib/app-error';
import { setCallTokens } from './call-tokens';
import { chargedMicros, type TUsageRow } from '../modules/usage/service';
import type { TSpendTicket } from './spend';
import type { TGatewayState } from './state';
import { ProxyCall, type TCallResult } from './upstream';
import { createSpendReservation } from './spend-reservation';
import { applyEdits, includeUsage, objectStart, setMember, type TBodyEdit } from './body-edit';

const STREAM_MARKER = Buffer.from('"stream"');
const MAX_ROUTE_NAME = 200;

/**
 * What a call needs of its request. Fastify's request has it (the `/api/v1` routes), and so has
 * the fast lane's, which takes calls before Fastify does (fast-lane.ts).
 */
export interface TGatewayRequest {
  readonly id: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body (a Buffer), or undefined when the request had none. */
  readonly body: unknown;
  readonly auth: TAuth | null;
  readonly keyExpired: boolean;
  /** The client's address: read only on a cold look-up, whose budget is per address. */
  readonly ip: string;
  readonly log: Pick<FastifyBaseLogger, 'error'>;
}

/**
 * The calling key, as the auth hook read it (request.auth, from the key cache); a session token
 * is no gateway credential.
 */
export function callerKey(request: { auth: TAuth | null }): TKeyAuth | null {
  const auth = request.auth;
  return auth !== null && auth.kind === 'key' ? auth : null;
}

/** The key may call the gateway (inactive keys do not resolve at all). */
export function canInvoke(key: TKeyAuth): boolean {
  return key.scopes.includes('gateway.invoke');
}

/**
 * `POST /api/v1` and `/api/v1/chat/completions`. Answers on the raw response (Fastify's reply is
 * hijacked, or the fast lane took the call before Fastify): the upstream's status, headers and bytes are written as they arrive. On a warm cache
 * nothing here awaits: key, route and plan come from memory, the rate limit and quota are memory
 * counters, metering appends to a buffer.
 */
export function createInvokeHandler(app: FastifyInstance, state: TGatewayState) {
  const { directory, counters, meter, agent, metrics, circuits, answers } = state;
  const spending = createSpendReservation(counters, directory);
  const allowPrivate = app.config.upstreamAllowPrivate;
  const beforeAnswer = (callId: number) => meter.beforeAnswer(callId);
  const routing = {
    agent,
    directory,
    circuits,
    cache: answers,
    allowPrivate,
    beforeAnswer,
    upstreamAttempt: (route: string, host: string) => metrics.upstreamAttempts.labels(route, host).inc(),
    upstreamFailure: (route: string, host: string) => metrics.upstreamFailures.labels(route, host).inc(),
  };
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
    body?: Buffer,
  ) {
    writeGatewayError(res, code, requestId, retryAfter, null, body);
    countCall(GATEWAY_ERRORS[code].status);
    countError(code);
    metrics.duration.observe((performance.now() - started) / 1000);
  }

  /**
   * A valid key called a route it cannot reach (missing, another account's private one, outside
   * its allow-list): refused, and metered with no endpoint so the caller finds it in the request
   * log and the 4xx count. It counts against the key's rate limit (not the quota), so a key cannot
   * write request-log rows faster than it may call; past the limit it is refused as any call is,
   * and not metered. Appended to the meter's buffer like any call: no database query here once
   * the account's plan limits are cached.
   */
  async function refuseUnknownRoute(res: ServerResponse, requestId: string, started: number, key: TKeyAuth) {
    let limits = directory.planLimits.peek(key.accountId);
    if (limits === undefined) limits = await directory.planLimits.load(key.accountId);
    if (!limits) return refuse(res, requestId, started, 'internal_error');
    let wait = counters.hitRate(key.keyId, limits.rateLimitPerMinute);
    if (typeof wait !== 'number') wait = await wait;
    if (res.destroyed) return;
    if (wait > 0) return refuse(res, requestId, started, 'rate_limit_exceeded', wait);
    refuse(res, requestId, started, 'route_not_found');
    meter.record(unknownRouteRow(key, performance.now() - started));
  }

  function meterCall(
    started: number,
    key: TKeyAuth,
    route: TRouteEntry,
    result: TCallResult,
    callId: number,
    streamed: Record<string, unknown> | null,
    attempts = 1,
    cacheHit = false,
    spend: TSpendTicket | null = null,
  ) {
    const latencyMs = performance.now() - started;
    countCall(result.status);
    if (result.errorCode) countError(result.errorCode);
    else if (result.status >= 400)
      countError(result.clientGone ? 'client_closed' : `upstream_${result.status}`);
    metrics.duration.observe(latencyMs / 1000);
    if (attempts > 0) metrics.upstreamDuration.observe(result.upstreamMs / 1000);
    const row: TUsageRow = {
      callerAccountId: key.accountId,
      keyId: key.keyId,
      endpointId: route.endpointId,
      providerAccountId: route.accountId,
      status: result.status,
      latencyMs: Math.round(latencyMs),
      promptTokens: null,
      completionTokens: null,
      tokensEstimated: false,
      streamed: result.streamed,
      errorCode: result.errorCode ?? (result.clientGone ? 'client_closed' : null),
      attempts,
      cacheHit,
      // The provider's own calls are free, and so is an answer from the cache (contract 5a, 6a);
      // whether this one costs anything is decided when stored.
      price: cacheHit || route.accountId === key.accountId ? null : route.price,
      createdAt: new Date(),
    };
    // A stream cut short is counted with the tokenizer, which may have to load first.
    const counting = setCallTokens(row, result, streamed);
    if (counting)
      return meter.recordWhen(
        counting.then(() => settled(row, spend)),
        callId,
      );
    const known = settled(row, spend);
    if (known instanceof Promise) meter.recordWhen(known, callId);
    else meter.record(known, callId);
  }

  /** The caller has a spend limit: the reservation becomes the call's charge, capped at the limit. */
  function settled(row: TUsageRow, spend: TSpendTicket | null): TUsageRow | Promise<TUsageRow> {
    if (!spend) return row;
    const charged = counters.settleSpend(spend, chargedMicros(row) ?? 0);
    if (typeof charged === 'number') return { ...row, costCapMicros: charged };
    return charged.then((cap) => ({ ...row, costCapMicros: cap }));
  }

  /** A reservation given back whole: the call was refused or never sent. */
  function release(spend: TSpendTicket | null) {
    if (spend) void counters.settleSpend(spend, 0);
  }

  function begin(key: TKeyAuth, route: TRouteEntry): number {
    return meter.begin({
      callerAccountId: key.accountId,
      keyId: key.keyId,
      endpointId: route.endpointId,
      providerAccountId: route.accountId,
    });
  }

  /** Admitted (counted against the quota) but the caller left before it was forwarded. */
  function meterUnsent(started: number, key: TKeyAuth, route: TRouteEntry, spend: TSpendTicket | null) {
    meterCall(started, key, route, goneResult(), begin(key, route), null, 0, false, spend);
  }

  function forward(
    res: ServerResponse,
    requestId: string,
    started: number,
    key: TKeyAuth,
    route: TRouteEntry,
    body: Buffer,
    parsed: Record<string, unknown> | null,
    streamed: Record<string, unknown> | null,
    stripUsage: boolean,
    hasCard: boolean,
    spend: TSpendTicket | null,
  ) {
    const callId = begin(key, route);
    if (route.routing !== null) {
      return new RoutedCall(
        routing,
        res,
        requestId,
        key,
        hasCard,
        route,
        body,
        parsed,
        streamed ? { stripUsage } : null,
        callId,
        (answered, result, attempts, cacheHit) =>
          meterCall(started, key, answered, result, callId, streamed, attempts, cacheHit, spend),
      ).start();
    }
    const onDone = (result: TCallResult) =>
      meterCall(started, key, route, result, callId, streamed, 1, false, spend);
    if (route.literalPrivate && !allowPrivate) {
      // Same answer as a refused DNS result: the caller learns nothing about the network.
      app.log.warn({ routeName: route.routeName }, 'gateway: upstream is a private address');
      const status = writeGatewayError(res, 'upstream_unreachable', requestId, undefined, route.airHeaders);
      return onDone(ownResult(status, 'upstream_unreachable'));
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
        stream: streamed ? { stripUsage } : null,
        callId,
        beforeAnswer,
        airHeaders: route.airHeaders,
        retry: null,
        cache: false,
      },
      onDone,
    );
  }

  return async function invoke(request: TGatewayRequest, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = request.id;
    try {
      const headers = request.headers;
      const key = callerKey(request);
      if (!key)
        return refuse(res, requestId, started, request.keyExpired ? 'key_expired' : 'invalid_api_key');
      if (!canInvoke(key)) return refuse(res, requestId, started, 'insufficient_scope');

      const body = request.body;
      if (!Buffer.isBuffer(body)) return refuse(res, requestId, started, 'invalid_request');
      const start = objectStart(body);
      if (start < 0) return refuse(res, requestId, started, 'invalid_request');
      // The route header spares parsing the body at all; without it the body's `model` names it.
      let routeName = headers['x-route-name'];
      let parsed: Record<string, unknown> | null = null;
      if (typeof routeName !== 'string' || routeName === '') {
        parsed = parseObject(body);
        if (!parsed) return refuse(res, requestId, started, 'invalid_request');
        routeName = parsed.model as string | undefined;
        if (typeof routeName !== 'string' || routeName === '')
          return refuse(res, requestId, started, 'missing_route');
        // PostgreSQL refuses U+0000 in text: never let it reach the route look-up.
        if (routeName.includes('\0')) return refuse(res, requestId, started, 'invalid_model');
      }
      if (routeName.length > MAX_ROUTE_NAME) return await refuseUnknownRoute(res, requestId, started, key);
      routeName = routeName.toLowerCase();
      // An uncached name costs a database look-up, budgeted per client IP (directory.ts); a
      // name past the budget is refused below (`rate_limited`).
      let route = directory.routes.peek(routeName);
      if (route === undefined) route = await directory.routes.load(routeName, request.ip);
      // Another account's private route, or one outside the key's allow-list, answers exactly
      // like a missing one.
      if (!mayCall(key, route)) return await refuseUnknownRoute(res, requestId, started, key);

      let limits = directory.planLimits.peek(key.accountId);
      if (limits === undefined) limits = await directory.planLimits.load(key.accountId);
      if (!limits) return refuse(res, requestId, started, 'internal_error');
      // A priced route of another account needs a card on file (contract 5a).
      if (route.price && route.accountId !== key.accountId && !limits.hasCard)
        return refuse(res, requestId, started, 'payment_required');
      // Changes to the caller's body are made in its bytes (body-edit.ts): nothing else changes.
      let edits: TBodyEdit[] | null = null;
      if (route.upstreamModel) {
        parsed ??= parseObject(body);
        if (!parsed) return refuse(res, requestId, started, 'invalid_request');
        parsed.model = route.upstreamModel;
        edits = setMember(body, start, 'model', JSON.stringify(route.upstreamModel));
      }
      // A streamed call: the upstream is asked for usage (its last chunk) so the call is metered.
      let streamed: Record<string, unknown> | null = null;
      let stripUsage = false;
      if (body.includes(STREAM_MARKER)) {
        parsed ??= parseObject(body);
        if (!parsed) return refuse(res, requestId, started, 'invalid_request');
        if (parsed.stream === true) {
          streamed = parsed;
          const options = parsed.stream_options;
          const isObject = options !== null && typeof options === 'object' && !Array.isArray(options);
          if (!isObject || (options as { include_usage?: unknown }).include_usage !== true) {
            // The caller did not ask for usage: asked here, and its chunk taken out of the answer.
            parsed.stream_options = { ...(isObject ? options : {}), include_usage: true };
            stripUsage = true;
            // With no options of the caller's (the usual case) the option is put first, unwalked.
            const usage = includeUsage(body, start, options === undefined);
            edits = edits ? edits.concat(usage) : usage;
          }
        }
      }
      // A limited caller's priced call reserves the most it can cost, its output bounded in the
      // upstream body when the caller did not (spend-reservation.ts); other calls skip this.
      let plan = spending.plan(key, route, limits, body, start, parsed);
      if (plan instanceof Promise) plan = await plan;
      if (plan === 'invalid') return refuse(res, requestId, started, 'invalid_request');
      if (plan?.bound) edits = edits ? plan.bound.concat(edits) : plan.bound;
      const out = edits ? applyEdits(body, edits) : body;
      // The caller may have left while a look-up was awaited: nothing to count or forward.
      if (res.destroyed) return;
      // A caller's spend limit is checked first (one more Redis round trip, only for a limited
      // caller's priced route); a call refused below gives its reservation back.
      let spend = plan ? spending.reserve(key, limits, plan.micros) : null;
      if (spend instanceof Promise) spend = await spend;
      if (spend === 'refused') return refuse(res, requestId, started, 'spend_limit_reached');
      // Checks and counts the call against the rate limit and the quota in one step (one Redis
      // round trip with REDIS_URL): from here on it is a call, metered whatever happens to it.
      let admitted = counters.admit(key, limits);
      if (typeof admitted !== 'number') admitted = await admitted;
      if (admitted !== 0) release(spend);
      if (admitted === QUOTA_EXCEEDED) return refuse(res, requestId, started, 'quota_exceeded');
      if (admitted === KEY_QUOTA_EXCEEDED)
        return refuse(
          res,
          requestId,
          started,
          'key_quota_exceeded',
          undefined,
          keyQuotaBody(key.monthlyCalls ?? 0),
        );
      if (admitted > 0) return refuse(res, requestId, started, 'rate_limit_exceeded', admitted);
      if (res.destroyed) return meterUnsent(started, key, route, spend);
      forward(res, requestId, started, key, route, out, parsed, streamed, stripUsage, limits.hasCard, spend);
    } catch (error) {
      if (isAppError(error) && error.code === 'rate_limited')
        return refuse(res, requestId, started, 'too_many_unknown', error.retryAfter);
      request.log.error({ err: error }, 'gateway: call failed');
      refuse(res, requestId, started, 'internal_error');
    }
  };
}
