import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type TApp } from '../src/app';
import { usageEvents } from '../src/db/schema';
import { ToolAnswerTap } from '../src/gateway/mcp-answer';
import { gatewayStateOf } from '../src/gateway/state';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { insertKey } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';
import { connectClient, startMcpServer, type TMcpServer } from './mcp-fixtures';

// Issue 41 items 2, 5 (contract 6d): the official SDK's Client over StreamableHTTPClientTransport
// against AIR's /api/mcp/{route}, in front of an SDK-built McpServer on loopback.

let mcp: TMcpServer;
let t: TTestApp;
let base = '';

beforeAll(async () => {
  mcp = await startMcpServer();
  // The counters and sessions in Redis, as several instances share them.
  t = await createTestApp({
    upstreamAllowPrivate: true,
    redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  // The SDK clients' fetch keeps connections open to AIR (a keep-alive one may be mid-request):
  // cut here as the server's own shutdown does at its deadline (core/shutdown.ts).
  t?.app.server.closeAllConnections();
  await t?.close();
  await mcp?.close();
});

let seq = 0;
/** An account with an MCP endpoint on the fixture server (its own upstream header) and a key. */
async function mcpRoute(fields: Record<string, unknown> = {}) {
  const owner = await newOwner(t.app, 'free');
  const routeName = `mcp${process.pid}/docs-${seq++}`;
  const created = await send(t.app, owner.headers, 'POST', '/api/aiendpoint', {
    route_name: routeName,
    route_endpoint: mcp.url,
    protocol: 'mcp',
    route_type: 'datasource',
    config: { headers: { authorization: 'Bearer upstream-own-token' } },
    ...fields,
  });
  expect(created.statusCode, created.body).toBe(201);
  const key = await insertKey(t.db, t.config.secret, owner.accountId);
  return { owner, routeName, key, endpointId: created.json().data.id as string };
}

async function meteredRows(endpointId: string, app: TApp = t.app) {
  await gatewayStateOf(app).meter.flush();
  return t.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.endpointId, endpointId), isNotNull(usageEvents.tool)))
    .orderBy(asc(usageEvents.id));
}

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;

describe('MCP proxy', () => {
  it('initializes, lists and calls tools through AIR; each tools/call is one metered call', async () => {
    const { owner, routeName, key, endpointId } = await mcpRoute();
    const ownerHeaders = owner.headers;
    const { client, transport } = await connectClient(`${base}/api/mcp/${routeName}`, key.raw);
    expect(client.getServerVersion()?.name).toBe('air-test-docs');
    // AIR's session id is not the upstream's: it is sealed, and the upstream keeps its own.
    const upstreamIds = [...mcp.sessions.keys()];
    expect(transport.sessionId).toMatch(/^m1\./);
    expect(upstreamIds).not.toContain(transport.sessionId);

    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['count', 'fail', 'search']);
    expect(tools.tools.find((tool) => tool.name === 'search')?.annotations?.readOnlyHint).toBe(true);

    const found = await client.callTool({ name: 'search', arguments: { query: 'tides' } });
    expect(textOf(found)).toBe('found: tides');
    expect(found.isError).toBeFalsy();
    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('the tool failed');
    const progress: number[] = [];
    const counted = await client.callTool({ name: 'count', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(textOf(counted)).toBe('counted');
    expect(progress).toEqual([1, 2, 3]);
    // An unknown tool: the SDK's server answers an error result, passed on.
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/nope not found/);

    // The upstream got the endpoint's own header and its own session id, never the AIR key.
    const sent = mcp.seen.filter((request) => request.headers.authorization === 'Bearer upstream-own-token');
    expect(sent.length).toBeGreaterThanOrEqual(6);
    expect(mcp.seen.some((request) => JSON.stringify(request.headers).includes(key.raw))).toBe(false);
    expect(
      sent.slice(1).every((request) => upstreamIds.includes(String(request.headers['mcp-session-id']))),
    ).toBe(true);
    await client.close();

    // Four tool calls metered (initialize, the list and notifications are not): tool, status, bytes.
    // (by tool: rows of one flush need not be stored in the order the calls ended)
    const rows = (await meteredRows(endpointId)).sort((a, b) => a.tool!.localeCompare(b.tool!));
    expect(rows.map((row) => [row.tool, row.status, row.errorCode])).toEqual([
      ['count', 200, null],
      ['fail', 200, 'tool_error'],
      ['nope', 200, 'tool_error'],
      ['search', 200, null],
    ]);
    expect(rows.every((row) => (row.bytes ?? 0) > 20 && row.latencyMs >= 0)).toBe(true);
    // The count call streamed its progress (an event stream), the others may answer either way.
    expect(rows[0]!.streamed).toBe(true);
    // The request log names each tool call's tool under its route.
    const log = await t.app.inject({ url: '/api/account/usage/log', headers: ownerHeaders });
    expect(log.statusCode, log.body).toBe(200);
    const logged = (log.json().data.items as { route_name: string; tool: string | null }[]).filter(
      (item) => item.route_name === routeName,
    );
    expect(logged.map((item) => item.tool).sort()).toEqual(['count', 'fail', 'nope', 'search']);
  });

  it('passes resources and prompts through, unmetered', async () => {
    const { routeName, key, endpointId } = await mcpRoute();
    const { client } = await connectClient(`${base}/api/mcp/${routeName}`, key.raw);
    const resources = await client.listResources();
    expect(resources.resources.map((resource) => [resource.uri, resource.name])).toEqual([
      ['docs://guide', 'guide'],
    ]);
    const read = await client.readResource({ uri: 'docs://guide' });
    expect(read.contents).toEqual([{ uri: 'docs://guide', mimeType: 'text/markdown', text: '# Guide' }]);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual(['summarize']);
    const prompt = await client.getPrompt({ name: 'summarize', arguments: { doc: 'the guide' } });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Summarize the guide' } },
    ]);
    await client.close();
    // Only tools/call is a metered call.
    expect(await meteredRows(endpointId)).toEqual([]);
  });

  it("reads an MCP endpoint's tools for its owner (GET /api/aiendpoint/{id}/tools)", async () => {
    const { owner, endpointId } = await mcpRoute();
    const read = await t.app.inject({ url: `/api/aiendpoint/${endpointId}/tools`, headers: owner.headers });
    expect(read.statusCode, read.body).toBe(200);
    const { tools, error } = read.json().data as {
      tools: {
        name: string;
        description: string | null;
        input_schema: Record<string, unknown>;
        read_only: boolean | null;
      }[];
      error: string | null;
    };
    expect(error).toBeNull();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['count', 'fail', 'search']);
    const search = tools.find((tool) => tool.name === 'search')!;
    expect(search).toMatchObject({ description: 'Searches the documents', read_only: true });
    expect(search.input_schema).toMatchObject({ type: 'object', properties: { query: { type: 'string' } } });
    // It read with the endpoint's own header, and ended the session it opened.
    expect(mcp.seen.at(-1)).toMatchObject({ method: 'DELETE' });
    expect(mcp.seen.at(-1)!.headers.authorization).toBe('Bearer upstream-own-token');
    // Another account's endpoint, or an OpenAI one, is not found; a server that is down says so.
    const other = await newOwner(t.app, 'free');
    expect(
      (await t.app.inject({ url: `/api/aiendpoint/${endpointId}/tools`, headers: other.headers })).statusCode,
    ).toBe(404);
    const down = await send(t.app, owner.headers, 'POST', '/api/aiendpoint', {
      route_name: `mcp${process.pid}/down-${seq++}`,
      route_endpoint: 'http://127.0.0.1:9/mcp',
      protocol: 'mcp',
    });
    const gone = await t.app.inject({
      url: `/api/aiendpoint/${down.json().data.id}/tools`,
      headers: owner.headers,
    });
    expect(gone.json().data).toMatchObject({ tools: [], error: 'unreachable', detail: null });
    const chat = await send(t.app, owner.headers, 'POST', '/api/aiendpoint', {
      route_name: `mcp${process.pid}/chat-${seq++}`,
      route_endpoint: 'http://127.0.0.1:9/v1/chat/completions',
    });
    expect(
      (await t.app.inject({ url: `/api/aiendpoint/${chat.json().data.id}/tools`, headers: owner.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses without a key, with another scope, and on a private or unknown route (404 as the gateway)', async () => {
    const { routeName, key } = await mcpRoute();
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (url: string, authorization?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(init),
      });
    const none = await post(`${base}/api/mcp/${routeName}`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    const other = await newOwner(t.app, 'free');
    const readOnly = await insertKey(t.db, t.config.secret, other.accountId, ['aiendpoint.read']);
    expect((await post(`${base}/api/mcp/${routeName}`, `Bearer ${readOnly.raw}`)).status).toBe(403);
    // Another account's private MCP route answers exactly like a missing one.
    const stranger = await insertKey(t.db, t.config.secret, other.accountId);
    const hidden = await post(`${base}/api/mcp/${routeName}`, `Bearer ${stranger.raw}`);
    const missing = await post(`${base}/api/mcp/${routeName}-missing`, `Bearer ${stranger.raw}`);
    expect([hidden.status, missing.status]).toEqual([404, 404]);
    expect(await hidden.text()).toBe(await missing.text());
    // The owner's own key is let in.
    expect((await post(`${base}/api/mcp/${routeName}`, `Bearer ${key.raw}`)).status).toBe(200);
    // A session id AIR did not seal, or sealed for another key, is an unknown session.
    const forged = await fetch(`${base}/api/mcp/${routeName}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key.raw}`,
        'mcp-session-id': [...mcp.sessions.keys()][0] ?? 'plain-upstream-id',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(forged.status).toBe(404);
  });

  it('cuts a revoked key off mid-session', async () => {
    const { owner, routeName } = await mcpRoute();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/key',
      headers: owner.headers,
      payload: { name: 'agent', scope: ['gateway.invoke'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, full_key: raw } = created.json().data as { id: string; full_key: string };
    const { client } = await connectClient(`${base}/api/mcp/${routeName}`, raw);
    expect(textOf(await client.callTool({ name: 'search', arguments: { query: 'a' } }))).toBe('found: a');
    const revoked = await t.app.inject({
      method: 'PATCH',
      url: `/api/key/${id}`,
      headers: owner.headers,
      payload: { active: false },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await expect(client.callTool({ name: 'search', arguments: { query: 'b' } })).rejects.toThrow(
      /invalid_api_key/,
    );
    await expect(client.listTools()).rejects.toThrow(/invalid_api_key/);
    await client.close().catch(() => undefined);
  });

  it('ends a session with DELETE: the upstream session is closed, the id is unknown after', async () => {
    const { routeName, key } = await mcpRoute();
    const { client, transport } = await connectClient(`${base}/api/mcp/${routeName}`, key.raw);
    const before = mcp.sessions.size;
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    expect(mcp.sessions.size).toBe(before - 1);
    const after = await fetch(`${base}/api/mcp/${routeName}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key.raw}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    await client.close().catch(() => undefined);
  });

  it('charges a priced tool call as chat calls are, and refuses past the spend limit', async () => {
    const provider = await newOwner(t.app, 'free');
    const routeName = `mcp${process.pid}/priced-${seq++}`;
    const shared = await send(t.app, provider.headers, 'POST', '/api/aiendpoint', {
      route_name: routeName,
      route_endpoint: mcp.url,
      protocol: 'mcp',
      isShared: true,
      isPrivate: false,
      // 2 cents a tool call.
      config: { price: { per_call: 20_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 } },
    });
    expect(shared.statusCode, shared.body).toBe(201);
    const endpointId = shared.json().data.id as string;
    const caller = await newOwner(t.app, 'free');
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    const url = `${base}/api/mcp/${routeName}`;
    // No card: a priced route of another account is refused (as chat calls are).
    const { client: carless } = await connectClient(url, key.raw);
    await expect(carless.callTool({ name: 'search', arguments: { query: 'x' } })).rejects.toThrow(
      /payment_required/,
    );
    await carless.close();
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    // A spend limit of 5 cents: two calls fit (4 cents), a third would pass it.
    const limit = await send(t.app, caller.headers, 'PATCH', '/api/account/spend-limit', {
      marketplace_spend_limit: 5,
    });
    expect(limit.statusCode, limit.body).toBe(200);
    const { client } = await connectClient(url, key.raw);
    // Free methods cost nothing: the list is not metered.
    await client.listTools();
    expect(textOf(await client.callTool({ name: 'search', arguments: { query: '1' } }))).toBe('found: 1');
    expect(textOf(await client.callTool({ name: 'search', arguments: { query: '2' } }))).toBe('found: 2');
    await expect(client.callTool({ name: 'search', arguments: { query: '3' } })).rejects.toThrow(
      /spend_limit_reached/,
    );
    await client.close();
    const rows = await meteredRows(endpointId);
    expect(rows.map((row) => [row.tool, row.costPicos, row.pricePerCall])).toEqual([
      ['search', 20_000_000_000, 20_000],
      ['search', 20_000_000_000, 20_000],
    ]);
  });
});

// Two instances on one database and one Redis: a session opened on one goes on on the other.
describe('an MCP session across two instances', () => {
  let second: TApp;
  let secondBase = '';
  let dataDir = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-mcp-b-'));
    second = await buildApp({ ...t.config, dataDir }, { database: t.database });
    secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await second?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens a session on one instance and calls tools on the other, alternating', async () => {
    const { routeName, key, endpointId } = await mcpRoute();
    const first = await connectClient(`${base}/api/mcp/${routeName}`, key.raw);
    const sessionId = first.transport.sessionId!;
    // A client of the same session on the other instance: no initialize, the same session.
    const other = await connectClient(`${secondBase}/api/mcp/${routeName}`, key.raw, sessionId);
    expect(other.transport.sessionId).toBe(sessionId);
    const sessionsBefore = mcp.sessions.size;
    for (let i = 0; i < 4; i++) {
      const { client } = i % 2 === 0 ? other : first;
      expect(textOf(await client.callTool({ name: 'search', arguments: { query: `q${i}` } }))).toBe(
        `found: q${i}`,
      );
    }
    expect((await other.client.listTools()).tools).toHaveLength(3);
    // No new upstream session was opened: every call went on in the first one.
    expect(mcp.sessions.size).toBe(sessionsBefore);
    await first.client.close();
    await other.client.close();
    await gatewayStateOf(second).meter.flush();
    expect((await meteredRows(endpointId)).map((row) => row.tool)).toEqual([
      'search',
      'search',
      'search',
      'search',
    ]);
  });
});

// What the proxy reads of a tool call's answer to meter it (mcp-answer.ts).
describe('a tool call answer as metered', () => {
  const tapped = (id: number, eventStream: boolean, ...chunks: string[]) => {
    const tap = new ToolAnswerTap(id, eventStream);
    for (const chunk of chunks) tap.push(Buffer.from(chunk));
    return { outcome: tap.outcome(), bytes: tap.bytes };
  };

  it('reads a JSON answer: a result, an error result, a JSON-RPC error', () => {
    expect(tapped(3, false, '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}').outcome).toBe('result');
    expect(tapped(3, false, '{"jsonrpc":"2.0","id":3,', '"result":{"isError":true}}').outcome).toBe(
      'tool_error',
    );
    expect(tapped(3, false, '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"x"}}').outcome).toBe(
      'mcp_error',
    );
    // Another id's answer, or none, is no answer to this call (not charged).
    expect(tapped(3, false, '{"jsonrpc":"2.0","id":4,"result":{}}').outcome).toBe('no_answer');
    expect(tapped(3, false, 'not json').outcome).toBe('no_answer');
  });

  it('reads an event stream: notifications first, the response last, split anywhere', () => {
    const events =
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n' +
      'event: message\ndata: {"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"boom"}}\n\n';
    const split = tapped(7, true, events.slice(0, 50), events.slice(50, 121), events.slice(121));
    expect(split).toEqual({ outcome: 'mcp_error', bytes: Buffer.byteLength(events) });
    expect(tapped(7, true, 'data: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\r\n\r\n').outcome).toBe(
      'result',
    );
    expect(tapped(7, true, 'data: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n').outcome).toBe(
      'no_answer',
    );
  });
});
