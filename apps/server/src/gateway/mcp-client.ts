import type { Agent } from 'undici';
import { LRUCache } from 'lru-cache';
import type { TRouteEntry } from './directory';
import { responseIn } from '../lib/json-rpc-answer';

/*
 * AIR as an MCP client of its routes' servers, for the one address `/api/mcp` (mcp-aggregate.ts,
 * decision 059). Each key keeps one upstream session per route on each instance, opened on its
 * first use (`initialize`, `initialized`) with the endpoint's own headers and reused by every
 * aggregated request of the key there; a session the server no longer knows (404) is opened
 * again. Sessions are per key, never shared between keys: a server may keep state per session.
 * A route's tool list is read over such a session and kept for a short while, for every key.
 * All of it is in memory: nothing is looked up in the database, and an instance that has no
 * session yet opens its own, so consecutive requests may land on any instance.
 */

const DEFAULT_PROTOCOL_VERSION = '2025-06-18';
const MAX_ANSWER_BYTES = 4 * 1_048_576;
const MAX_PAGES = 10;
/** Upstream sessions kept per instance (key and route); the least recently used is ended first. */
const MAX_SESSIONS = 10_000;
/** A route's tool list is read again after this long (or at once when the endpoint changes). */
const TOOLS_TTL_MS = 30_000;

export interface TUpstreamSession {
  /** The server's `Mcp-Session-Id`, or null for a server without sessions. */
  id: string | null;
  /** The protocol version it answered `initialize` with. */
  version: string;
}

/** A tool as its server lists it, every field kept; `name` is its own (not namespaced). */
export type TListedTool = Record<string, unknown> & { name: string };

export class McpClientError extends Error {}

interface TSessionEntry {
  promise: Promise<TUpstreamSession>;
  /** The session once opened. */
  value: TUpstreamSession | null;
}

export class McpUpstreams {
  private readonly sessions: LRUCache<string, TSessionEntry>;
  private readonly tools = new Map<string, { at: number; tools: Promise<TListedTool[]> }>();
  private nextId = 1;

  constructor(
    private readonly agent: Agent,
    private readonly allowPrivate: boolean,
  ) {
    this.sessions = new LRUCache({
      max: MAX_SESSIONS,
      // An evicted session is ended, best effort (the server would expire it in time anyway).
      dispose: (entry, key, reason) => {
        if (reason !== 'evict' && reason !== 'delete') return;
        const routeName = key.slice(0, key.indexOf('\n'));
        void entry.promise.then(
          (opened) => this.endOn(routeName, opened),
          () => undefined,
        );
      },
    });
  }

  /** Routes whose sessions were evicted, with what is needed to end them (set as they are opened). */
  private readonly targets = new Map<string, TRouteEntry>();

  private endOn(routeName: string, session: TUpstreamSession) {
    const route = this.targets.get(routeName);
    if (!route || session.id === null) return;
    void this.send(route, session, 'DELETE', null).catch(() => undefined);
  }

  /** One request to the route's server, its answer read whole (initialize, lists: small answers). */
  private async send(
    route: TRouteEntry,
    session: TUpstreamSession | null,
    method: 'POST' | 'DELETE',
    message: Record<string, unknown> | null,
  ) {
    if (route.literalPrivate && !this.allowPrivate) throw new McpClientError('private address');
    const headers: Record<string, string> = {
      ...route.headers,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': session?.version ?? DEFAULT_PROTOCOL_VERSION,
    };
    if (!message) delete headers['content-type'];
    if (session?.id) headers['mcp-session-id'] = session.id;
    const answer = await this.agent.request({
      origin: route.origin,
      path: route.path,
      method,
      headers,
      body: message ? JSON.stringify(message) : null,
      headersTimeout: route.timeoutMs,
      bodyTimeout: route.timeoutMs,
      signal: AbortSignal.timeout(route.timeoutMs),
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of answer.body) {
      bytes += (chunk as Buffer).length;
      if (bytes > MAX_ANSWER_BYTES) {
        answer.body.destroy();
        throw new McpClientError('answer too large');
      }
      chunks.push(chunk as Buffer);
    }
    const type = answer.headers['content-type'];
    const id = answer.headers['mcp-session-id'];
    return {
      status: answer.statusCode,
      session: typeof id === 'string' && id !== '' ? id : null,
      text: Buffer.concat(chunks).toString('utf8'),
      eventStream: typeof type === 'string' && type.includes('text/event-stream'),
    };
  }

  private async request(
    route: TRouteEntry,
    session: TUpstreamSession | null,
    method: string,
    params: Record<string, unknown>,
  ) {
    const id = this.nextId++;
    const answer = await this.send(route, session, 'POST', { jsonrpc: '2.0', id, method, params });
    if (answer.status === 404 && session?.id) throw new StaleSession();
    if (answer.status < 200 || answer.status >= 300)
      throw new McpClientError(`${method}: HTTP ${answer.status}`);
    const response = responseIn(answer.text, answer.eventStream, id);
    if (!response) throw new McpClientError(`${method}: no answer`);
    if (response.error) throw new McpClientError(`${method}: JSON-RPC error`);
    return { result: (response.result ?? {}) as Record<string, unknown>, session: answer.session };
  }

  private async open(route: TRouteEntry): Promise<TUpstreamSession> {
    this.targets.set(route.routeName, route);
    const { result, session } = await this.request(route, null, 'initialize', {
      protocolVersion: DEFAULT_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'air', version: '1.0.0' },
    });
    const version =
      typeof result.protocolVersion === 'string' ? result.protocolVersion : DEFAULT_PROTOCOL_VERSION;
    const opened = { id: session, version };
    await this.send(route, opened, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' });
    return opened;
  }

  /** The key's session with the route's server on this instance, opened on first use. */
  session(keyId: string, route: TRouteEntry): Promise<TUpstreamSession> {
    const name = `${route.routeName}\n${keyId}`;
    let entry = this.sessions.get(name);
    if (!entry) {
      const opening: TSessionEntry = { promise: this.open(route), value: null };
      entry = opening;
      this.sessions.set(name, opening);
      opening.promise.then(
        (value) => {
          opening.value = value;
        },
        // A session that did not open is not kept: the next request tries again.
        () => {
          if (this.sessions.peek(name) === opening) this.sessions.delete(name);
        },
      );
    }
    return entry.promise;
  }

  /** Forgets the key's session with the route (its server answered 404: it no longer knows it). */
  forget(keyId: string, route: TRouteEntry, stale: TUpstreamSession): void {
    const name = `${route.routeName}\n${keyId}`;
    // One opened since (or opening) is kept.
    if (this.sessions.peek(name)?.value === stale) this.sessions.delete(name);
  }

  /** The route's tools, read over the key's session (kept `TOOLS_TTL_MS` for every key). */
  listTools(keyId: string, route: TRouteEntry, now = Date.now()): Promise<TListedTool[]> {
    const cached = this.tools.get(route.routeName);
    if (cached && now - cached.at < TOOLS_TTL_MS) return cached.tools;
    const tools = this.readTools(keyId, route);
    const entry = { at: now, tools };
    this.tools.set(route.routeName, entry);
    tools.catch(() => {
      if (this.tools.get(route.routeName) === entry) this.tools.delete(route.routeName);
    });
    return tools;
  }

  private async readTools(keyId: string, route: TRouteEntry, again = true): Promise<TListedTool[]> {
    const session = await this.session(keyId, route);
    const tools: TListedTool[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const { result } = await this.request(route, session, 'tools/list', cursor ? { cursor } : {});
        for (const raw of Array.isArray(result.tools) ? (result.tools as unknown[]) : [])
          if (raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string')
            tools.push(raw as TListedTool);
        cursor =
          typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (!cursor) break;
      }
    } catch (error) {
      if (!(error instanceof StaleSession) || !again) throw error;
      this.forget(keyId, route, session);
      return this.readTools(keyId, route, false);
    }
    return tools;
  }

  /** The route changed (or its server said its tools did): its list and its sessions go. */
  routeChanged(routeName: string): void {
    this.tools.delete(routeName);
    for (const name of [...this.sessions.keys()])
      if (name.startsWith(`${routeName}\n`)) this.sessions.delete(name);
  }

  /** Every session ended (the server is closing), best effort. */
  close(): void {
    this.tools.clear();
    this.sessions.clear();
  }
}

class StaleSession extends McpClientError {}
