import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TAuth, TKeyAuth } from '../core/credentials';
import { isAppError } from '../lib/app-error';
import { objectStart } from './body-edit';
import type { TCallContext } from './call-context';
import { mayCall, ownResult } from './call-outcome';
import { allowOrigin, crossOrigin } from './cors';
import type { TRouteEntry } from './directory';
import { unsupportedEndpointBody, writeGatewayError, type TGatewayErrorCode } from './errors';
import { GatewayCall } from './gateway-call';
import { callerKey, canInvoke } from './invoke';
import { ToolAnswerTap } from './mcp-answer';
import { MAX_UPSTREAM_SESSION_ID, openSession, sealSession } from './mcp-session';
import { MCP_TOOL_CALL } from './protocols';
import type { TCallResult } from './upstream';

/*
 * The MCP proxy (contract 6d, decision 055): `/api/mcp/{provider}/{name}` speaks Streamable HTTP
 * to the client and to the route's MCP server. The key, its scopes, origins and route rules are
 * the gateway's (the same checks in the same order as invoke.ts; a private or unknown route is the
 * same 404). A `tools/call` is one call of the call pipeline (gateway-call.ts): admitted against
 * the key's and plan's limits, its spend reserved at the endpoint's per-call price, metered with
 * its tool, status, latency and bytes. Every other message (initialize, lists, pings,
 * notifications, the client's answers to the server, the GET stream, DELETE) is free and
 * unmetered, counted against the key's rate limit only. Sessions are carried in the client's
 * `Mcp-Session-Id` (mcp-session.ts): no instance keeps any.
 */

const MAX_ROUTE_NAME = 200;
const DEFAULT_ACCEPT = 'application/json, text/event-stream';
/** Request headers of the client's passed to the upstream, besides those AIR sets. */
const PASSED_REQUEST_HEADERS = ['mcp-protocol-version', 'last-event-id'] as const;
/** The upstream's answer headers the client gets (the session id is sealed, not passed). */
const PASSED_ANSWER_HEADERS = ['content-type', 'cache-control', 'content-encoding'] as const;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export type TMcpMethod = 'GET' | 'POST' | 'DELETE';

export interface TMcpRequest {
  readonly id: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  readonly auth: TAuth | null;
  readonly keyExpired: boolean;
  readonly ip: string;
  readonly log: { error(obj: unknown, msg: string): void };
}

/** The tool call a message is: its JSON-RPC id and its tool's name as metered. */
export interface TToolCall {
  id: string | number;
  tool: string;
}

/** A JSON-RPC error of the proxy's own, with its HTTP status. */
export function writeRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  requestId: string,
) {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A tool's name as a usage row keeps it: visible ASCII, at most 128 characters (MCP's own bound). */
export function meteredToolName(name: string): string {
  return name.slice(0, 128).replace(/[^\x21-\x7e]/g, '_');
}

/**
 * The tool call among the body's messages, null when there is none, or 'invalid' (not JSON-RPC,
 * a tool call without a name, or a batch holding a tool call: each call is admitted on its own).
 */
function toolCallOf(message: unknown): TToolCall | null | 'invalid' {
  if (Array.isArray(message)) {
    if (message.length === 0) return 'invalid';
    for (const item of message) {
      const found = toolCallOf(item);
      if (found !== null) return 'invalid';
    }
    return null;
  }
  if (message === null || typeof message !== 'object') return 'invalid';
  const value = message as { method?: unknown; id?: unknown; params?: unknown };
  if (value.method !== 'tools/call') return null;
  const id = value.id;
  if (typeof id !== 'string' && typeof id !== 'number') return 'invalid';
  const name = (value.params as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string' || name === '') return 'invalid';
  return { id, tool: meteredToolName(name) };
}

/**
 * The caller's key, checked as every gateway call's is (a key, `gateway.invoke`, an allowed
 * origin); null when refused (the refusal is answered).
 */
export function admitCaller(
  ctx: TCallContext,
  request: TMcpRequest,
  res: ServerResponse,
  started: number,
): TKeyAuth | null {
  const requestId = request.id;
  const key = callerKey(request);
  if (!key) {
    ctx.refuse(res, requestId, started, { code: request.keyExpired ? 'key_expired' : 'invalid_api_key' });
    return null;
  }
  if (!canInvoke(key)) {
    ctx.refuse(res, requestId, started, { code: 'insufficient_scope' });
    return null;
  }
  const origin = crossOrigin(request.headers);
  if (origin !== null) {
    if (!key.allowedOrigins.has(origin)) {
      ctx.refuse(res, requestId, started, { code: 'origin_not_allowed' });
      return null;
    }
    allowOrigin(res, origin);
  }
  return key;
}

/** What a request forwards: its body, the upstream's session, and how the answer's session is treated. */
export interface TMcpSent {
  body: Buffer | null;
  upstreamSession: string | null;
  keyId: string;
  /** The aggregated address (mcp-aggregate.ts): the answer's session id is AIR's own, not passed. */
  aggregated?: {
    protocolVersion: string;
    /** The server does not know the session any more (404): called instead of answering. */
    onStale: (() => void) | null;
  };
}

/** A metered tool call being forwarded: the meter's id, the call, and how its row is written. */
export interface TMcpMetered {
  callId: number;
  call: TToolCall;
  done: (result: TCallResult) => void;
}

export function createMcpHandler(ctx: TCallContext, secret: string) {
  const { directory, counters } = ctx.state;
  /** Upstream requests under way (a GET stream may stay open for hours): cut when the server closes. */
  const open = new Set<() => void>();

  /** The session the client names: its upstream id, null for none, or false when it is no session of this key and route. */
  function sessionOf(headers: IncomingHttpHeaders, route: TRouteEntry, keyId: string): string | null | false {
    const sealed = headerOf(headers, 'mcp-session-id');
    if (sealed === null) return null;
    const session = openSession(secret, sealed);
    if (!session || session.keyId !== keyId || session.routeName !== route.routeName) return false;
    return session.upstream;
  }

  async function handle(request: TMcpRequest, res: ServerResponse, method: TMcpMethod, routeName: string) {
    const started = performance.now();
    const requestId = request.id;
    const key = admitCaller(ctx, request, res, started);
    if (!key) return;
    const caller = { requestId, started, key };
    if (routeName.length > MAX_ROUTE_NAME) return await ctx.refuseUnknownRoute(res, caller);
    const name = routeName.toLowerCase();
    let route = directory.routes.peek(name);
    if (route === undefined) route = await directory.routes.load(name, request.ip);
    // Another account's private route, or one outside the key's allow-list, is a missing one.
    if (!mayCall(key, route)) return await ctx.refuseUnknownRoute(res, caller);
    if (!route.mcp) {
      const body = unsupportedEndpointBody(`/api/mcp/${route.routeName}`, [...route.protocols]);
      return ctx.refuse(res, requestId, started, { code: 'unsupported_endpoint', body });
    }
    let limits = directory.planLimits.peek(key.accountId);
    if (limits === undefined) limits = await directory.planLimits.load(key.accountId);
    if (!limits) return ctx.refuse(res, requestId, started, { code: 'internal_error' });
    const upstreamSession = sessionOf(request.headers, route, key.keyId);
    // As an MCP server answers a session it does not know: the client starts a new one.
    if (upstreamSession === false) return writeRpcError(res, 404, -32001, 'Session not found', requestId);

    let body: Buffer | null = null;
    if (method === 'POST') {
      if (!Buffer.isBuffer(request.body) || request.body.length === 0)
        return writeRpcError(res, 400, -32700, 'Parse error: the body must be JSON-RPC', requestId);
      body = request.body;
      let message: unknown;
      try {
        message = JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        return writeRpcError(res, 400, -32700, 'Parse error: the body must be JSON-RPC', requestId);
      }
      const call = toolCallOf(message);
      if (call === 'invalid')
        return writeRpcError(
          res,
          400,
          -32600,
          'Invalid request: a tools/call needs an id and params.name, and is sent on its own (not in a batch)',
          requestId,
        );
      if (call !== null) {
        const start = objectStart(body);
        const parsed = message as Record<string, unknown>;
        const metered = new GatewayCall(ctx, MCP_TOOL_CALL, res, key, route, limits, {
          id: requestId,
          started,
          body,
          start,
          parsed,
          trace: null,
        });
        if (!(await metered.admit())) return;
        const admitted = route;
        return metered.forwardWith((callId, done) =>
          forward(
            request,
            res,
            method,
            admitted,
            { body, upstreamSession, keyId: key.keyId },
            { callId, call, done },
          ),
        );
      }
    }
    // Anything but a tool call is free, and rate limited as the key's calls are.
    let wait = counters.hitRate(key.keyId, limits.rateLimitPerMinute);
    if (typeof wait !== 'number') wait = await wait;
    if (res.destroyed) return;
    if (wait > 0)
      return ctx.refuse(res, requestId, started, { code: 'rate_limit_exceeded', retryAfter: wait });
    forward(request, res, method, route, { body, upstreamSession, keyId: key.keyId }, null);
  }

  /**
   * The request to the upstream and its answer back, as it arrives (an event stream is never
   * buffered); a metered tool call's answer is read on the way for its outcome and size.
   */
  function forward(
    request: TMcpRequest,
    res: ServerResponse,
    method: TMcpMethod,
    route: TRouteEntry,
    sent: TMcpSent,
    metered: TMcpMetered | null,
  ): void {
    const requestId = request.id;
    const began = performance.now();
    const fail = (code: TGatewayErrorCode) => {
      const status = writeGatewayError(res, code, requestId, undefined, route.airHeaders);
      metered?.done({ ...ownResult(status, code), upstreamMs: performance.now() - began });
    };
    if (route.literalPrivate && !ctx.allowPrivate) {
      ctx.log.warn({ routeName: route.routeName }, 'gateway: upstream is a private address');
      return fail('upstream_unreachable');
    }
    const headers: Record<string, string> = { ...route.headers };
    if (method !== 'POST') delete headers['content-type'];
    headers.accept = headerOf(request.headers, 'accept') ?? DEFAULT_ACCEPT;
    for (const name of PASSED_REQUEST_HEADERS) {
      const value = headerOf(request.headers, name);
      if (value !== null) headers[name] = value;
    }
    if (sent.aggregated) headers['mcp-protocol-version'] = sent.aggregated.protocolVersion;
    if (sent.upstreamSession !== null) headers['mcp-session-id'] = sent.upstreamSession;

    const abort = new AbortController();
    let clientGone = false;
    let finished = false;
    const onClose = () => {
      open.delete(cut);
      if (res.writableFinished) return;
      clientGone = true;
      abort.abort();
    };
    const cut = () => {
      abort.abort();
      res.destroy();
    };
    // The caller may have left while the route or the rate was looked up: nothing to send.
    if (res.destroyed) {
      clientGone = true;
      return metered?.done({ ...ownResult(499, null), clientGone: true });
    }
    res.on('close', onClose);
    open.add(cut);
    const finish = (result: Omit<TCallResult, 'upstreamMs' | 'body' | 'stream' | 'clientGone'>) => {
      if (finished) return;
      finished = true;
      res.off('close', onClose);
      metered?.done({
        ...result,
        status: clientGone ? 499 : result.status,
        upstreamMs: performance.now() - began,
        body: null,
        stream: null,
        clientGone,
      });
    };

    ctx.routing.agent
      .request({
        origin: route.origin,
        path: route.path,
        method,
        headers,
        body: sent.body,
        headersTimeout: route.timeoutMs,
        // The GET stream idles between the server's messages; a POST's answer may not.
        bodyTimeout: method === 'GET' ? 0 : route.timeoutMs,
        signal: abort.signal,
      })
      .then(
        (answer) => {
          const out: Record<string, string> = {
            'x-request-id': requestId,
            'x-content-type-options': 'nosniff',
            'x-air-route': route.routeName,
          };
          let eventStream = false;
          for (const name of PASSED_ANSWER_HEADERS) {
            const value = answer.headers[name];
            if (typeof value !== 'string') continue;
            out[name] = value;
            if (name === 'content-type') eventStream = value.includes('text/event-stream');
          }
          const onStale = sent.aggregated?.onStale;
          if (onStale && answer.statusCode === 404 && !clientGone) {
            // Not answered: the caller opens a new session and sends the request again.
            answer.body.resume();
            finished = true;
            res.off('close', onClose);
            open.delete(cut);
            return onStale();
          }
          const session = answer.headers['mcp-session-id'];
          if (
            !sent.aggregated &&
            typeof session === 'string' &&
            session !== '' &&
            session.length <= MAX_UPSTREAM_SESSION_ID
          )
            out['mcp-session-id'] = sealSession(secret, {
              routeName: route.routeName,
              keyId: sent.keyId,
              upstream: session,
            });
          const tap = metered ? new ToolAnswerTap(metered.call.id, eventStream) : null;
          if (metered) ctx.routing.beforeAnswer(metered.callId);
          if (clientGone) {
            answer.body.destroy();
            return finish({ status: 499, errorCode: null, streamed: eventStream });
          }
          res.writeHead(answer.statusCode, out);
          const stream = answer.body;
          const resume = () => stream.resume();
          stream.on('data', (chunk: Buffer) => {
            tap?.push(chunk);
            if (!res.write(chunk)) {
              stream.pause();
              res.once('drain', resume);
            }
          });
          stream.on('end', () => {
            res.end();
            const outcome = tap?.outcome() ?? 'result';
            const error = outcome === 'result' ? null : outcome;
            const ok = answer.statusCode >= 200 && answer.statusCode < 300;
            finish({
              status: answer.statusCode,
              errorCode: null,
              streamed: eventStream,
              mcp: metered
                ? {
                    tool: metered.call.tool,
                    bytes: tap!.bytes,
                    // Charged only when the tool ran: a JSON-RPC error or a missing answer is free.
                    free: !ok || outcome === 'mcp_error' || outcome === 'no_answer',
                    error,
                  }
                : null,
            });
          });
          stream.on('error', (error: Error) => {
            if (!clientGone) res.destroy();
            const code = (error as { code?: string }).code ?? '';
            finish({
              status: answer.statusCode,
              errorCode: clientGone
                ? null
                : TIMEOUT_CODES.has(code)
                  ? 'upstream_timeout'
                  : 'upstream_unreachable',
              streamed: eventStream,
              mcp: metered ? { tool: metered.call.tool, bytes: tap!.bytes, free: true, error: null } : null,
            });
          });
        },
        (error: Error) => {
          res.off('close', onClose);
          if (clientGone) {
            finished = true;
            return metered?.done({
              ...ownResult(499, null),
              clientGone: true,
              upstreamMs: performance.now() - began,
            });
          }
          const code = (error as { code?: string }).code ?? '';
          ctx.log.warn(
            { route: route.routeName, upstream: route.upstreams[0]!.host },
            'gateway: upstream failure',
          );
          finished = true;
          fail(TIMEOUT_CODES.has(code) ? 'upstream_timeout' : 'upstream_unreachable');
        },
      );
  }

  async function invokeMcp(
    request: TMcpRequest,
    res: ServerResponse,
    method: TMcpMethod,
    routeName: string,
  ): Promise<void> {
    try {
      await handle(request, res, method, routeName);
    } catch (error) {
      if (isAppError(error) && error.code === 'rate_limited')
        return ctx.refuse(res, request.id, performance.now(), {
          code: 'too_many_unknown',
          retryAfter: error.retryAfter,
        });
      request.log.error({ err: error }, 'gateway: MCP call failed');
      ctx.refuse(res, request.id, performance.now(), { code: 'internal_error' });
    }
  }

  /** Ends every answer under way (the server is closing): a client reconnects to another instance. */
  function closeAll(): void {
    for (const cut of open) cut();
    open.clear();
  }

  return { invokeMcp, forward, closeAll };
}
