import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { newOwner, send } from './billing-helpers';
import { insertKey } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';
import { connectClient, startMcpServer, type TMcpServer } from './mcp-fixtures';

// Issue 41, contract 6a and 6d: an endpoint's config.retry applies to a tools/call forwarded to
// its MCP server (an SDK-built McpServer behind a front that fails its first tool calls).

let mcp: TMcpServer;
let t: TTestApp;
let base = '';

/** How the front fails the next tool calls: an HTTP status, or a connection cut. */
type TFailure = { status: number; retryAfter?: string } | 'cut';
const failures: TFailure[] = [];
let toolCalls = 0;
let front: ReturnType<typeof createServer>;
let frontUrl = '';

beforeAll(async () => {
  mcp = await startMcpServer();
  // Passes every request to the SDK server, but fails the tool calls `failures` names.
  front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.includes('"tools/call"')) {
        toolCalls++;
        const failure = failures.shift();
        if (failure === 'cut') return void req.socket.destroy();
        if (failure) {
          res.writeHead(failure.status, {
            'content-type': 'application/json',
            ...(failure.retryAfter ? { 'retry-after': failure.retryAfter } : {}),
          });
          return void res.end('{"error":"busy"}');
        }
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
      fetch(mcp.url, { method: req.method, headers, body: req.method === 'POST' ? body : undefined }).then(
        async (answer) => {
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (name !== 'content-length' && name !== 'transfer-encoding') out[name] = value;
          });
          res.writeHead(answer.status, out);
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => res.destroy(),
      );
    });
  });
  front.listen(0, '127.0.0.1');
  await once(front, 'listening');
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`;
  t = await createTestApp({ upstreamAllowPrivate: true, redisUrl: process.env.TEST_REDIS_URL });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
  front?.closeAllConnections();
  front?.close();
  await mcp?.close();
});

let seq = 0;
async function route(config: Record<string, unknown>) {
  const owner = await newOwner(t.app, 'free');
  const routeName = `retry${process.pid}/docs-${seq++}`;
  const created = await send(t.app, owner.headers, 'POST', '/api/aiendpoint', {
    route_name: routeName,
    route_endpoint: frontUrl,
    protocol: 'mcp',
    config,
  });
  expect(created.statusCode, created.body).toBe(201);
  const key = await insertKey(t.db, t.config.secret, owner.accountId);
  return { routeName, key, endpointId: created.json().data.id as string };
}

/**
 * The endpoint's tool-call rows in call order: by when each was counted (`admitted_at`, set at
 * admission), not by id, which does not follow the order of rows written in one batch.
 */
async function meteredRows(endpointId: string) {
  await gatewayStateOf(t.app).meter.flush();
  return t.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.endpointId, endpointId), isNotNull(usageEvents.tool)))
    .orderBy(asc(usageEvents.admittedAt), asc(usageEvents.createdAt));
}

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;

describe('MCP tool calls retried by config.retry', () => {
  it('a 503, then a cut connection, then a 429 with Retry-After: each retried, one metered call each', async () => {
    const { routeName, key, endpointId } = await route({ retry: { attempts: 2, backoff_ms: 1 } });
    const { client } = await connectClient(`${base}/api/mcp/${routeName}`, key.raw);
    failures.push({ status: 503 });
    toolCalls = 0;
    expect(textOf(await client.callTool({ name: 'search', arguments: { query: 'a' } }))).toBe('found: a');
    expect(toolCalls).toBe(2);
    failures.push('cut');
    expect(textOf(await client.callTool({ name: 'search', arguments: { query: 'b' } }))).toBe('found: b');
    failures.push({ status: 429, retryAfter: '0' }, { status: 502 });
    expect(textOf(await client.callTool({ name: 'search', arguments: { query: 'c' } }))).toBe('found: c');
    expect(toolCalls).toBe(7);
    await client.close();
    const rows = await meteredRows(endpointId);
    expect(rows.map((row) => [row.tool, row.status, row.attempts, row.errorCode])).toEqual([
      ['search', 200, 2, null],
      ['search', 200, 2, null],
      ['search', 200, 3, null],
    ]);
  });

  it('its attempts used up, the last failure reaches the client; without config.retry it is sent once', async () => {
    const retried = await route({ retry: { attempts: 1, backoff_ms: 1 } });
    const { client } = await connectClient(`${base}/api/mcp/${retried.routeName}`, retried.key.raw);
    failures.push({ status: 503 }, { status: 503 });
    toolCalls = 0;
    await expect(client.callTool({ name: 'search', arguments: { query: 'x' } })).rejects.toThrow(/busy/);
    expect(toolCalls).toBe(2);
    await client.close();

    const plain = await route({});
    const second = await connectClient(`${base}/api/mcp/${plain.routeName}`, plain.key.raw);
    failures.push({ status: 503 });
    toolCalls = 0;
    await expect(second.client.callTool({ name: 'search', arguments: { query: 'y' } })).rejects.toThrow(
      /busy/,
    );
    expect(toolCalls).toBe(1);
    // The next call is not failed: sent once, answered.
    expect(textOf(await second.client.callTool({ name: 'search', arguments: { query: 'z' } }))).toBe(
      'found: z',
    );
    await second.client.close();
    expect(failures).toEqual([]);
    expect((await meteredRows(retried.endpointId)).map((row) => [row.status, row.attempts])).toEqual([
      [503, 2],
    ]);
    expect((await meteredRows(plain.endpointId)).map((row) => [row.status, row.attempts])).toEqual([
      [503, 1],
      [200, 1],
    ]);
  });

  it('at /api/mcp too', async () => {
    const { routeName, key, endpointId } = await route({ retry: { attempts: 1, backoff_ms: 1 } });
    const { client } = await connectClient(`${base}/api/mcp`, key.raw);
    failures.push('cut');
    toolCalls = 0;
    const name = `${routeName.replace('/', '.')}__search`;
    expect(textOf(await client.callTool({ name, arguments: { query: 'q' } }))).toBe('found: q');
    expect(toolCalls).toBe(2);
    await client.close();
    expect((await meteredRows(endpointId)).map((row) => [row.status, row.attempts])).toEqual([[200, 2]]);
  });
});
