import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, invoices, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { advance, CARDS, cardToken, newOwner, send } from './billing-helpers';
import { insertKey } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';
import { connectClient, startMcpServer, type TMcpServer } from './mcp-fixtures';

// Issue 41 item 5, contract 6d, decision 063: a shared MCP endpoint's per-tool prices, with the
// official SDK's Client against AIR in front of an SDK-built McpServer on loopback.

let mcp: TMcpServer;
let t: TTestApp;
let base = '';

beforeAll(async () => {
  mcp = await startMcpServer();
  t = await createTestApp({ upstreamAllowPrivate: true, redisUrl: process.env.TEST_REDIS_URL });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
  await mcp?.close();
});

let seq = 0;
const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;
const cents = (n: number) => n * 10_000;

/** A provider's shared MCP endpoint on the fixture server: `price` per call, `tool_prices` per tool. */
async function sharedRoute(config: Record<string, unknown>) {
  const provider = await newOwner(t.app, 'free');
  const routeName = `tp${process.pid}/docs-${seq++}`;
  const created = await send(t.app, provider.headers, 'POST', '/api/aiendpoint', {
    route_name: routeName,
    route_endpoint: mcp.url,
    protocol: 'mcp',
    isShared: true,
    isPrivate: false,
    config,
  });
  expect(created.statusCode, created.body).toBe(201);
  return { provider, routeName, endpointId: created.json().data.id as string };
}

/** A caller with a card on file, on `plan`, and a key. */
async function payingCaller(plan: 'free' | 'pro' = 'free') {
  const caller = await newOwner(t.app, plan === 'pro' ? null : 'free');
  const token = await cardToken(t.app, caller.headers, CARDS.ok);
  if (plan === 'pro') {
    const res = await send(t.app, caller.headers, 'POST', '/api/account/plan', { plan: 'pro', token });
    expect(res.statusCode, res.body).toBe(200);
  } else
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
  const key = await insertKey(t.db, t.config.secret, caller.accountId);
  return { caller, key };
}

async function meteredRows(endpointId: string) {
  await gatewayStateOf(t.app).meter.flush();
  return t.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.endpointId, endpointId), isNotNull(usageEvents.tool)))
    .orderBy(asc(usageEvents.id));
}

/** Rows as sorted tuples: the meter's order of rows is not the calls' on every database. */
const sorted = (tuples: unknown[][]) => tuples.map((tuple) => JSON.stringify(tuple)).sort();

const PRICE = { per_call: cents(1), per_1m_input_tokens: 0, per_1m_output_tokens: 0 };

describe('per-tool prices of an MCP endpoint', () => {
  it('are saved, returned and listed in the catalog; refused on an OpenAI endpoint and when out of range', async () => {
    const { provider, routeName, endpointId } = await sharedRoute({
      price: PRICE,
      tool_prices: { search: cents(3), fail: 0 },
    });
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/aiendpoint/${endpointId}`,
      headers: provider.headers,
    });
    expect(read.json().data.config.tool_prices).toEqual({ fail: 0, search: cents(3) });
    const listed = await t.app.inject({ method: 'GET', url: `/api/marketplace/${routeName}` });
    expect(listed.json().data.tool_prices).toEqual({ fail: 0, search: cents(3) });
    expect(listed.json().data.price).toEqual(PRICE);

    const patch = (body: Record<string, unknown>) =>
      send(t.app, provider.headers, 'PATCH', `/api/aiendpoint/${endpointId}`, body);
    for (const bad of [{ search: -1 }, { search: 1.5 }, { search: 1_000_000_001 }, { 'two words': 1 }]) {
      const res = await patch({ config: { tool_prices: bad } });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // An OpenAI endpoint has no tools to price.
    const openai = await send(t.app, provider.headers, 'POST', '/api/aiendpoint', {
      route_name: `tp${process.pid}/chat-${seq++}`,
      route_endpoint: 'https://93.184.215.14/v1/chat/completions',
      config: { tool_prices: { search: 1 } },
    });
    expect(openai.statusCode).toBe(400);
    expect(openai.json().details?.field ?? openai.body).toMatch(/tool_prices/);
    // Nor may an MCP endpoint with tool prices become one.
    expect((await patch({ protocol: 'openai' })).statusCode).toBe(400);
    // null clears them.
    expect((await patch({ config: { tool_prices: null } })).statusCode).toBe(200);
    const cleared = await t.app.inject({
      method: 'GET',
      url: `/api/aiendpoint/${endpointId}`,
      headers: provider.headers,
    });
    expect(cleared.json().data.config.tool_prices).toEqual({});
  });

  it('charge a priced tool its own price and another tool per_call, reserved against the spend limit', async () => {
    // search 3 cents, count the per-call price of 1 cent.
    const { routeName, endpointId } = await sharedRoute({ price: PRICE, tool_prices: { search: cents(3) } });
    const { caller, key } = await payingCaller();
    // A spend limit of 5 cents.
    const limit = await send(t.app, caller.headers, 'PATCH', '/api/account/spend-limit', {
      marketplace_spend_limit: 5,
    });
    expect(limit.statusCode, limit.body).toBe(200);
    const { client } = await connectClient(`${base}/api/mcp/${routeName}`, key.raw);
    expect(textOf(await client.callTool({ name: 'search', arguments: { query: '1' } }))).toBe('found: 1');
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('counted');
    // 4 cents spent: another search (3) would pass 5, at the per-call price (1) it would fit.
    await expect(client.callTool({ name: 'search', arguments: { query: '2' } })).rejects.toThrow(
      /spend_limit_reached/,
    );
    // The cheaper tool still fits: 5 cents.
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('counted');
    await expect(client.callTool({ name: 'count', arguments: {} })).rejects.toThrow(/spend_limit_reached/);
    await client.close();
    const rows = await meteredRows(endpointId);
    expect(sorted(rows.map((row) => [row.tool, row.costPicos, row.pricePerCall]))).toEqual(
      sorted([
        ['search', cents(3) * 1_000_000, cents(3)],
        ['count', cents(1) * 1_000_000, cents(1)],
        ['count', cents(1) * 1_000_000, cents(1)],
      ]),
    );
  });

  it('a free endpoint with one priced tool: only that tool needs a card and is charged', async () => {
    const { routeName, endpointId } = await sharedRoute({ tool_prices: { search: cents(2) } });
    const carless = await newOwner(t.app, 'free');
    const key = await insertKey(t.db, t.config.secret, carless.accountId);
    const { client } = await connectClient(`${base}/api/mcp/${routeName}`, key.raw);
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('counted');
    await expect(client.callTool({ name: 'search', arguments: { query: 'x' } })).rejects.toThrow(
      /payment_required/,
    );
    await client.close();
    const rows = await meteredRows(endpointId);
    expect(rows.map((row) => [row.tool, row.costPicos, row.pricePerCall])).toEqual([['count', null, null]]);
  });

  it('at /api/mcp too; invoiced and earned per price, as per_call is', async () => {
    const { provider, routeName, endpointId } = await sharedRoute({
      price: PRICE,
      tool_prices: { search: cents(3) },
    });
    const { caller, key } = await payingCaller('pro');
    // The aggregated address reaches another account's route the key names.
    await t.db
      .update(apiKeys)
      .set({ routes: [routeName] })
      .where(eq(apiKeys.id, key.id));
    const prefix = routeName.replace('/', '.');
    const { client } = await connectClient(`${base}/api/mcp`, key.raw);
    for (const query of ['a', 'b'])
      expect(textOf(await client.callTool({ name: `${prefix}__search`, arguments: { query } }))).toBe(
        `found: ${query}`,
      );
    expect(textOf(await client.callTool({ name: `${prefix}__count`, arguments: {} }))).toBe('counted');
    await client.close();
    const rows = await meteredRows(endpointId);
    expect(sorted(rows.map((row) => [row.tool, row.pricePerCall]))).toEqual(
      sorted([
        ['search', cents(3)],
        ['search', cents(3)],
        ['count', cents(1)],
      ]),
    );

    await advance(t.app, 32);
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.accountId, caller.accountId))
      .orderBy(invoices.date)
      .then((all) => all.slice(-1));
    const market = invoice!.lines.filter((line) => line.description.startsWith('Marketplace'));
    // One line per route and price: 2 x 3 cents, 1 x 1 cent.
    expect(market.map((line) => line.amount).sort((a, b) => a - b)).toEqual([1, 6]);
    const earnings = await t.app.inject({
      method: 'GET',
      url: '/api/account/earnings',
      headers: provider.headers,
    });
    expect(earnings.statusCode, earnings.body).toBe(200);
    const earned = (
      earnings.json().data.rows as { calls: number; gross: number; price: { per_call: number } }[]
    )
      .map((row) => [row.price.per_call, row.calls, row.gross])
      .sort((a, b) => a[0]! - b[0]!);
    expect(earned).toEqual([
      [cents(1), 1, 1],
      [cents(3), 2, 6],
    ]);
  }, 60_000);
});
