import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TAuth, TKeyAuth } from '../core/credentials';
import { isAppError } from '../lib/app-error';
import { objectStart } from './body-edit';
import { createCallContext, type TCallContext, type TRefusal } from './call-context';
import type { CallTrace } from './call-trace';
import { mayCall, parseObject } from './call-outcome';
import { allowOrigin, crossOrigin } from './cors';
import { normalizeModelId } from '@air/shared/schemas/aiendpoint';
import { invalidRequestBody, noProviderBody, unsupportedEndpointBody } from './errors';
import { GatewayCall, type TModelCall } from './gateway-call';
import { planModelCall, readPreferences } from './model-routing';
import { clientVersionHeaders } from './formats';
import { upstreamPath, type TProtocol } from './protocols';
import type { TGatewayState } from './state';

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

export type TInvoke = (request: TGatewayRequest, res: ServerResponse) => Promise<void>;

/**
 * The calling key, as authenticateCaller read it (request.auth, from the key cache); a session
 * token is no gateway credential.
 */
export function callerKey(request: { auth: TAuth | null }): TKeyAuth | null {
  const auth = request.auth;
  return auth !== null && auth.kind === 'key' ? auth : null;
}

/** The key may call the gateway (inactive keys do not resolve at all). */
export function canInvoke(key: TKeyAuth): boolean {
  return key.scopes.includes('gateway.invoke');
}

/** The request's body, its route name and its parsed object when reading the name needed it. */
type TRead = { body: Buffer; start: number; routeName: string; parsed: Record<string, unknown> | null };

/** The route name: the `x-route-name` header spares parsing the body; without it, the body's `model`. */
function readRequest(request: TGatewayRequest): TRead | TRefusal {
  const body = request.body;
  if (!Buffer.isBuffer(body)) return { code: 'invalid_request' };
  const start = objectStart(body);
  if (start < 0) return { code: 'invalid_request' };
  const header = request.headers['x-route-name'];
  if (typeof header === 'string' && header !== '') return { body, start, routeName: header, parsed: null };
  const parsed = parseObject(body);
  if (!parsed) return { code: 'invalid_request' };
  const model = parsed.model;
  if (typeof model !== 'string' || model === '') return { code: 'missing_route' };
  // PostgreSQL refuses U+0000 in text: never let it reach the route look-up.
  if (model.includes('\0')) return { code: 'invalid_model' };
  return { body, start, routeName: model, parsed };
}

/**
 * One protocol's calls (protocols.ts) through the one call pipeline: the caller (authenticated
 * once, authenticateCaller), the body, the route, then a GatewayCall admits, forwards and meters
 * it. Answers on the raw response (Fastify's reply is hijacked, or the fast lane took the call
 * before Fastify). On a warm cache nothing here awaits: key, route and plan come from memory, the
 * rate limit and quota are memory counters, metering appends to a buffer.
 */
export function createCallHandler(ctx: TCallContext, protocol: TProtocol): TInvoke {
  const { directory } = ctx.state;
  const tracing = ctx.tracing;

  async function handle(
    request: TGatewayRequest,
    res: ServerResponse,
    started: number,
    trace: CallTrace | null,
  ) {
    const requestId = request.id;
    const key = callerKey(request);
    if (!key)
      return ctx.refuse(res, requestId, started, {
        code: request.keyExpired ? 'key_expired' : 'invalid_api_key',
      });
    if (!canInvoke(key)) return ctx.refuse(res, requestId, started, { code: 'insufficient_scope' });
    // A page's call (contract 6c): answered to it only where its key allows its origin.
    const origin = crossOrigin(request.headers);
    if (origin !== null) {
      if (!key.allowedOrigins.has(origin))
        return ctx.refuse(res, requestId, started, { code: 'origin_not_allowed' });
      allowOrigin(res, origin);
    }
    const read = readRequest(request);
    if ('code' in read) return ctx.refuse(res, requestId, started, read);
    const caller = { requestId, started, key };
    if (read.routeName.length > MAX_ROUTE_NAME) return await ctx.refuseUnknownRoute(res, caller);
    const routeName = read.routeName.toLowerCase();
    // An uncached name costs a database look-up, budgeted per client IP (directory.ts); a
    // name past the budget is refused below (`too_many_unknown`).
    let route = directory.routes.peek(routeName);
    if (route === undefined) route = await directory.routes.load(routeName, request.ip);
    // Another account's private route, or one outside the key's allow-list, answers exactly
    // like a missing one.
    let limits = directory.planLimits.peek(key.accountId);
    let model: TModelCall | null = null;
    if (!mayCall(key, route)) {
      // No route the key may call by that name: a model id its providers declare (contract 5b)?
      const modelId = normalizeModelId(routeName);
      let entry = directory.models.peek(modelId);
      if (entry === undefined) entry = await directory.models.load(modelId, request.ip);
      if (!entry) return await ctx.refuseUnknownRoute(res, caller);
      read.parsed ??= parseObject(read.body);
      if (!read.parsed) return ctx.refuse(res, requestId, started, { code: 'invalid_request' });
      const wanted = readPreferences(read.parsed);
      if ('invalid' in wanted)
        return ctx.refuse(res, requestId, started, {
          code: 'invalid_request',
          body: invalidRequestBody(wanted.invalid),
        });
      if (limits === undefined) limits = await directory.planLimits.load(key.accountId);
      if (!limits) return ctx.refuse(res, requestId, started, { code: 'internal_error' });
      const call = {
        key,
        hasCard: limits.hasCard,
        protocol,
        preferences: wanted.preferences,
        random: ctx.state.random,
      };
      let plan = planModelCall(directory, entry, call);
      if (plan instanceof Promise) plan = await plan;
      if (plan === null) return await ctx.refuseUnknownRoute(res, caller, noProviderBody(entry.modelId));
      route = plan.candidates[0]!;
      model = { id: entry.modelId, fallbacks: plan.fallbacks ? plan.candidates.slice(1) : [] };
    }
    if (trace !== null) trace.route(route, key);
    const path = upstreamPath(route.path, protocol);
    if (path === null || !route.protocols.has(protocol.name)) {
      const served = route.mcp ? [`MCP at /api/mcp/${route.routeName}`] : [...route.protocols];
      const body = unsupportedEndpointBody(protocol.path, served);
      return ctx.refuse(res, requestId, started, { code: 'unsupported_endpoint', body });
    }
    if (limits === undefined) limits = await directory.planLimits.load(key.accountId);
    if (!limits) return ctx.refuse(res, requestId, started, { code: 'internal_error' });
    const call = new GatewayCall(ctx, protocol, res, key, route, limits, {
      id: requestId,
      started,
      ...read,
      trace,
      model,
      versionHeaders: protocol.client === 'anthropic' ? clientVersionHeaders(request.headers) : null,
    });
    if (await call.admit()) call.forward();
  }

  return async function invoke(request, res) {
    const started = performance.now();
    // Tracing on: the call's span, continuing the caller's traceparent (call-trace.ts).
    const trace = tracing === null ? null : tracing.start(request.headers, protocol, request.id, res);
    try {
      await handle(request, res, started, trace);
    } catch (error) {
      if (isAppError(error) && error.code === 'rate_limited')
        return ctx.refuse(res, request.id, started, {
          code: 'too_many_unknown',
          retryAfter: error.retryAfter,
        });
      request.log.error({ err: error }, 'gateway: call failed');
      ctx.refuse(res, request.id, started, { code: 'internal_error' });
    }
    if (trace !== null) trace.settle();
  };
}

/**
 * The handlers of every protocol, sharing one call context (metrics, reservations, routing); the
 * MCP proxy (mcp-proxy.ts) takes the same context.
 */
export function createInvokeHandlers(app: FastifyInstance, state: TGatewayState) {
  const ctx = createCallContext(app, state);
  const handlerFor = (protocol: TProtocol) => createCallHandler(ctx, protocol);
  return { ctx, handlerFor };
}
