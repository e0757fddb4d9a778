import type { ServerResponse } from 'node:http';
import type { Agent } from 'undici';
import type { TKeyAuth } from '../core/credentials';
import { AnswerCache, type TCachedAnswer } from './answer-cache';
import { applyEdits, objectStart, setMember } from './body-edit';
import { goneResult, mayCall, ownResult, parseObject } from './call-outcome';
import { CLOSED, PROBE, type Circuits, type TFailureSource, type TUpstreamHealth } from './circuit';
import type { TDirectory, TRouteEntry, TUpstreamTarget } from './directory';
import { unsupportedParameterBody, writeGatewayError } from './errors';
import { attemptFor, attemptHeaders } from './formats';
import { tokensFrom } from './stream-usage';
import { isRetryableStatus, ProxyCall, type TCallResult, type TStreamTap } from './upstream';
import type { TProtocol } from './protocols';
import type { CallTrace } from './call-trace';

/** What every routed call shares (built once by the invoke handler). */
export interface TRoutingContext {
  agent: Agent;
  directory: TDirectory;
  circuits: Circuits;
  cache: AnswerCache;
  allowPrivate: boolean;
  beforeAnswer: (callId: number) => void;
  /** Metrics, labelled by route and upstream host (never the URL: it may carry a secret). */
  upstreamAttempt: (route: string, host: string) => void;
  upstreamFailure: (route: string, host: string) => void;
}

/** The caller's request, as the gateway call (gateway-call.ts) hands it over. */
export interface TRoutedRequest {
  readonly requestId: string;
  readonly key: TKeyAuth;
  /** The caller has a card on file: another account's priced route may be a fallback. */
  readonly hasCard: boolean;
  readonly route: TRouteEntry;
  readonly body: Buffer;
  readonly parsed: Record<string, unknown> | null;
  readonly stream: TStreamTap | null;
  readonly callId: number;
  readonly protocol: TProtocol;
  /** The call's spans when tracing is on: each attempt is a child span (call-trace.ts). */
  readonly trace: CallTrace | null;
  /** A model call's other providers, in order (contract 5b): tried instead of the route's own fallbacks. */
  readonly fallbacks?: readonly string[] | null;
  /** The model id a model call named: its fallbacks are sent it as `model` (or their upstream model). */
  readonly modelId?: string | null;
  /** An Anthropic client's version headers, sent to Anthropic upstreams (formats/index.ts); else null. */
  readonly versionHeaders: Record<string, string> | null;
}

/**
 * How a caller request ended: the route that answered, upstream calls made, cache hit, and the
 * upstream the call was last sent to (its format is logged; null when none was picked).
 */
export type TRoutedDone = (
  route: TRouteEntry,
  result: TCallResult,
  attempts: number,
  cacheHit: boolean,
  upstream: TUpstreamTarget | null,
) => void;

/** A `Retry-After` is honoured when shorter than this; a longer one falls back to the backoff. */
const RETRY_AFTER_MAX_MS = 10_000;

/**
 * One caller request on a routed endpoint (contract 6a): the answer cache first, then upstreams
 * picked by weight among closed circuits, failures before the first byte retried (on another
 * upstream when there is one) after a backoff with jitter or the upstream's Retry-After, then
 * the fallbacks the key may call, in order. Each attempt is a ProxyCall writing straight to the
 * caller; an attempt that will be retried writes nothing.
 */
export class RoutedCall {
  private route: TRouteEntry;
  private body: Buffer;
  private attempts = 0;
  private retriesLeft: number;
  private retriesDone = 0;
  private tried: TUpstreamTarget[] = [];
  /** The upstream the call was last sent to (or refused for: a field its format cannot carry). */
  private last: TUpstreamTarget | null = null;
  private fallbackIndex = 0;
  private health: TUpstreamHealth | null = null;
  private cacheKey: string | null = null;
  /** The last retried upstream answer: passed through if no other attempt can be made after all. */
  private lastFailure: TCallResult['failedAnswer'] = null;

  private readonly requestId: string;
  private readonly key: TKeyAuth;
  private readonly primary: TRouteEntry;
  /** The routes tried in order once the primary's attempts are used up. */
  private readonly fallbacks: readonly string[];
  /** The body as parsed by the handler (null when it was not needed); read for the cache and fallbacks. */
  private parsed: Record<string, unknown> | null;

  constructor(
    private readonly ctx: TRoutingContext,
    private readonly res: ServerResponse,
    private readonly call: TRoutedRequest,
    private readonly onDone: TRoutedDone,
  ) {
    this.requestId = call.requestId;
    this.key = call.key;
    this.primary = call.route;
    this.parsed = call.parsed;
    this.route = call.route;
    this.body = call.body;
    this.retriesLeft = call.route.routing?.retries ?? 0;
    this.fallbacks = call.fallbacks ?? call.route.routing?.fallbacks ?? [];
  }

  start(): void {
    const routing = this.primary.routing;
    if (routing && routing.cacheTtlMs > 0 && this.call.stream === null) {
      this.parsed ??= parseObject(this.body);
      if (this.parsed) {
        // One cache per protocol: the same body on two protocols is two different calls.
        const name = `${this.call.protocol.path}\n${this.primary.routeName}`;
        this.cacheKey = AnswerCache.keyOf(this.key.accountId, name, this.parsed);
        const cached = this.ctx.cache.get(this.cacheKey);
        if (cached) return this.answerFromCache(cached);
      }
    }
    this.next();
  }

  private answerFromCache(cached: TCachedAnswer): void {
    const headers = [
      ...cached.headers,
      'x-request-id',
      this.requestId,
      'x-content-type-options',
      'nosniff',
      'x-air-route',
      this.primary.routeName,
      'x-air-attempts',
      '0',
      'x-air-cache',
      'hit',
    ];
    this.ctx.beforeAnswer(this.call.callId);
    this.res.writeHead(200, headers);
    this.res.end(cached.body);
    this.onDone(this.primary, ownResult(200, null, cached.body), 0, true, null);
  }

  private next(): void {
    if (this.res.destroyed) return this.done(goneResult());
    const picked = this.pick();
    if (picked === null) return void this.fallback();
    if (picked instanceof Promise) {
      picked.then(
        (target) => (target ? this.dispatch(target) : void this.fallback()),
        () => void this.fallback(),
      );
      return;
    }
    this.dispatch(picked);
  }

  /** The next upstream: one whose cooldown is over is probed first; else by weight among closed circuits, untried first. */
  private pick(): TUpstreamTarget | null | Promise<TUpstreamTarget | null> {
    const route = this.route;
    const upstreams = route.upstreams;
    if (route.routing === null) return this.tried.length === 0 ? upstreams[0]! : null;
    const circuits = this.ctx.circuits;
    const now = Date.now();
    let untriedWeight = 0;
    let triedWeight = 0;
    for (const target of upstreams) {
      const health = circuits.health(target, route.routeName);
      const state = circuits.check(health, now, this.key.accountId);
      if (state === PROBE) {
        const claim = circuits.claimProbe(health, route.timeoutMs + 1000, route.routing.cooldownMs);
        if (claim === true) return target;
        if (claim instanceof Promise)
          return claim.then((won) => (won ? target : this.pickClosed(Date.now())));
        continue;
      }
      if (state !== CLOSED) continue;
      if (this.tried.includes(target)) triedWeight += target.weight;
      else untriedWeight += target.weight;
    }
    if (untriedWeight === 0 && triedWeight === 0) return null;
    return this.weighted(untriedWeight > 0, untriedWeight > 0 ? untriedWeight : triedWeight, now);
  }

  private pickClosed(now: number): TUpstreamTarget | null {
    let untriedWeight = 0;
    let triedWeight = 0;
    for (const target of this.route.upstreams) {
      if (!this.isClosed(target, now)) continue;
      if (this.tried.includes(target)) triedWeight += target.weight;
      else untriedWeight += target.weight;
    }
    if (untriedWeight === 0 && triedWeight === 0) return null;
    return this.weighted(untriedWeight > 0, untriedWeight > 0 ? untriedWeight : triedWeight, now);
  }

  /** The upstream's circuit is closed for this caller (for everyone, and its own). */
  private isClosed(target: TUpstreamTarget, now: number): boolean {
    const circuits = this.ctx.circuits;
    return circuits.check(circuits.health(target, this.route.routeName), now, this.key.accountId) === CLOSED;
  }

  private weighted(untried: boolean, total: number, now: number): TUpstreamTarget | null {
    let ticket = Math.random() * total;
    let last: TUpstreamTarget | null = null;
    for (const target of this.route.upstreams) {
      if (!this.isClosed(target, now)) continue;
      if (this.tried.includes(target) === untried) continue;
      last = target;
      ticket -= target.weight;
      if (ticket < 0) return target;
    }
    return last;
  }

  private dispatch(target: TUpstreamTarget): void {
    const route = this.route;
    // The call in the upstream's format (formats/): a field it cannot carry is the caller's 400.
    const attempt = attemptFor(target, this.body, this.call.protocol);
    this.last = target;
    if ('refused' in attempt) {
      const airHeaders = ['x-air-route', route.routeName, 'x-air-attempts', String(this.attempts)];
      const body = unsupportedParameterBody(attempt.refused);
      const status = writeGatewayError(
        this.res,
        'unsupported_parameter',
        this.requestId,
        undefined,
        airHeaders,
        body,
      );
      return this.done(ownResult(status, 'unsupported_parameter'));
    }
    this.attempts++;
    this.tried.push(target);
    if (route.routing !== null) {
      this.health = this.ctx.circuits.health(target, route.routeName);
      this.health.attempts.add(Date.now());
      this.ctx.upstreamAttempt(route.routeName, target.host);
    } else this.health = null;
    const airHeaders =
      this.attempts === 1 && this.cacheKey === null
        ? route.airHeaders
        : [
            'x-air-route',
            route.routeName,
            'x-air-attempts',
            String(this.attempts),
            ...(this.cacheKey !== null ? ['x-air-cache', 'miss'] : []),
          ];
    const trace = this.call.trace;
    const headers = attemptHeaders(
      trace === null ? target.headers : trace.startAttempt(route, target, this.attempts),
      target.format,
      this.call.versionHeaders,
    );
    if (target.literalPrivate && !this.ctx.allowPrivate) {
      // Same answer as a refused DNS result: the caller learns nothing about the network.
      const retried = this.willRetry();
      const status = retried
        ? 0
        : writeGatewayError(this.res, 'upstream_unreachable', this.requestId, undefined, airHeaders);
      // The same for every call, whatever its body: it counts for everyone.
      return this.attemptDone({
        ...ownResult(status, 'upstream_unreachable', null, retried),
        bodyIndependent: true,
      });
    }
    ProxyCall.start(
      this.ctx.agent,
      this.res,
      {
        origin: target.origin,
        path: attempt.path,
        headers,
        body: attempt.body,
        timeoutMs: route.timeoutMs,
        requestId: this.requestId,
        stream: this.call.stream,
        callId: this.call.callId,
        beforeAnswer: this.ctx.beforeAnswer,
        airHeaders,
        retry: this.willRetry,
        cache: this.cacheKey !== null && route === this.primary,
        translator: attempt.translator,
      },
      this.attemptDone,
    );
  }

  /** Another attempt follows a failure now: retries left here, or a fallback the key may call. */
  private readonly willRetry = (): boolean => {
    if (this.res.destroyed) return false;
    if (this.retriesLeft > 0) return true;
    const fallbacks = this.fallbacks;
    for (let i = this.fallbackIndex; i < fallbacks.length; i++) {
      const entry = this.ctx.directory.routes.peek(fallbacks[i]!);
      // Not looked up yet: loaded now, and tried in turn (refused then if the key may not call it).
      if (entry === undefined) {
        void this.ctx.directory.routes.load(fallbacks[i]!).catch(() => null);
        return true;
      }
      if (this.mayFallTo(entry)) return true;
    }
    return false;
  };

  /** A fallback is used only where the key may call it now, as if it had been asked (priced ones need a card). */
  private mayFallTo(entry: TRouteEntry | null): entry is TRouteEntry {
    if (!mayCall(this.key, entry)) return false;
    // A fallback must serve the call's protocol too.
    if (!entry.protocols.has(this.call.protocol.name)) return false;
    return !(entry.price && entry.accountId !== this.key.accountId && !this.call.hasCard);
  }

  private readonly attemptDone = (result: TCallResult): void => {
    const trace = this.call.trace;
    if (trace !== null) trace.attemptDone(result);
    const health = this.health;
    const routing = this.route.routing;
    let recorded: Promise<void> | void = undefined;
    if (health && routing && !result.clientGone) {
      const failed = result.errorCode !== null || isRetryableStatus(result.status);
      if (failed) {
        this.ctx.upstreamFailure(health.route, health.host);
        recorded = this.ctx.circuits.failure(
          health,
          this.failureSource(result),
          this.key.accountId,
          routing.failures,
          routing.cooldownMs,
        );
      } else this.ctx.circuits.success(health, this.key.accountId);
    }
    if (!result.retried) {
      if (
        this.cacheKey !== null &&
        routing !== null &&
        this.route === this.primary &&
        result.status === 200 &&
        result.cacheHeaders &&
        result.body
      ) {
        const tokens = tokensFrom(result.body, this.call.protocol.usage);
        this.ctx.cache.set(
          this.cacheKey,
          {
            headers: result.cacheHeaders,
            body: result.body,
            promptTokens: tokens.prompt,
            completionTokens: tokens.completion,
          },
          routing.cacheTtlMs,
        );
      }
      return this.done(result);
    }
    const go = () => {
      if (this.retriesLeft > 0) {
        this.retriesLeft--;
        const delay = this.delay(result.retryAfterMs ?? -1);
        this.retriesDone++;
        if (delay <= 0) return setImmediate(() => this.next());
        setTimeout(() => this.next(), delay).unref();
        return;
      }
      void this.fallback();
    };
    this.lastFailure = result.failedAnswer ?? null;
    if (recorded instanceof Promise) recorded.then(go, go);
    else go();
  };

  /** Who a failure counts against (contract 6a): everyone, or the caller alone if it may depend on its body. */
  private failureSource(result: TCallResult): TFailureSource {
    if (result.bodyIndependent === true) return 'connection';
    return this.key.accountId === this.route.accountId ? 'owner' : 'caller';
  }

  /** `backoff_ms` doubled each retry, with jitter (50-100 %), or a short `Retry-After`. */
  private delay(retryAfterMs: number): number {
    if (retryAfterMs >= 0 && retryAfterMs < RETRY_AFTER_MAX_MS) return retryAfterMs;
    const base = this.route.routing?.backoffMs ?? 0;
    return Math.round(base * 2 ** this.retriesDone * (0.5 + Math.random() * 0.5));
  }

  /** This route's attempts are used up: the next fallback the key may call, else the failure. */
  private async fallback(): Promise<void> {
    const fallbacks = this.fallbacks;
    const directory = this.ctx.directory;
    try {
      while (this.fallbackIndex < fallbacks.length) {
        const name = fallbacks[this.fallbackIndex++]!;
        let entry = directory.routes.peek(name);
        if (entry === undefined) entry = await directory.routes.load(name);
        if (!this.mayFallTo(entry)) continue;
        if (this.res.destroyed) return this.done(goneResult());
        this.route = entry;
        this.retriesLeft = entry.routing?.retries ?? 0;
        this.retriesDone = 0;
        this.tried = [];
        this.body = this.bodyFor(entry);
        return this.next();
      }
    } catch {
      // A fallback that cannot be looked up is skipped like one that may not be called.
    }
    if (this.res.destroyed) return this.done(goneResult());
    const airHeaders = ['x-air-route', this.route.routeName, 'x-air-attempts', String(this.attempts)];
    const failed = this.lastFailure;
    if (failed) {
      // A fallback turned out not to be callable: the last upstream answer goes out as it came.
      this.ctx.beforeAnswer(this.call.callId);
      this.res.writeHead(failed.status, [
        ...failed.headers,
        'content-length',
        String(failed.body.length),
        'x-request-id',
        this.requestId,
        'x-content-type-options',
        'nosniff',
        ...airHeaders,
      ]);
      this.res.end(failed.body);
      return this.done(ownResult(failed.status, null));
    }
    // Nothing answered: every upstream skipped (circuits open) or every attempt failed.
    const code = this.attempts === 0 ? 'upstreams_unavailable' : 'upstream_unreachable';
    const retryAfter = this.attempts === 0 ? this.reopensInSeconds() : undefined;
    const status = writeGatewayError(this.res, code, this.requestId, retryAfter, airHeaders);
    this.done(ownResult(status, code));
  }

  private reopensInSeconds(): number {
    const now = Date.now();
    let soonest = Infinity;
    for (const target of this.primary.upstreams) {
      const health = this.ctx.circuits.peek(target.circuitKey);
      const until = health ? this.ctx.circuits.reopensAt(health, this.key.accountId, now) : 0;
      if (until > now) soonest = Math.min(soonest, until - now);
    }
    return Number.isFinite(soonest) ? soonest / 1000 : 1;
  }

  /**
   * The body for a fallback: `model` names the fallback's route (or its upstream model; on a model
   * call, the model id), set in the caller's bytes.
   */
  private bodyFor(entry: TRouteEntry): Buffer {
    this.parsed ??= parseObject(this.body);
    if (!this.parsed) return this.body;
    const model = JSON.stringify(entry.upstreamModel ?? this.call.modelId ?? entry.routeName);
    return applyEdits(this.body, setMember(this.body, objectStart(this.body), 'model', model));
  }

  private done(result: TCallResult): void {
    this.onDone(this.route, result, this.attempts, false, this.last);
  }
}
