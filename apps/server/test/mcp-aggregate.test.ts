import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { apiKeys, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { newOwner, send } from './billing-helpers';
import { insertKey } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';
import { connectClient, startMcpServer, type TMcpServer } from './mcp-fixtures';

// Issue 41 item 3 (contract 6d, decision 059): AIR's one MCP address, /api/mcp, with the official
// SDK's Client over StreamableHTTPClientTransport, in front of two SDK-built McpServers on loopback.

let docs: TMcpServer;
let other: TMcpServer;
let t: TTestApp;
let base = '';

/** A second server with tools of its own: a call reaching the wrong server would say so. */
function buildOtherServer(): McpServer {
  const server = new McpServer({ name: 'air-test-other', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes its text',
      inputSchema: { text: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: `other: ${text}` }] }),
  );
  return server;
}

beforeAll(async () => {
  docs = await startMcpServer();
  other = await startMcpServer(buildOtherServer);
  t = await createTestApp({ upstreamAllowPrivate: true, redisUrl: process.env.TEST_REDIS_URL });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
  await docs?.close();
  await other?.close();
});

let seq = 0;
async function endpoint(headers: Record<string, string>, routeName: string, url: string, fields = {}) {
  const created = await send(t.app, headers, 'POST', '/api/aiendpoint', {
    route_name: routeName,
    route_endpoint: url,
    protocol: 'mcp',
    ...fields,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().data.id as string;
}

async function meteredRows(endpointId: string) {
  await gatewayStateOf(t.app).meter.flush();
  return t.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.endpointId, endpointId), isNotNull(usageEvents.tool)))
    .orderBy(asc(usageEvents.id));
}

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;

describe('the aggregated MCP address /api/mcp', () => {
  it("lists the tools of all the account's MCP routes, namespaced, and routes each call to its server", async () => {
    const owner = await newOwner(t.app, 'free');
    const n = `${process.pid}${seq++}`;
    // A route name with the characters the namespacing escapes ('.', '_', ':').
    const docsRoute = `agg${n}/docs_v1.2`;
    const otherRoute = `agg${n}/other`;
    const docsId = await endpoint(owner.headers, docsRoute, docs.url);
    const otherId = await endpoint(owner.headers, otherRoute, other.url);
    // An OpenAI endpoint has no tools: not asked.
    await send(t.app, owner.headers, 'POST', '/api/aiendpoint', {
      route_name: `agg${n}/chat`,
      route_endpoint: 'http://127.0.0.1:9/v1/chat/completions',
    });
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    const { client, transport } = await connectClient(`${base}/api/mcp`, key.raw);
    expect(client.getServerVersion()?.name).toBe('air');
    // It keeps no session: any instance answers any request.
    expect(transport.sessionId).toBeUndefined();

    const { tools } = await client.listTools();
    const prefix = `agg${n}.docsUv1D2__`;
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [`${prefix}count`, `${prefix}fail`, `${prefix}search`, `agg${n}.other__echo`].sort(),
    );
    // Every field of the server's tool is kept: description, schema, annotations.
    const search = tools.find((tool) => tool.name === `${prefix}search`)!;
    expect(search.description).toBe('Searches the documents');
    expect(search.inputSchema).toMatchObject({ type: 'object', properties: { query: { type: 'string' } } });
    expect(search.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === `agg${n}.other__echo`)?.annotations?.destructiveHint).toBe(
      true,
    );
    // Every name is one MCP accepts.
    expect(tools.every((tool) => /^[A-Za-z0-9_.-]+$/.test(tool.name))).toBe(true);

    expect(textOf(await client.callTool({ name: `${prefix}search`, arguments: { query: 'tides' } }))).toBe(
      'found: tides',
    );
    expect(textOf(await client.callTool({ name: `agg${n}.other__echo`, arguments: { text: 'hi' } }))).toBe(
      'other: hi',
    );
    const failed = await client.callTool({ name: `${prefix}fail`, arguments: {} });
    expect(failed.isError).toBe(true);
    const progress: number[] = [];
    const counted = await client.callTool({ name: `${prefix}count`, arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(textOf(counted)).toBe('counted');
    expect(progress).toEqual([1, 2, 3]);
    // A name of no route, of a route not the key's, or no namespaced name at all: an unknown tool.
    await expect(client.callTool({ name: `agg${n}.nope__search`, arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    await expect(client.callTool({ name: 'search', arguments: {} })).rejects.toThrow(/Unknown tool/);
    expect(await client.ping()).toEqual({});
    await client.close();

    // Each call is metered on its own route under the tool's own name; the list is not metered.
    const docsRows = (await meteredRows(docsId)).sort((a, b) => a.tool!.localeCompare(b.tool!));
    expect(docsRows.map((row) => [row.tool, row.status, row.errorCode])).toEqual([
      ['count', 200, null],
      ['fail', 200, 'tool_error'],
      ['search', 200, null],
    ]);
    expect((await meteredRows(otherId)).map((row) => row.tool)).toEqual(['echo']);
    // The servers saw the endpoints' calls under the tools' own names.
    expect(other.seen.some((request) => request.method === 'POST')).toBe(true);
  });

  it("reaches another account's shared route only when the key names it, never a private one", async () => {
    const provider = await newOwner(t.app, 'free');
    const n = `${process.pid}${seq++}`;
    const sharedRoute = `pub${n}/other`;
    const privateRoute = `pub${n}/hidden`;
    await endpoint(provider.headers, sharedRoute, other.url, { isShared: true, isPrivate: false });
    await endpoint(provider.headers, privateRoute, other.url, { isShared: true, isPrivate: true });
    const caller = await newOwner(t.app, 'free');
    const ownRoute = `own${n}/docs`;
    await endpoint(caller.headers, ownRoute, docs.url);

    // No allow-list: the account's own routes only (a marketplace's tools are not pushed on an agent).
    const plain = await insertKey(t.db, t.config.secret, caller.accountId);
    const first = await connectClient(`${base}/api/mcp`, plain.raw);
    expect((await first.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      `own${n}.docs__count`,
      `own${n}.docs__fail`,
      `own${n}.docs__search`,
    ]);
    await expect(
      first.client.callTool({ name: `pub${n}.other__echo`, arguments: { text: 'x' } }),
    ).rejects.toThrow(/Unknown tool/);
    await first.client.close();

    // A key naming the shared route (and the private one) reaches the shared one alone.
    const named = await insertKey(t.db, t.config.secret, caller.accountId);
    await t.db
      .update(apiKeys)
      .set({ routes: [sharedRoute, privateRoute] })
      .where(eq(apiKeys.id, named.id));
    const second = await connectClient(`${base}/api/mcp`, named.raw);
    expect((await second.client.listTools()).tools.map((tool) => tool.name)).toEqual([`pub${n}.other__echo`]);
    expect(
      textOf(await second.client.callTool({ name: `pub${n}.other__echo`, arguments: { text: 'x' } })),
    ).toBe('other: x');
    await expect(
      second.client.callTool({ name: `pub${n}.hidden__echo`, arguments: { text: 'x' } }),
    ).rejects.toThrow(/Unknown tool/);
    await second.client.close();
  });

  it('opens a new upstream session when the server has forgotten the old one', async () => {
    const owner = await newOwner(t.app, 'free');
    const routeName = `stale${process.pid}${seq++}/docs`;
    const endpointId = await endpoint(owner.headers, routeName, docs.url);
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    const { client } = await connectClient(`${base}/api/mcp`, key.raw);
    const name = `stale${process.pid}${seq - 1}.docs__search`;
    expect(textOf(await client.callTool({ name, arguments: { query: 'a' } }))).toBe('found: a');
    // The server restarts its sessions: AIR's is unknown to it now (404).
    const before = docs.sessions.size;
    expect(before).toBeGreaterThan(0);
    for (const transport of [...docs.sessions.values()]) await transport.close();
    docs.sessions.clear();
    expect(textOf(await client.callTool({ name, arguments: { query: 'b' } }))).toBe('found: b');
    await client.close();
    expect((await meteredRows(endpointId)).map((row) => [row.tool, row.status])).toEqual([
      ['search', 200],
      ['search', 200],
    ]);
  });

  it('refuses without a key; DELETE and a GET taking no event stream are 405', async () => {
    const none = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(none.status).toBe(401);
    const owner = await newOwner(t.app, 'free');
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    for (const [method, accept] of [
      ['GET', 'application/json'],
      ['DELETE', 'application/json, text/event-stream'],
    ] as const) {
      const answer = await fetch(`${base}/api/mcp`, {
        method,
        headers: { authorization: `Bearer ${key.raw}`, accept },
      });
      expect(answer.status, method).toBe(405);
    }
    // Not JSON-RPC, and a batch: refused as the protocol says.
    const bad = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.raw}`, 'content-type': 'application/json' },
      body: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });
});

// Issue 41 item 4 (contract 6d): the owner's per-tool switch, a key's tools allow-list, the read-only filter.
describe('per-tool control', () => {
  async function keyWith(headers: Record<string, string>, fields: Record<string, unknown>) {
    const created = await send(t.app, headers, 'POST', '/api/key', {
      name: 'agent',
      scope: ['gateway.invoke'],
      ...fields,
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().data as { id: string; full_key: string; tools: unknown; tools_read_only: boolean };
  }
  const names = async (client: Awaited<ReturnType<typeof connectClient>>['client']) =>
    (await client.listTools()).tools.map((tool) => tool.name).sort();

  it("hides and refuses a tool its owner switched off, at the route's address and at /api/mcp", async () => {
    const owner = await newOwner(t.app, 'free');
    const routeName = `sw${process.pid}${seq++}/docs`;
    const id = await endpoint(owner.headers, routeName, docs.url);
    const patched = await send(t.app, owner.headers, 'PATCH', `/api/aiendpoint/${id}`, {
      disabled_tools: ['fail', 'count', 'fail'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const read = await t.app.inject({ url: `/api/aiendpoint/${id}`, headers: owner.headers });
    expect(read.json().data.disabled_tools).toEqual(['count', 'fail']);
    const key = await keyWith(owner.headers, {});
    const route = await connectClient(`${base}/api/mcp/${routeName}`, key.full_key);
    expect(await names(route.client)).toEqual(['search']);
    await expect(route.client.callTool({ name: 'fail', arguments: {} })).rejects.toThrow(
      /Unknown tool: fail/,
    );
    expect(textOf(await route.client.callTool({ name: 'search', arguments: { query: 'q' } }))).toBe(
      'found: q',
    );
    await route.client.close();
    const one = await connectClient(`${base}/api/mcp`, key.full_key);
    const prefix = routeName.replace('/', '.') + '__';
    expect(await names(one.client)).toEqual([`${prefix}search`]);
    await expect(one.client.callTool({ name: `${prefix}count`, arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    await one.client.close();
    // Switched on again: listed again (the directory drops the route at once).
    await send(t.app, owner.headers, 'PATCH', `/api/aiendpoint/${id}`, { disabled_tools: [] });
    const again = await connectClient(`${base}/api/mcp/${routeName}`, key.full_key);
    expect(await names(again.client)).toEqual(['count', 'fail', 'search']);
    await again.client.close();
    // Only its calls were metered: the refused ones are not.
    expect((await meteredRows(id)).map((row) => row.tool)).toEqual(['search']);
  });

  it('limits a key to the tools it lists, and to read-only ones', async () => {
    const owner = await newOwner(t.app, 'free');
    const n = `${process.pid}${seq++}`;
    const docsRoute = `kt${n}/docs`;
    const otherRoute = `kt${n}/other`;
    await endpoint(owner.headers, docsRoute, docs.url);
    await endpoint(owner.headers, otherRoute, other.url);
    // A route the account may not call is refused, naming the entry.
    const bad = await send(t.app, owner.headers, 'POST', '/api/key', {
      name: 'agent',
      scope: ['gateway.invoke'],
      tools: [{ route: `kt${n}/missing`, tool: 'x' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('tools.0.route');

    const listed = await keyWith(owner.headers, {
      tools: [
        { route: docsRoute, tool: 'count' },
        { route: docsRoute, tool: 'count' },
      ],
    });
    expect(listed.tools).toEqual([{ route: docsRoute, tool: 'count' }]);
    const route = await connectClient(`${base}/api/mcp/${docsRoute}`, listed.full_key);
    expect(await names(route.client)).toEqual(['count']);
    await expect(route.client.callTool({ name: 'search', arguments: { query: 'q' } })).rejects.toThrow(
      /Unknown tool: search/,
    );
    expect(textOf(await route.client.callTool({ name: 'count', arguments: {} }))).toBe('counted');
    await route.client.close();
    // At /api/mcp: the listed tools' routes alone (the other route has none listed).
    const one = await connectClient(`${base}/api/mcp`, listed.full_key);
    expect(await names(one.client)).toEqual([`kt${n}.docs__count`]);
    await expect(
      one.client.callTool({ name: `kt${n}.other__echo`, arguments: { text: 'x' } }),
    ).rejects.toThrow(/Unknown tool/);
    await one.client.close();

    // Read-only tools only: search (readOnlyHint) of docs; echo (destructive) and the unmarked ones are not.
    const readOnly = await keyWith(owner.headers, { tools_read_only: true });
    expect(readOnly.tools_read_only).toBe(true);
    const ro = await connectClient(`${base}/api/mcp`, readOnly.full_key);
    expect(await names(ro.client)).toEqual([`kt${n}.docs__search`]);
    await expect(ro.client.callTool({ name: `kt${n}.docs__count`, arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    expect(textOf(await ro.client.callTool({ name: `kt${n}.docs__search`, arguments: { query: 'r' } }))).toBe(
      'found: r',
    );
    await ro.client.close();
    const roRoute = await connectClient(`${base}/api/mcp/${otherRoute}`, readOnly.full_key);
    expect(await names(roRoute.client)).toEqual([]);
    await expect(roRoute.client.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toThrow(
      /Unknown tool: echo/,
    );
    await roRoute.client.close();
    // Cleared: every tool again.
    const cleared = await send(t.app, owner.headers, 'PATCH', `/api/key/${readOnly.id}`, {
      tools_read_only: false,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const all = await connectClient(`${base}/api/mcp/${otherRoute}`, readOnly.full_key);
    expect(await names(all.client)).toEqual(['echo']);
    await all.client.close();
  });
});

// Issue 41 (contract 6d): browser MCP clients, and the tool list changing under a connected agent.
describe('CORS and notifications/tools/list_changed at /api/mcp', () => {
  const page = 'https://agent.example';

  it('answers preflights of both MCP addresses without a key, and a page only where its key lists its origin', async () => {
    for (const url of [`${base}/api/mcp`, `${base}/api/mcp/acme/docs`]) {
      const answer = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: page,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,mcp-session-id,mcp-protocol-version',
        },
      });
      expect(answer.status, url).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(page);
      expect(answer.headers.get('access-control-allow-methods')).toBe('POST, GET, DELETE');
      expect(answer.headers.get('access-control-allow-headers')).toBe(
        'authorization,content-type,mcp-session-id,mcp-protocol-version',
      );
    }
    const owner = await newOwner(t.app, 'free');
    const routeName = `cors${process.pid}${seq++}/docs`;
    await endpoint(owner.headers, routeName, docs.url);
    const listed = await insertKey(t.db, t.config.secret, owner.accountId);
    await t.db
      .update(apiKeys)
      .set({ allowedOrigins: [page] })
      .where(eq(apiKeys.id, listed.id));
    const init = (key: string, origin: string, url = `${base}/api/mcp/${routeName}`) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          origin,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'page', version: '1' },
          },
        }),
      });
    const allowed = await init(listed.raw, page);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(page);
    // The page's script may read its session id.
    expect(allowed.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    expect(allowed.headers.get('mcp-session-id')).toMatch(/^m1\./);
    await allowed.body?.cancel();
    const one = await init(listed.raw, page, `${base}/api/mcp`);
    expect(one.status).toBe(200);
    expect(one.headers.get('access-control-allow-origin')).toBe(page);
    await one.body?.cancel();
    const other = await init(listed.raw, 'https://elsewhere.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('tells a connected client its tools changed when the owner switches one off, and lists the new set', async () => {
    const owner = await newOwner(t.app, 'free');
    const routeName = `lc${process.pid}${seq++}/docs`;
    const id = await endpoint(owner.headers, routeName, docs.url);
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    const { client } = await connectClient(`${base}/api/mcp`, key.raw);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const prefix = routeName.replace('/', '.') + '__';
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      ['count', 'fail', 'search'].map((name) => prefix + name),
    );
    let changed = 0;
    const told = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
        resolve();
      });
    });
    // The client's GET stream is open on the server before the change is made.
    await vi.waitFor(() => expect(gatewayStateOf(t.app).mcpStreams?.size).toBeGreaterThan(0));
    const patched = await send(t.app, owner.headers, 'PATCH', `/api/aiendpoint/${id}`, {
      disabled_tools: ['fail'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await told;
    expect(changed).toBeGreaterThanOrEqual(1);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      ['count', 'search'].map((name) => prefix + name),
    );
    await client.close();
  });
});
