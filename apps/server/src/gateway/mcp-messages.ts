import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TAuth, TKeyAuth } from '../core/credentials';
import type { TCallContext } from './call-context';
import { allowOrigin, crossOrigin } from './cors';
import { callerKey, canInvoke } from './invoke';
import type { TToolFacts } from './mcp-policy';
import type { TCallResult } from './upstream';

/*
 * What the MCP proxy (mcp-proxy.ts) and AIR's one MCP address (mcp-aggregate.ts) share: the
 * request's shape, the caller's checks, the JSON-RPC answers of AIR's own, and reading a message
 * for its tool call.
 */

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

/** A JSON-RPC answer of the proxy's own (HTTP 200). */
export function writeRpcResult(res: ServerResponse, requestId: string, message: Record<string, unknown>) {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
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

export function headerOf(headers: IncomingHttpHeaders, name: string): string | null {
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
export function toolCallOf(message: unknown): TToolCall | null | 'invalid' {
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
  /** A tools/list whose answer is filtered for the key (mcp-policy.ts): its id, and the tools kept. */
  listFilter?: { id: string | number; keep: (tool: TToolFacts) => boolean } | null;
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
  /** The call's result, and how many attempts it took (retries included). */
  done: (result: TCallResult, attempts: number) => void;
}
