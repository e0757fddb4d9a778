import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { isAppError } from '../lib/app-error';
import { objectStart } from './body-edit';
import type { TCallContext } from './call-context';
import { mayCall, ownResult } from './call-outcome';
import { toolCallRoute, type TRouteEntry } from './directory';
import { unsupportedEndpointBody, writeGatewayError, type TGatewayErrorCode } from './errors';
import { GatewayCall } from './gateway-call';
import { filterToolList, ToolAnswerTap } from './mcp-answer';
import type { McpUpstreams } from './mcp-client';
import {
  admitCaller,
  headerOf,
  toolCallOf,
  writeRpcError,
  writeRpcResult,
  type TMcpMethod,
  type TMcpMetered,
  type TMcpRequest,
  type TMcpSent,
} from './mcp-messages';
import { filtersTools, listedToolAllowed, mayCallTool } from './mcp-policy';
import { MAX_UPSTREAM_SESSION_ID, openSession, sealSession } from './mcp-session';
import { MCP_TOOL_CALL } from './protocols';
import { attemptHeaders, retryDelay } from './mcp-retry';
import { isRetryableStatus, type TCallResult } from './upstream';
import { retryAfterMs } from './upstream-headers';

export type { TMcpMethod, TMcpRequest } from './mcp-messages';

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
/** A filtered tools/list answer is read whole: at most this much. */
const MAX_LIST_BYTES = 4 * 1_048_576;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export function createMcpHandler(ctx: TCallContext, secret: string, upstreams: McpUpstreams) {
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
    let listFilter: TMcpSent['listFilter'] = null;
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
      if (
        call !== null &&
        !(await mayCallTool(key, route, call.tool, () => upstreams.listTools(key.keyId, route)))
      ) {
        // A tool the key may not call is one the server does not have (free, rate limited).
        let wait = counters.hitRate(key.keyId, limits.rateLimitPerMinute);
        if (typeof wait !== 'number') wait = await wait;
        if (res.destroyed) return;
        if (wait > 0)
          return ctx.refuse(res, requestId, started, { code: 'rate_limit_exceeded', retryAfter: wait });
        return writeRpcResult(res, requestId, {
          id: call.id,
          error: { code: -32602, message: `Unknown tool: ${call.tool}` },
        });
      }
      if (call === null && filtersTools(key, route)) {
        const value = message as { method?: unknown; id?: unknown };
        if (value.method === 'tools/list' && (typeof value.id === 'string' || typeof value.id === 'number'))
          listFilter = { id: value.id, keep: (tool) => listedToolAllowed(key, route, tool) };
      }
      if (call !== null) {
        const start = objectStart(body);
        const parsed = message as Record<string, unknown>;
        // Admitted, charged and metered at the tool's own price when it has one (decision 063).
        const priced = toolCallRoute(route, call.tool);
        const metered = new GatewayCall(ctx, MCP_TOOL_CALL, res, key, priced, limits, {
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
    forward(request, res, method, route, { body, upstreamSession, keyId: key.keyId, listFilter }, null);
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
    // A tool call is retried as a chat call is (contract 6a, decision 065): `config.retry`'s
    // attempts after its backoff, on a connection failure, a timeout, a 429 or a 5xx, while
    // nothing has reached the client. Other messages are sent once.
    const retries = metered ? (route.routing?.retries ?? 0) : 0;
    let attempt = 1;
    const done = (result: TCallResult) => metered?.done(result, attempt);
    const fail = (code: TGatewayErrorCode) => {
      const status = writeGatewayError(res, code, requestId, undefined, attemptHeaders(route, attempt));
      done({ ...ownResult(status, code), upstreamMs: performance.now() - began });
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

    let abort = new AbortController();
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
      return done({ ...ownResult(499, null), clientGone: true });
    }
    res.on('close', onClose);
    open.add(cut);
    const finish = (result: Omit<TCallResult, 'upstreamMs' | 'body' | 'stream' | 'clientGone'>) => {
      if (finished) return;
      finished = true;
      res.off('close', onClose);
      done({
        ...result,
        status: clientGone ? 499 : result.status,
        upstreamMs: performance.now() - began,
        body: null,
        stream: null,
        clientGone,
      });
    };

    /** A tools/list answer read whole, the tools the key may not see taken out, then sent. */
    const answerFilteredList = (
      answer: { statusCode: number; body: NodeJS.ReadableStream & { destroy(): void } },
      out: Record<string, string | number>,
      eventStream: boolean,
      filter: NonNullable<TMcpSent['listFilter']>,
    ) => {
      const chunks: Buffer[] = [];
      let size = 0;
      answer.body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_LIST_BYTES) chunks.push(chunk);
      });
      answer.body.on('end', () => {
        if (size > MAX_LIST_BYTES) writeRpcError(res, 502, -32603, 'The tool list is too large', requestId);
        else {
          const text = filterToolList(
            Buffer.concat(chunks).toString('utf8'),
            eventStream,
            filter.id,
            filter.keep,
          );
          delete out['content-encoding'];
          out['content-length'] = Buffer.byteLength(text);
          res.writeHead(answer.statusCode, out);
          res.end(text);
        }
        finish({ status: answer.statusCode, errorCode: null, streamed: eventStream });
      });
      answer.body.on('error', () => {
        if (!clientGone) res.destroy();
        finish({ status: answer.statusCode, errorCode: 'upstream_unreachable', streamed: eventStream });
      });
    };

    /**
     * Sends the tool call again after the backoff (doubled each retry, with jitter, or a short
     * Retry-After) when a retry is left and nothing reached the client; false when it is not.
     */
    const retried = (retryAfter: number): boolean => {
      if (attempt > retries || clientGone || res.headersSent) return false;
      const wait = retryDelay(route.routing?.backoffMs ?? 0, attempt, retryAfter);
      attempt++;
      abort = new AbortController();
      setTimeout(() => {
        if (clientGone || res.destroyed) {
          finished = true;
          res.off('close', onClose);
          return done({ ...ownResult(499, null), clientGone: true, upstreamMs: performance.now() - began });
        }
        send();
      }, wait);
      return true;
    };

    const send = (): void => {
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
            if (attempt > 1) out['x-air-attempts'] = String(attempt);
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
            if (metered && isRetryableStatus(answer.statusCode)) {
              const header = answer.headers['retry-after'];
              if (retried(typeof header === 'string' ? retryAfterMs(header) : -1)) {
                answer.body.resume();
                return;
              }
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
            const listFilter = sent.listFilter;
            if (listFilter) return answerFilteredList(answer, out, eventStream, listFilter);
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
            if (!clientGone && retried(-1)) return;
            res.off('close', onClose);
            if (clientGone) {
              finished = true;
              return done({
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
    };
    send();
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
