import type { ServerResponse } from 'node:http';
import { namespacedTool, splitNamespacedTool } from '@air/shared/mcp-names';
import type { TKeyAuth } from '../core/credentials';
import { isAppError } from '../lib/app-error';
import { objectStart } from './body-edit';
import type { TCallContext } from './call-context';
import { mayCall, ownResult } from './call-outcome';
import { writeGatewayError } from './errors';
import { toolCallRoute, type TRouteEntry } from './directory';
import { GatewayCall } from './gateway-call';
import type { McpUpstreams, TListedTool, TUpstreamSession } from './mcp-client';
import {
  admitCaller,
  meteredToolName,
  writeRpcError,
  writeRpcResult,
  type TMcpMetered,
  type TMcpRequest,
  type TMcpSent,
} from './mcp-messages';
import { listedToolAllowed, mayCallTool, routeHasToolsFor, toolRoutes } from './mcp-policy';
import { MCP_TOOL_CALL } from './protocols';

/** A comment line on every open stream this often, so no proxy on the way takes it for idle. */
const STREAM_PING_MS = 25_000;

/**
 * The GET streams of `/api/mcp` open on this instance: each gets `notifications/tools/list_changed`
 * when the tools it may see may have changed (any endpoint change, from any instance through the
 * change bus), and the client lists them again. It carries nothing else.
 */
export class ToolListStreams {
  private readonly streams = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | null = null;

  get size(): number {
    return this.streams.size;
  }

  open(res: ServerResponse, requestId: string): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': requestId,
      'x-content-type-options': 'nosniff',
    });
    res.write(': tools\n\n');
    this.streams.add(res);
    res.on('close', () => {
      this.streams.delete(res);
      if (this.streams.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    });
    if (!this.timer) {
      this.timer = setInterval(() => this.send(': ping\n\n'), STREAM_PING_MS);
      this.timer.unref();
    }
  }

  /** Every open stream is told the tool list changed. */
  changed(): void {
    this.send(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`);
  }

  private send(text: string): void {
    for (const res of this.streams) if (!res.destroyed) res.write(text);
  }

  /** Ends every stream (the server is closing): a client reconnects to another instance. */
  close(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/*
 * AIR's one MCP address, `/api/mcp` (contract 6d, decision 059): an MCP server of AIR's own
 * whose tools are those of every MCP route the key reaches, each under its namespaced name
 * (`acme.docs__search`, @air/shared/mcp-names). It answers `initialize`, `ping` and `tools/list`
 * itself, and forwards a `tools/call` to its route's server under the tool's own name, over the
 * key's upstream session (mcp-client.ts); the answer (JSON or an event stream with progress)
 * goes back as the server sent it. A tool call is metered, limited and priced exactly as at
 * `/api/mcp/{route}` (one call of the call pipeline on its route). It keeps no session of its
 * own (it gives no `Mcp-Session-Id`): any instance answers any request.
 */

/** The protocol versions answered, newest first (the official SDK's). */
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
const SERVER_INFO = { name: 'air', version: '1.0.0' };
/** Routes read per `tools/list` at most (a key naming more sees the first ones, by name). */
const MAX_ROUTES = 100;

type TRpcId = string | number;

const writeRpc = writeRpcResult;

function accepted(res: ServerResponse, requestId: string) {
  res.writeHead(202, { 'x-request-id': requestId, 'content-length': 0 });
  res.end();
}

export function createMcpAggregate(
  ctx: TCallContext,
  upstreams: McpUpstreams,
  forward: (
    request: TMcpRequest,
    res: ServerResponse,
    method: 'POST',
    route: TRouteEntry,
    sent: TMcpSent,
    metered: TMcpMetered | null,
  ) => void,
) {
  const { directory, counters } = ctx.state;
  const streams = new ToolListStreams();

  async function routeNamed(name: string): Promise<TRouteEntry | null> {
    const cached = directory.routes.peek(name);
    return cached === undefined ? await directory.routes.load(name) : cached;
  }

  /**
   * The MCP routes the key reaches here: those its `tools` name, else those its `routes` name,
   * else its account's own.
   */
  async function reachable(key: TKeyAuth): Promise<TRouteEntry[]> {
    let names: readonly string[];
    if (key.tools !== null) names = toolRoutes(key);
    else if (key.routes !== null) names = [...key.routes].sort();
    else {
      const own = directory.mcpRoutes.peek(key.accountId);
      names = (own === undefined ? await directory.mcpRoutes.load(key.accountId) : own)?.names ?? [];
    }
    const routes = await Promise.all(names.slice(0, MAX_ROUTES).map(routeNamed));
    return routes.filter((route): route is TRouteEntry => mayCall(key, route) && route.mcp);
  }

  /** The route and the tool's own name a namespaced name stands for, when the key may call it. */
  async function toolOf(key: TKeyAuth, name: string): Promise<{ route: TRouteEntry; tool: string } | null> {
    const split = splitNamespacedTool(name);
    if (!split) return null;
    const route = await routeNamed(split.routeName);
    if (!mayCall(key, route) || !route.mcp) return null;
    // Its account's own routes are reached without naming them; another's only when the key names it.
    const named = key.routes !== null || (key.tools !== null && routeHasToolsFor(key, route.routeName));
    if (!named && route.accountId !== key.accountId) return null;
    const allowed = await mayCallTool(key, route, split.tool, () => upstreams.listTools(key.keyId, route));
    return allowed ? { route, tool: split.tool } : null;
  }

  async function listTools(key: TKeyAuth, log: TMcpRequest['log']) {
    const routes = await reachable(key);
    const lists = await Promise.all(
      routes.map((route) =>
        upstreams.listTools(key.keyId, route).then(
          (tools) => ({ route, tools }),
          (error: unknown) => {
            // A server that cannot be read lists nothing; the others' tools are still listed.
            log.error({ err: error, route: route.routeName }, 'gateway: MCP tools/list failed');
            return { route, tools: [] as TListedTool[] };
          },
        ),
      ),
    );
    const tools: TListedTool[] = [];
    for (const { route, tools: listed } of lists)
      for (const tool of listed)
        if (listedToolAllowed(key, route, tool))
          tools.push({ ...tool, name: namespacedTool(route.routeName, tool.name) });
    return tools;
  }

  /** Forwards one admitted tool call over the key's session; a stale session is opened again once. */
  function callOver(
    request: TMcpRequest,
    res: ServerResponse,
    route: TRouteEntry,
    body: Buffer,
    key: TKeyAuth,
    metered: TMcpMetered,
    again: boolean,
  ) {
    upstreams.session(key.keyId, route).then(
      (session: TUpstreamSession) => {
        forward(
          request,
          res,
          'POST',
          route,
          {
            body,
            upstreamSession: session.id,
            keyId: key.keyId,
            aggregated: {
              protocolVersion: session.version,
              onStale: again
                ? () => {
                    upstreams.forget(key.keyId, route, session);
                    callOver(request, res, route, body, key, metered, false);
                  }
                : null,
            },
          },
          metered,
        );
      },
      (error: unknown) => {
        ctx.log.warn({ err: error, route: route.routeName }, 'gateway: MCP session did not open');
        if (res.destroyed) return metered.done({ ...ownResult(499, null), clientGone: true }, 1);
        const status = writeGatewayError(
          res,
          'upstream_unreachable',
          request.id,
          undefined,
          route.airHeaders,
        );
        metered.done(ownResult(status, 'upstream_unreachable'), 1);
      },
    );
  }

  async function handle(request: TMcpRequest, res: ServerResponse, method: 'GET' | 'POST' | 'DELETE') {
    const started = performance.now();
    const requestId = request.id;
    const key = admitCaller(ctx, request, res, started);
    if (!key) return;
    let limits = directory.planLimits.peek(key.accountId);
    if (limits === undefined) limits = await directory.planLimits.load(key.accountId);
    if (!limits) return ctx.refuse(res, requestId, started, { code: 'internal_error' });
    const accept = request.headers.accept ?? '';
    if (method === 'GET' && accept.includes('text/event-stream')) {
      if (await limited(key, limits.rateLimitPerMinute, res, requestId, started)) return;
      return streams.open(res, requestId);
    }
    if (method !== 'POST') {
      // No session to end (and a GET that takes no event stream): what such a server answers.
      res.writeHead(405, { allow: 'POST, GET', 'x-request-id': requestId, 'content-length': 0 });
      return res.end();
    }
    if (!Buffer.isBuffer(request.body) || request.body.length === 0)
      return writeRpcError(res, 400, -32700, 'Parse error: the body must be JSON-RPC', requestId);
    let message: unknown;
    try {
      message = JSON.parse(request.body.toString('utf8')) as unknown;
    } catch {
      return writeRpcError(res, 400, -32700, 'Parse error: the body must be JSON-RPC', requestId);
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message))
      return writeRpcError(res, 400, -32600, 'Invalid request: one JSON-RPC message per request', requestId);
    const { method: rpc, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
    const hasId = typeof id === 'string' || typeof id === 'number';
    const args = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;

    if (rpc === 'tools/call' && hasId) {
      const name = typeof args.name === 'string' ? args.name : '';
      const found = name === '' ? null : await toolOf(key, name);
      if (!found) {
        // As an MCP server answers a tool it does not have; rate limited as any free message.
        if (await limited(key, limits.rateLimitPerMinute, res, requestId, started)) return;
        return writeRpc(res, requestId, { id, error: { code: -32602, message: `Unknown tool: ${name}` } });
      }
      const { route, tool } = found;
      const body = Buffer.from(JSON.stringify({ ...message, params: { ...args, name: tool } }));
      const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      // Admitted, charged and metered at the tool's own price when it has one (decision 063).
      const call = new GatewayCall(ctx, MCP_TOOL_CALL, res, key, toolCallRoute(route, tool), limits, {
        id: requestId,
        started,
        body,
        start: objectStart(body),
        parsed,
        trace: null,
      });
      if (!(await call.admit())) return;
      return call.forwardWith((callId, done) =>
        callOver(
          request,
          res,
          route,
          body,
          key,
          { callId, call: { id: id as TRpcId, tool: meteredToolName(tool) }, done },
          true,
        ),
      );
    }

    // Anything but a tool call is free, and rate limited as the key's calls are.
    if (await limited(key, limits.rateLimitPerMinute, res, requestId, started)) return;
    // A notification, or the client's answer to a request: nothing to answer.
    if (!hasId) return accepted(res, requestId);
    switch (rpc) {
      case 'initialize': {
        const asked = args.protocolVersion;
        const version =
          typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
        return writeRpc(res, requestId, {
          id,
          result: {
            protocolVersion: version,
            capabilities: { tools: { listChanged: true } },
            serverInfo: SERVER_INFO,
            instructions: 'The tools of every AIR route this key may call, named route__tool.',
          },
        });
      }
      case 'ping':
        return writeRpc(res, requestId, { id, result: {} });
      case 'tools/list':
        return writeRpc(res, requestId, { id, result: { tools: await listTools(key, request.log) } });
      default:
        return writeRpc(res, requestId, {
          id,
          error: {
            code: -32601,
            message: `Method not found: ${typeof rpc === 'string' ? rpc.slice(0, 100) : ''}`,
          },
        });
    }
  }

  /** Counts a free message against the key's rate limit; true when refused (answered). */
  async function limited(
    key: TKeyAuth,
    perMinute: number,
    res: ServerResponse,
    requestId: string,
    started: number,
  ): Promise<boolean> {
    let wait = counters.hitRate(key.keyId, perMinute);
    if (typeof wait !== 'number') wait = await wait;
    if (res.destroyed) return true;
    if (wait > 0) {
      ctx.refuse(res, requestId, started, { code: 'rate_limit_exceeded', retryAfter: wait });
      return true;
    }
    return false;
  }

  async function invokeAggregate(
    request: TMcpRequest,
    res: ServerResponse,
    method: 'GET' | 'POST' | 'DELETE',
  ): Promise<void> {
    try {
      await handle(request, res, method);
    } catch (error) {
      if (isAppError(error) && error.code === 'rate_limited')
        return ctx.refuse(res, request.id, performance.now(), {
          code: 'too_many_unknown',
          retryAfter: error.retryAfter,
        });
      request.log.error({ err: error }, 'gateway: MCP call failed');
      if (!res.headersSent) ctx.refuse(res, request.id, performance.now(), { code: 'internal_error' });
    }
  }

  return { invokeAggregate, streams };
}
