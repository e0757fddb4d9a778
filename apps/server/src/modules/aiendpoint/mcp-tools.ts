import type { Agent } from 'undici';
import type { MCP_READ_ERRORS, TMcpTool, TMcpTools } from '@air/shared/schemas/aiendpoint';
import { isIP } from 'node:net';
import { outboundAgent } from '../../lib/guarded-lookup';
import { isPrivateAddress } from '../../lib/upstream-address';
import type { TEndpointRow } from './wire';
import { openHeaders } from './wire';
import { responseIn } from '../../lib/json-rpc-answer';

/*
 * An MCP endpoint's tools as its server lists them (contract 6d): AIR, as an MCP client over
 * Streamable HTTP with the endpoint's own headers, initializes a session, sends `initialized`,
 * pages through `tools/list` and ends the session. Read on demand by the owner (the endpoint
 * page); nothing is stored.
 */

const PROTOCOL_VERSION = '2025-06-18';
const TIMEOUT_MS = 10_000;
const MAX_PAGES = 10;
const MAX_ANSWER_BYTES = 4 * 1_048_576;

const agents = new Map<boolean, Agent>();
function agentFor(allowPrivate: boolean): Agent {
  let agent = agents.get(allowPrivate);
  if (!agent) agents.set(allowPrivate, (agent = outboundAgent(allowPrivate, 4)));
  return agent;
}

function toolOf(raw: unknown): TMcpTool | null {
  if (!raw || typeof raw !== 'object') return null;
  const tool = raw as { name?: unknown; description?: unknown; inputSchema?: unknown; annotations?: unknown };
  if (typeof tool.name !== 'string') return null;
  const annotations = (tool.annotations ?? {}) as { readOnlyHint?: unknown; destructiveHint?: unknown };
  const flag = (value: unknown) => (typeof value === 'boolean' ? value : null);
  return {
    name: tool.name.slice(0, 128),
    description: typeof tool.description === 'string' ? tool.description.slice(0, 4000) : null,
    input_schema:
      tool.inputSchema && typeof tool.inputSchema === 'object' && !Array.isArray(tool.inputSchema)
        ? (tool.inputSchema as Record<string, unknown>)
        : {},
    read_only: flag(annotations.readOnlyHint),
    destructive: flag(annotations.destructiveHint),
  };
}

class McpReadError extends Error {
  constructor(
    readonly code: (typeof MCP_READ_ERRORS)[number],
    readonly detail: string | null = null,
  ) {
    super(code);
  }
}

/** Reads the endpoint's tools now; a server that cannot be read is `error`, with no tools. */
export async function readMcpTools(
  secret: string,
  allowPrivate: boolean,
  row: TEndpointRow,
  now = new Date(),
): Promise<TMcpTools> {
  const url = new URL(row.routeEndpoint);
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(openHeaders(secret, row.upstreamHeadersEnc)))
    base[name.toLowerCase()] = value;
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const agent = agentFor(allowPrivate);
  let session: string | null = null;
  let nextId = 1;

  async function send(method: 'POST' | 'DELETE', message: Record<string, unknown> | null) {
    const headers: Record<string, string> = {
      ...base,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
    };
    if (message) headers['content-type'] = 'application/json';
    if (session) headers['mcp-session-id'] = session;
    const answer = await agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method,
      headers,
      body: message ? JSON.stringify(message) : null,
      signal,
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of answer.body) {
      bytes += (chunk as Buffer).length;
      if (bytes > MAX_ANSWER_BYTES) throw new McpReadError('too_large');
      chunks.push(chunk as Buffer);
    }
    const type = answer.headers['content-type'];
    return {
      status: answer.statusCode,
      session: answer.headers['mcp-session-id'],
      text: Buffer.concat(chunks).toString('utf8'),
      eventStream: typeof type === 'string' && type.includes('text/event-stream'),
    };
  }

  async function request(method: string, params: Record<string, unknown>) {
    const id = nextId++;
    const answer = await send('POST', { jsonrpc: '2.0', id, method, params });
    if (answer.status < 200 || answer.status >= 300)
      throw new McpReadError('http_status', `${method}: HTTP ${answer.status}`);
    if (typeof answer.session === 'string' && answer.session !== '') session = answer.session;
    const response = responseIn(answer.text, answer.eventStream, id);
    if (!response) throw new McpReadError('no_answer', method);
    if (response.error) {
      const message = (response.error as { message?: unknown }).message;
      throw new McpReadError(
        'rpc_error',
        `${method}: ${typeof message === 'string' ? message.slice(0, 300) : ''}`,
      );
    }
    return (response.result ?? {}) as Record<string, unknown>;
  }

  const tools: TMcpTool[] = [];
  // An IP literal is never looked up: checked here as the gateway checks it when a route loads.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
    return { tools: [], error: 'unreachable', detail: null, read_at: now.toISOString() };
  try {
    await request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'air', version: '1.0.0' },
    });
    await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' });
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await request('tools/list', cursor ? { cursor } : {});
      for (const raw of Array.isArray(result.tools) ? result.tools : []) {
        const tool = toolOf(raw);
        if (tool) tools.push(tool);
      }
      cursor =
        typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (!cursor) break;
    }
  } catch (error) {
    if (error instanceof McpReadError)
      return { tools: [], error: error.code, detail: error.detail, read_at: now.toISOString() };
    return {
      tools: [],
      error: signal.aborted ? 'timeout' : 'unreachable',
      detail: null,
      read_at: now.toISOString(),
    };
  } finally {
    // Best effort: the session is ended; a server without sessions answers 405, which is fine.
    if (session) await send('DELETE', null).catch(() => undefined);
  }
  return { tools, error: null, detail: null, read_at: now.toISOString() };
}
