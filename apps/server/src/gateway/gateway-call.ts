import type { ServerResponse } from 'node:http';
import type { TKeyAuth } from '../core/credentials';
import type { TUsageRow } from '../modules/usage/service';
import { chargedPicos } from '../modules/money/service';
import { applyEdits, includeUsage, objectStart, setMember, withoutMember, type TBodyEdit } from './body-edit';
import type { TCallContext, TRefusal } from './call-context';
import type { CallTrace } from './call-trace';
import { goneResult, ownResult, parseObject } from './call-outcome';
import { setCallTokens } from './call-tokens';
import { KEY_QUOTA_EXCEEDED, QUOTA_EXCEEDED } from './counter-types';
import type { TPlanLimits, TRouteEntry, TUpstreamTarget } from './directory';
import { keyQuotaBody, unsupportedParameterBody, writeGatewayError } from './errors';
import { attemptFor, attemptHeaders } from './formats';
import type { TProtocol } from './protocols';
import { RoutedCall } from './routed-call';
import type { TSpendTicket } from './spend';
import type { TTokenTicket } from './token-limit';
import { planTokens, setTokenHeaders, tokensUsed, type TTokenPlan } from './token-reservation';
import { ProxyCall, type TCallResult, type TStreamTap } from './upstream';

const STREAM_MARKER = Buffer.from('"stream"');

/**
 * A call that named a model id (contract 5b, model-routing.ts): the call goes to its first
 * provider (the call's route) and, on a failure before the first byte, to these in order.
 */
export interface TModelCall {
  id: string;
  fallbacks: readonly TRouteEntry[];
}

/**
 * One caller request on the gateway, from an admitted key and its route to its usage row (contract
 * 6c): it holds the call's state (request id, start, body, stream, spend reservation, the meter's
 * call id) and goes through admit, forward, meter. Its protocol (protocols.ts) says what is read
 * from the body and the answer; nothing here depends on which protocol it is.
 */
export class GatewayCall {
  readonly started: number;
  readonly requestId: string;
  readonly hasCard: boolean;
  /** The body as parsed (null until something needs it). */
  parsed: Record<string, unknown> | null;
  /** The upstream body: the caller's bytes, edited where the gateway must (body-edit.ts). */
  body: Buffer;
  /** The request of a streamed call (what its tokens are estimated from when a stream is cut). */
  private streamed: Record<string, unknown> | null = null;
  private stream: TStreamTap | null = null;
  private edits: TBodyEdit[] | null = null;
  private spend: TSpendTicket | null = null;
  private tokens: TTokenTicket | null = null;
  /** When the call was counted against the quota (epoch ms): the row carries it (decision 049). */
  private admittedAt: number | null = null;
  /** The call's spans when tracing is on (call-trace.ts), else null. */
  private readonly trace: CallTrace | null;
  /** The model id the caller named, with the providers after the first; null on a route's call. */
  private readonly model: TModelCall | null;

  constructor(
    private readonly ctx: TCallContext,
    readonly protocol: TProtocol,
    readonly res: ServerResponse,
    readonly key: TKeyAuth,
    readonly route: TRouteEntry,
    readonly limits: TPlanLimits,
    request: {
      id: string;
      started: number;
      body: Buffer;
      start: number;
      parsed: Record<string, unknown> | null;
      trace: CallTrace | null;
      model?: TModelCall | null;
      /** An Anthropic client's version headers, for Anthropic upstreams (formats/index.ts); else null. */
      versionHeaders?: Record<string, string> | null;
    },
  ) {
    this.requestId = request.id;
    this.started = request.started;
    this.body = request.body;
    this.parsed = request.parsed;
    this.hasCard = limits.hasCard;
    this.start = request.start;
    this.trace = request.trace;
    this.model = request.model ?? null;
    // The `provider` preferences are the gateway's: no upstream is sent them (model calls only).
    const parsed = this.parsed;
    if (this.model !== null && parsed !== null && parsed.provider !== undefined) {
      this.body = withoutMember(this.body, this.start, 'provider', parsed);
      this.start = objectStart(this.body);
      delete parsed.provider;
    }
    this.versionHeaders = request.versionHeaders ?? null;
  }

  private readonly versionHeaders: Record<string, string> | null;

  /** Where the body's object starts (body-edit.ts edits from there). */
  private start: number;

  /**
   * Reads what the call needs of its body, reserves its spend and counts it against the limits;
   * false when it was refused (answered here) or is not to be forwarded.
   */
  async admit(): Promise<boolean> {
    const { ctx, key, route, limits } = this;
    // A priced route of another account needs a card on file (contract 5a).
    if (route.price && route.accountId !== key.accountId && !limits.hasCard)
      return this.refused({ code: 'payment_required' }, { ratePerMinute: limits.rateLimitPerMinute });
    if (!this.readBody()) return this.refused({ code: 'invalid_request' });
    // A limited caller's priced call reserves the most it can cost, its output bounded in the
    // upstream body when the caller did not (spend-reservation.ts); other calls skip this.
    const output = this.protocol.outputField;
    // A model call may fall to its other providers: the reservation covers the priciest.
    const candidates = this.model?.fallbacks;
    let plan = ctx.spending.plan(key, route, limits, this.body, this.start, this.parsed, output, candidates);
    if (plan instanceof Promise) plan = await plan;
    if (plan === 'invalid') return this.refused({ code: 'invalid_request' });
    // A token-limited key's call reserves its prompt and most output (token-reservation.ts).
    let tokenPlan = this.planTokens();
    if (tokenPlan instanceof Promise) tokenPlan = await tokenPlan;
    if (tokenPlan === 'invalid') return this.refused({ code: 'invalid_request' });
    // One bound on the output at most: the spend plan's and the token plan's are the same edit.
    const bound = plan?.bound ?? tokenPlan?.bound ?? null;
    if (bound) this.edits = this.edits ? bound.concat(this.edits) : bound;
    if (this.edits) this.body = applyEdits(this.body, this.edits);
    // The caller may have left while a look-up was awaited: nothing to count or forward.
    if (this.res.destroyed) return false;
    // A caller's limits in money are checked first (one more Redis round trip, only for a limited
    // caller's priced route); a call refused below gives its reservation back.
    let spend = plan ? ctx.spending.reserve(plan) : null;
    if (spend instanceof Promise) spend = await spend;
    const gate = { ratePerMinute: limits.rateLimitPerMinute };
    if (typeof spend === 'string') return this.refused({ code: spend }, gate);
    this.spend = spend;
    if (tokenPlan && !(await this.reserveTokens(tokenPlan))) {
      this.release();
      return false;
    }
    return this.count();
  }

  /**
   * Checks and counts the call against the rate limit and the quota in one step (one Redis round
   * trip with REDIS_URL): from here on it is a call, metered whatever happens to it.
   */
  private async count(): Promise<boolean> {
    let admitted = this.ctx.state.counters.admit(this.key, this.limits);
    if (typeof admitted !== 'number') admitted = await admitted;
    if (admitted !== 0) this.release();
    if (admitted === QUOTA_EXCEEDED) return this.refused({ code: 'quota_exceeded' }, 'admitted');
    if (admitted === KEY_QUOTA_EXCEEDED) {
      const body = keyQuotaBody(this.key.monthlyCalls ?? 0);
      return this.refused({ code: 'key_quota_exceeded', body }, 'admitted');
    }
    if (admitted > 0) return this.refused({ code: 'rate_limit_exceeded', retryAfter: admitted }, 'rate');
    this.admittedAt = Date.now();
    // OpenAI's rate headers go out with whatever answers the admitted call (merged by writeHead).
    const rate = this.ctx.rates.admitted(this.key.keyId, this.limits.rateLimitPerMinute);
    for (let i = 0; i < rate.length; i += 2) this.res.setHeader(rate[i]!, rate[i + 1]!);
    if (!this.res.destroyed) return true;
    // Admitted (counted against the quota) but the caller left before it was forwarded.
    this.meter(this.route, goneResult(), 0, false, this.begin());
    return false;
  }

  private planTokens() {
    const { key, limits, body, start } = this;
    if (key.tokensPerMinute === null && limits.tokensPerMinute === null) return null;
    this.parsed ??= parseObject(body);
    return planTokens(key, limits, {
      body,
      start,
      parsed: this.parsed,
      outputField: this.protocol.outputField,
    });
  }

  /** Takes the plan's tokens from the key's minute; false when refused (answered here, with its headers). */
  private async reserveTokens(plan: TTokenPlan): Promise<boolean> {
    const { key } = this;
    let answer = this.ctx.state.counters.reserveTokens(key.accountId, key.keyId, plan.limit, plan.tokens);
    if (answer instanceof Promise) answer = await answer;
    if (!this.res.headersSent) setTokenHeaders(this.res, answer);
    if (answer.ticket) {
      this.tokens = answer.ticket;
      return true;
    }
    // Logged as the rate limit's refusals are: the first per key and minute (refusal-log.ts).
    if (plan.tokens > plan.limit) return this.refused({ code: 'token_request_too_large' }, 'rate');
    return this.refused({ code: 'token_rate_limit_exceeded', retryAfter: answer.resetSeconds }, 'rate');
  }

  /** Refused before it was forwarded; a known key's refusal for its limits is logged (refusal-log.ts). */
  private refused(refusal: TRefusal, gate?: Parameters<TCallContext['refuseLogged']>[3]): false {
    if (gate === undefined) this.ctx.refuse(this.res, this.requestId, this.started, refusal);
    else this.ctx.refuseLogged(this.res, this, refusal, gate);
    return false;
  }

  /** The reservations given back whole: the call was refused or never sent. */
  private release() {
    const counters = this.ctx.state.counters;
    if (this.spend) void counters.settleSpend(this.spend, 0);
    if (this.tokens) void counters.settleTokens(this.tokens, 0);
    this.spend = null;
    this.tokens = null;
  }

  /**
   * The body's upstream model and stream flag. Changes to the caller's body are made in its bytes
   * (body-edit.ts): nothing else changes. False when the body must be read and is no JSON object.
   */
  private readBody(): boolean {
    const { route, body, start } = this;
    if (route.upstreamModel) {
      this.parsed ??= parseObject(body);
      if (!this.parsed) return false;
      this.parsed.model = route.upstreamModel;
      this.edits = setMember(body, start, 'model', JSON.stringify(route.upstreamModel));
    }
    const reading = this.protocol.stream;
    if (reading === null || !body.includes(STREAM_MARKER)) return true;
    this.parsed ??= parseObject(body);
    if (!this.parsed) return false;
    if (this.parsed.stream !== true) return true;
    this.streamed = this.parsed;
    this.stream = { stripUsage: false, reading };
    // A streamed call: the upstream is asked for usage (its last chunk) so the call is metered.
    if (this.protocol.asksStreamUsage) this.askStreamUsage(this.parsed);
    return true;
  }

  /** The caller did not ask for usage: asked here, and its chunk taken out of the answer. */
  private askStreamUsage(parsed: Record<string, unknown>) {
    const options = parsed.stream_options;
    const isObject = options !== null && typeof options === 'object' && !Array.isArray(options);
    if (isObject && (options as { include_usage?: unknown }).include_usage === true) return;
    parsed.stream_options = { ...(isObject ? options : {}), include_usage: true };
    this.stream = { stripUsage: true, reading: this.stream!.reading };
    // With no options of the caller's (the usual case) the option is put first, unwalked.
    const usage = includeUsage(this.body, this.start, options === undefined);
    this.edits = this.edits ? this.edits.concat(usage) : usage;
  }

  /** The meter's entry for the call, begun before anything is sent (its journal line). */
  private begin(): number {
    const { key, route } = this;
    return this.ctx.state.meter.begin({
      callerAccountId: key.accountId,
      keyId: key.keyId,
      endpointId: route.endpointId,
      providerAccountId: route.accountId,
    });
  }

  /** Sends the admitted call: routed (retries, fallbacks, cache) or to its one upstream. */
  forward(): void {
    const { ctx, route, res } = this;
    const callId = this.begin();
    const model = this.model;
    if (route.routing !== null || (model !== null && model.fallbacks.length > 0)) {
      const routed = new RoutedCall(
        ctx.routing,
        res,
        this.routedRequest(callId),
        (answered, result, attempts, hit, upstream) =>
          this.meter(answered, result, attempts, hit, callId, upstream),
      );
      return routed.start();
    }
    const target = route.upstreams[0]!;
    const onDone = (result: TCallResult) => this.meter(route, result, 1, false, callId, target);
    // The call in the upstream's format (formats/): a field it cannot carry is the caller's 400.
    const attempt = attemptFor(target, this.body, this.protocol);
    if ('refused' in attempt) {
      const body = unsupportedParameterBody(attempt.refused);
      const status = writeGatewayError(
        res,
        'unsupported_parameter',
        this.requestId,
        undefined,
        route.airHeaders,
        body,
      );
      return this.meter(route, ownResult(status, 'unsupported_parameter'), 0, false, callId, target);
    }
    const trace = this.trace;
    const headers = attemptHeaders(
      trace === null ? target.headers : trace.startAttempt(route, target, 1),
      target.format,
      this.versionHeaders,
    );
    if (route.literalPrivate && !ctx.allowPrivate) {
      // Same answer as a refused DNS result: the caller learns nothing about the network.
      ctx.log.warn({ routeName: route.routeName }, 'gateway: upstream is a private address');
      const status = writeGatewayError(
        res,
        'upstream_unreachable',
        this.requestId,
        undefined,
        route.airHeaders,
      );
      return onDone(ownResult(status, 'upstream_unreachable'));
    }
    const forward = {
      origin: route.origin,
      path: attempt.path,
      headers,
      body: attempt.body,
      timeoutMs: route.timeoutMs,
      requestId: this.requestId,
      stream: this.stream,
      callId,
      beforeAnswer: ctx.routing.beforeAnswer,
      airHeaders: route.airHeaders,
      retry: null,
      cache: false,
      translator: attempt.translator,
    };
    ProxyCall.start(ctx.routing.agent, res, forward, onDone);
  }

  /**
   * Sends the admitted call with a forwarder of its own (the MCP proxy, mcp-proxy.ts): its
   * journal line begins now and its result is metered as any call's.
   */
  forwardWith(send: (callId: number, done: (result: TCallResult, attempts: number) => void) => void): void {
    const callId = this.begin();
    send(callId, (result, attempts) => this.meter(this.route, result, attempts, false, callId));
  }

  private routedRequest(callId: number) {
    const { requestId, key, hasCard, route, body, parsed, stream, protocol, trace, model, versionHeaders } =
      this;
    const fallbacks = model === null ? null : model.fallbacks.map((entry) => entry.routeName);
    const modelId = model === null ? null : model.id;
    return {
      requestId,
      key,
      hasCard,
      route,
      body,
      parsed,
      stream,
      callId,
      protocol,
      trace,
      fallbacks,
      modelId,
      versionHeaders,
    };
  }

  /**
   * The call's usage row, on the route that answered, appended to the meter's buffer, with the
   * formats it went between and, on a fallback, the route it asked for (decision 058).
   */
  meter(
    answered: TRouteEntry,
    result: TCallResult,
    attempts: number,
    cacheHit: boolean,
    callId: number,
    upstream: TUpstreamTarget | null = null,
  ) {
    const latencyMs = performance.now() - this.started;
    this.ctx.observe(result, latencyMs, attempts);
    const key = this.key;
    const row: TUsageRow = {
      callerAccountId: key.accountId,
      keyId: key.keyId,
      endpointId: answered.endpointId,
      providerAccountId: answered.accountId,
      status: result.status,
      latencyMs: Math.round(latencyMs),
      promptTokens: null,
      completionTokens: null,
      tokensEstimated: false,
      streamed: result.streamed,
      // A stream's time to first byte, carried with the row (no query on the call's path).
      firstByteMs:
        result.streamed && result.firstByteAt != null ? Math.round(result.firstByteAt - this.started) : null,
      errorCode: result.errorCode ?? result.mcp?.error ?? (result.clientGone ? 'client_closed' : null),
      attempts,
      cacheHit,
      // The provider's own calls are free, and so is an answer from the cache (contract 5a, 6a);
      // whether this one costs anything is decided when stored.
      price: cacheHit || answered.accountId === key.accountId || result.mcp?.free ? null : answered.price,
      createdAt: new Date(),
      admittedAt: this.admittedAt === null ? null : new Date(this.admittedAt),
    };
    // An MCP tool call's tool and answer size (contract 6d); it has no format.
    const mcp = result.mcp;
    if (mcp) {
      row.tool = mcp.tool;
      row.bytes = mcp.bytes;
    } else if (this.protocol.name !== 'mcp') {
      row.clientFormat = this.protocol.client;
      row.upstreamFormat = upstream === null ? null : upstream.format;
      // A model call asked for a model, not the first provider tried: no asked route.
      const asked = this.model === null ? this.route.endpointId : null;
      row.requestedEndpointId = answered.endpointId === asked ? null : asked;
    }
    const meter = this.ctx.state.meter;
    // LOG_GATEWAY_CALLS: the call's line, from the row as the meter receives it (call-log.ts).
    const logCall = this.ctx.logCall;
    const trace = this.trace;
    if (trace !== null) trace.answered(answered, result, attempts, cacheHit, this.contentOf(answered));
    const logged = (final: TUsageRow) => {
      logCall?.(this.requestId, answered.routeName, final);
      if (trace !== null) trace.metered(final);
      return final;
    };
    // A stream cut short is counted with the tokenizer, which may have to load first.
    const counting = setCallTokens(row, result, this.streamed, this.protocol.usage);
    if (counting) return meter.recordWhen(counting.then(() => this.settled(row)).then(logged), callId);
    const known = this.settled(row);
    if (known instanceof Promise) meter.recordWhen(known.then(logged), callId);
    else meter.record(logged(known), callId);
  }

  /**
   * The request body for the trace's content events, only where both the called endpoint and the
   * one that answered (a fallback) have `trace_content` on: their owners chose it.
   */
  private contentOf(answered: TRouteEntry): Buffer | null {
    return this.route.traceContent && answered.traceContent ? this.body : null;
  }

  /**
   * The call's reservations become what it used: its tokens in its key's minute, and its charge,
   * capped at the limits in money it is under.
   */
  private settled(row: TUsageRow): TUsageRow | Promise<TUsageRow> {
    const tokens = this.tokens;
    if (tokens) void this.ctx.state.counters.settleTokens(tokens, tokensUsed(row, tokens.reserved));
    const spend = this.spend;
    if (!spend) return row;
    const charged = this.ctx.state.counters.settleSpend(spend, chargedPicos(row) ?? 0);
    if (typeof charged === 'number') return { ...row, costCapPicos: charged };
    // Dated once the charge is counted: a spend counter seeded again after a loss adds the charges
    // of rows dated before its seed (decision 049), which must not include one its settle counted.
    return charged.then((cap) => ({ ...row, costCapPicos: cap, createdAt: new Date() }));
  }
}
