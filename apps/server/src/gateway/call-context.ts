import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { TKeyAuth } from '../core/credentials';
import { GATEWAY_ERRORS, writeGatewayError, type TGatewayErrorCode } from './errors';
import { createCallLog } from './call-log';
import { GatewayTracing } from './call-trace';
import { unknownRouteRow } from './call-outcome';
import { createRefusalLog, type TRefusalGate } from './refusal-log';
import type { TRoutingContext } from './routed-call';
import { createSpendReservation } from './spend-reservation';
import { RequestWindows } from './rate-headers';
import type { TGatewayState } from './state';
import type { TCallResult } from './upstream';

/** A refusal of the gateway's own: its code, and what the answer carries besides. */
export interface TRefusal {
  code: TGatewayErrorCode;
  retryAfter?: number;
  body?: Buffer;
}

/** Counter children by label, made once: a label's child is looked up per call otherwise. */
function labelled(make: (label: string) => { inc(): void }): (label: string) => void {
  const children = new Map<string, { inc(): void }>();
  return (label) => {
    let child = children.get(label);
    if (!child) {
      child = make(label);
      children.set(label, child);
    }
    child.inc();
  };
}

/**
 * What every gateway call shares, built once (gateway-call.ts reads it): the gateway's state, the
 * routing context, spend reservations, the refusal answers and the call metrics.
 */
export function createCallContext(app: FastifyInstance, state: TGatewayState) {
  const { directory, counters, meter, agent, metrics, circuits, answers } = state;
  const allowPrivate = app.config.upstreamAllowPrivate;
  const beforeAnswer = (callId: number) => meter.beforeAnswer(callId);
  const routing: TRoutingContext = {
    agent,
    directory,
    circuits,
    cache: answers,
    allowPrivate,
    beforeAnswer,
    upstreamAttempt: (route, host) => metrics.upstreamAttempts.labels(route, host).inc(),
    upstreamFailure: (route, host) => {
      metrics.upstreamFailures.labels(route, host).inc();
      // Every failed attempt (retryable status, connection error, timeout): the host, never the URL.
      app.log.warn({ route, upstream: host }, 'gateway: upstream failure');
    },
  };
  const countCall = labelled((status) => metrics.calls.labels(status));
  const countError = labelled((code) => metrics.errors.labels(code));
  const logRefusal = createRefusalLog((row) => meter.record(row));
  // OpenTelemetry (call-trace.ts), or null: then no call makes a span or propagates anything.
  const tracing = app.tracing === null ? null : new GatewayTracing(app.tracing);

  /** Answers the gateway's own error and counts it. */
  function refuse(res: ServerResponse, requestId: string, started: number, refusal: TRefusal) {
    const { code, retryAfter, body } = refusal;
    writeGatewayError(res, code, requestId, retryAfter, null, body);
    const status = GATEWAY_ERRORS[code].status;
    if (tracing !== null) tracing.refused(res, code, status);
    countCall(String(status));
    countError(code);
    metrics.duration.observe((performance.now() - started) / 1000);
  }

  /** A known key's call refused for its limits: answered, then logged (refusal-log.ts, issue 38 item 2). */
  function refuseLogged(
    res: ServerResponse,
    call: { requestId: string; started: number; key: TKeyAuth },
    refusal: TRefusal,
    gate: TRefusalGate,
  ) {
    refuse(res, call.requestId, call.started, refusal);
    logRefusal(call.key, refusal.code, performance.now() - call.started, gate);
  }

  /**
   * A valid key called a route it cannot reach (missing, another account's private one, outside
   * its allow-list): refused, and metered with no endpoint so the caller finds it in the request
   * log and the 4xx count. It counts against the key's rate limit (not the quota), so a key cannot
   * write request-log rows faster than it may call; past the limit it is refused as any call is,
   * and not metered. No database query here once the account's plan limits are cached.
   */
  async function refuseUnknownRoute(
    res: ServerResponse,
    call: { requestId: string; started: number; key: TKeyAuth },
    /** The answer's body when it says more than "Route not found." (a model id's, contract 5b). */
    body?: Buffer,
  ) {
    const { requestId, started, key } = call;
    let limits = directory.planLimits.peek(key.accountId);
    if (limits === undefined) limits = await directory.planLimits.load(key.accountId);
    if (!limits) return refuse(res, requestId, started, { code: 'internal_error' });
    let wait = counters.hitRate(key.keyId, limits.rateLimitPerMinute);
    if (typeof wait !== 'number') wait = await wait;
    if (res.destroyed) return;
    if (wait > 0) return refuse(res, requestId, started, { code: 'rate_limit_exceeded', retryAfter: wait });
    refuse(res, requestId, started, { code: 'route_not_found', body });
    meter.record(unknownRouteRow(key, performance.now() - started));
  }

  /** A call's metrics once it ended: its status, its error, its durations. */
  function observe(result: TCallResult, latencyMs: number, attempts: number) {
    countCall(String(result.status));
    if (result.errorCode) countError(result.errorCode);
    else if (result.status >= 400)
      countError(result.clientGone ? 'client_closed' : `upstream_${result.status}`);
    metrics.duration.observe(latencyMs / 1000);
    if (attempts > 0) metrics.upstreamDuration.observe(result.upstreamMs / 1000);
  }

  return {
    state,
    log: app.log,
    logCall: createCallLog(app.log, app.config.logGatewayCalls),
    allowPrivate,
    tracing,
    routing,
    spending: createSpendReservation(counters, directory),
    refuse,
    refuseLogged,
    refuseUnknownRoute,
    observe,
    rates: new RequestWindows(),
  };
}

export type TCallContext = ReturnType<typeof createCallContext>;
