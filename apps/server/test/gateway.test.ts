import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, apiKeys, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { createTestApp, type TTestApp } from './helpers';
import {
  COMPLETION,
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  startWellInsideAMinute,
  writeTestPlans,
  type TMockUpstream,
} from './gateway-fixtures';

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let plansDir: string;
let secret: string;

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-gw-plans-'));
  upstream = await startMockUpstream();
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  secret = t.config.secret;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  rmSync(plansDir, { recursive: true, force: true });
});

let routeCounter = 0;
/** An account with a key and an endpoint on the mock upstream at `upstreamPath`. */
async function setup(
  options: {
    plan?: string;
    upstreamPath?: string;
    endpoint?: Partial<Parameters<typeof insertEndpoint>[3]>;
  } = {},
) {
  const account = await insertAccount(t.db, `Account ${++routeCounter}`, options.plan ?? 'free');
  const key = await insertKey(t.db, secret, account.id);
  const routeName = `mock/route-${routeCounter}`;
  const endpoint = await insertEndpoint(t.db, secret, account.id, {
    routeName,
    routeEndpoint: `${upstream.url}${options.upstreamPath ?? '/ok'}`,
    ...options.endpoint,
  });
  return { account, key, routeName, endpoint };
}

function call(
  rawKey: string | null,
  body: unknown,
  headers: Record<string, string> = {},
  init: RequestInit = {},
) {
  return fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(rawKey ? { authorization: `Bearer ${rawKey}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

async function flushedRows(endpointId: string) {
  await gatewayStateOf(t.app).meter.flush();
  return t.db.select().from(usageEvents).where(eq(usageEvents.endpointId, endpointId));
}

const MESSAGES = [{ role: 'user', content: 'Hi' }];

describe('gateway forwarding', () => {
  it('forwards the raw body unchanged, adds upstream headers, never the caller key, and meters tokens', async () => {
    const { key, routeName, endpoint, account } = await setup({
      endpoint: { upstreamHeaders: { Authorization: 'Bearer upstream-secret', 'X-Extra': 'yes' } },
    });
    // Odd spacing and key order: a re-serialised body would not match byte for byte.
    const raw = `{ "messages":${JSON.stringify(MESSAGES)},  "model": "whatever", "temperature": 0.5 }`;
    const before = upstream.seen.length;
    // Tracing is off here: a caller's traceparent is neither read nor forwarded (issue 43 item 1).
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const res = await call(key.raw, raw, { 'x-route-name': routeName, traceparent });
    expect(res.status).toBe(200);
    // Only allow-listed upstream headers pass; the gateway adds nosniff.
    expect(res.headers.get('x-upstream')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('openai-processing-ms')).toBe('1');
    expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('99');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toEqual(COMPLETION);
    const seen = upstream.seen[before]!;
    expect(seen.body.toString()).toBe(raw);
    expect(seen.path).toBe('/ok');
    expect(seen.headers.authorization).toBe('Bearer upstream-secret');
    expect(seen.headers['x-extra']).toBe('yes');
    expect(seen.headers.traceparent).toBeUndefined();
    expect(JSON.stringify(seen.headers)).not.toContain(key.raw);

    const rows = await flushedRows(endpoint.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      callerAccountId: account.id,
      providerAccountId: account.id,
      keyId: key.id,
      status: 200,
      promptTokens: 11,
      completionTokens: 7,
    });
  });

  it('takes the route from the body model when no header names it, with x-api-key, and rewrites the model when configured', async () => {
    const { key, routeName } = await setup({ endpoint: { upstreamModel: 'gpt-4o-mini' } });
    const before = upstream.seen.length;
    const res = await fetch(`${base}/api/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.raw },
      body: JSON.stringify({ model: routeName, messages: MESSAGES }),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(upstream.seen[before]!.body.toString())).toEqual({
      model: 'gpt-4o-mini',
      messages: MESSAGES,
    });
    // The model is set in the caller's bytes: spacing, an escape and an integer past 2^53 (which
    // JSON.parse rounds) reach the upstream as sent, a streamed call's usage option beside them.
    const raw = ` {"seed" : 9007199254740993, "model":"${routeName}",\n"user":"caf\\u00e9", "messages":${JSON.stringify(MESSAGES)}}`;
    expect((await call(key.raw, raw)).status).toBe(200);
    expect(upstream.seen[before + 1]!.body.toString()).toBe(
      ` {"seed" : 9007199254740993, "model":"gpt-4o-mini",\n"user":"caf\\u00e9", "messages":${JSON.stringify(MESSAGES)}}`,
    );
    const streamed = await call(
      key.raw,
      raw.replace('"seed"', '"stream":true, "stream_options":{ "x":1 }, "seed"'),
    );
    expect(streamed.status).toBe(200);
    await streamed.text();
    expect(upstream.seen[before + 2]!.body.toString()).toBe(
      ` {"stream":true, "stream_options":{"include_usage":true, "x":1 }, "seed" : 9007199254740993, "model":"gpt-4o-mini",\n"user":"caf\\u00e9", "messages":${JSON.stringify(MESSAGES)}}`,
    );
  });

  it('passes a streamed answer through chunk by chunk before the upstream finishes', async () => {
    const { key, routeName } = await setup({ upstreamPath: '/held' });
    const res = await call(key.raw, { model: routeName, messages: MESSAGES, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const first = await reader.read();
    // The upstream is still holding its answer open: this chunk was not buffered.
    expect(new TextDecoder().decode(first.value)).toContain('"first"');
    upstream.release();
    let rest = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toContain('"second"');
    expect(rest).toContain('[DONE]');
  });

  it("asks a streamed call's upstream for usage: the caller's bytes follow the option unchanged, or their own options are kept", async () => {
    const { key, routeName } = await setup();
    // Odd spacing, key order, an escape and an integer past 2^53 (JSON.parse rounds it): a
    // re-serialised body would not match byte for byte.
    const raw = `\n { "messages":${JSON.stringify(MESSAGES)},  "model": "${routeName}", "stream": true, "user": "caf\\u00e9", "seed": 9007199254740993 }`;
    const before = upstream.seen.length;
    const res = await call(key.raw, raw);
    expect(res.status).toBe(200);
    await res.text();
    expect(upstream.seen[before]!.body.toString()).toBe(
      `\n {"stream_options":{"include_usage":true}, "messages":${JSON.stringify(MESSAGES)},  "model": "${routeName}", "stream": true, "user": "caf\\u00e9", "seed": 9007199254740993 }`,
    );

    const own = await call(key.raw, {
      model: routeName,
      messages: MESSAGES,
      stream: true,
      stream_options: { include_obfuscation: false },
    });
    expect(own.status).toBe(200);
    await own.text();
    expect(JSON.parse(upstream.seen[before + 1]!.body.toString()).stream_options).toEqual({
      include_obfuscation: false,
      include_usage: true,
    });
  });

  it('passes an upstream error status and body through', async () => {
    const { key, routeName, endpoint } = await setup({ upstreamPath: '/error' });
    const res = await call(key.raw, { model: routeName, messages: MESSAGES });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      error: { message: 'upstream says slow down', type: 'requests', code: 'mock_limit' },
    });
    const rows = await flushedRows(endpoint.id);
    expect(rows.map((row) => row.status)).toEqual([429]);
  });

  it('answers 502 upstream_unreachable when the upstream is down', async () => {
    const down = await startMockUpstream();
    const downUrl = down.url;
    await down.close();
    const account = await insertAccount(t.db, 'Down');
    const key = await insertKey(t.db, secret, account.id);
    await insertEndpoint(t.db, secret, account.id, {
      routeName: 'mock/down',
      routeEndpoint: `${downUrl}/ok`,
    });
    const res = await call(key.raw, { model: 'mock/down', messages: MESSAGES });
    expect(res.status).toBe(502);
    expect((await res.json()).error.code).toBe('upstream_unreachable');
  });

  it("answers 504 upstream_timeout past the endpoint's timeout", async () => {
    const { key, routeName } = await setup({ upstreamPath: '/slow', endpoint: { upstreamTimeoutMs: 200 } });
    const res = await call(key.raw, { model: routeName, messages: MESSAGES });
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({
      error: { message: expect.any(String), type: 'api_error', code: 'upstream_timeout' },
    });
  });

  it('aborts the upstream request when the client disconnects before the answer', async () => {
    // A stream under way is read on for its usage instead (gateway-stream-billing.test.ts).
    const { key, routeName } = await setup({ upstreamPath: '/slow' });
    const controller = new AbortController();
    const before = upstream.seen.length;
    const answer = call(key.raw, { model: routeName, messages: MESSAGES }, {}, { signal: controller.signal });
    await expect.poll(() => upstream.seen.length).toBeGreaterThan(before);
    const left = performance.now();
    controller.abort();
    await expect(answer).rejects.toThrow();
    // The upstream answers after 5 s: only the gateway's abort closes it early, and at once.
    expect(await upstream.seen[before]!.closedEarly).toBe(true);
    expect(performance.now() - left).toBeLessThan(2000);
  });
});

describe('gateway access', () => {
  it('refuses a missing or unknown key (401), a key without gateway.invoke (403) and a bad body (400)', async () => {
    const { account, routeName } = await setup();
    const noScope = await insertKey(t.db, secret, account.id, ['aiendpoint.read']);
    const none = await call(null, { model: routeName });
    expect(none.status).toBe(401);
    expect((await none.json()).error).toMatchObject({
      code: 'invalid_api_key',
      type: 'authentication_error',
    });
    expect((await call(`air_${'x'.repeat(40)}`, { model: routeName })).status).toBe(401);
    const forbidden = await call(noScope.raw, { model: routeName });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.code).toBe('insufficient_scope');
    const { key } = await setup();
    const bad = await call(key.raw, 'not json', { 'x-route-name': routeName });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_request');
    expect((await call(key.raw, { messages: MESSAGES })).status).toBe(400);
  });

  it('refuses a revoked key on the very next call once the change is published', async () => {
    const { key, routeName } = await setup();
    expect((await call(key.raw, { model: routeName, messages: MESSAGES })).status).toBe(200);
    await t.db.update(apiKeys).set({ active: false }).where(eq(apiKeys.id, key.id));
    await t.app.changes.publish({ kind: 'api_key', keyHash: key.hash });
    const res = await call(key.raw, { model: routeName, messages: MESSAGES });
    expect(res.status).toBe(401);
  });

  it("answers 404 for another account's private endpoint, an inactive one and an unknown one", async () => {
    const owner = await setup();
    const other = await setup();
    const res = await call(other.key.raw, { model: owner.routeName, messages: MESSAGES });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('route_not_found');
    const inactive = await setup({ endpoint: { isActive: false } });
    expect((await call(inactive.key.raw, { model: inactive.routeName })).status).toBe(404);
    expect((await call(other.key.raw, { model: 'nobody/nothing' })).status).toBe(404);
    // A shared endpoint that is still private stays hidden.
    const sharedPrivate = await setup({ endpoint: { isShared: true, isPrivate: true } });
    expect((await call(other.key.raw, { model: sharedPrivate.routeName })).status).toBe(404);
  });

  it('lets another account call a shared public endpoint and meters the call for both', async () => {
    const provider = await setup({ endpoint: { isShared: true, isPrivate: false } });
    const caller = await setup();
    const res = await call(caller.key.raw, { model: provider.routeName, messages: MESSAGES });
    expect(res.status).toBe(200);
    const rows = await flushedRows(provider.endpoint.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      callerAccountId: caller.account.id,
      providerAccountId: provider.account.id,
    });
  });

  it('sees an endpoint change at once (made private) through app.changes', async () => {
    const provider = await setup({ endpoint: { isShared: true, isPrivate: false } });
    const caller = await setup();
    expect((await call(caller.key.raw, { model: provider.routeName })).status).toBe(200);
    const { aiEndpoints } = await import('../src/db/schema');
    await t.db.update(aiEndpoints).set({ isPrivate: true }).where(eq(aiEndpoints.id, provider.endpoint.id));
    await t.app.changes.publish({ kind: 'endpoint', routeName: provider.routeName });
    expect((await call(caller.key.raw, { model: provider.routeName })).status).toBe(404);
  });

  it('answers 429 with Retry-After past the per-key rate limit', async () => {
    const { key, routeName } = await setup({ plan: 'ratelimited' });
    await startWellInsideAMinute();
    expect((await call(key.raw, { model: routeName })).status).toBe(200);
    expect((await call(key.raw, { model: routeName })).status).toBe(200);
    const res = await call(key.raw, { model: routeName });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await res.json()).error.code).toBe('rate_limit_exceeded');
  });

  it('counts calls to unknown routes against the rate limit, and meters none past it but the first rate refusal', async () => {
    const { key, routeName, account } = await setup({ plan: 'ratelimited' });
    await startWellInsideAMinute();
    // A burst of refused calls (a cached miss costs no look-up): only the limit's worth is metered.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(key.raw, { model: 'nobody/nothing' })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 404)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(18);
    // The window is spent for real calls too.
    expect((await call(key.raw, { model: routeName })).status).toBe(429);
    await gatewayStateOf(t.app).meter.flush();
    const rows = await t.db.select().from(usageEvents).where(eq(usageEvents.callerAccountId, account.id));
    // The limit's worth of unknown-route rows, and the first rate refusal of the minute (refusal log).
    expect(rows.map((row) => row.errorCode).sort()).toEqual([
      'rate_limit_exceeded',
      'route_not_found',
      'route_not_found',
    ]);
  });

  it("answers 402 past the caller plan's monthly quota, counting calls already stored", async () => {
    const { key, routeName, account } = await setup({ plan: 'tinyquota' });
    expect((await call(key.raw, { model: routeName })).status).toBe(200);
    expect((await call(key.raw, { model: routeName })).status).toBe(200);
    const res = await call(key.raw, { model: routeName });
    expect(res.status).toBe(402);
    expect((await res.json()).error.code).toBe('quota_exceeded');

    // A fresh server seeds the month's count from usage_events.
    await gatewayStateOf(t.app).meter.flush();
    const { MonthlyCalls } = await import('../src/gateway/limits');
    expect(await new MonthlyCalls(t.db).current(account.id)).toBe(2);
  });

  it('lists the routes a key may call in the OpenAI model list format', async () => {
    const mine = await setup();
    const shared = await setup({ endpoint: { isShared: true, isPrivate: false } });
    const hidden = await setup();
    const res = await fetch(`${base}/api/v1/models`, {
      headers: { authorization: `Bearer ${mine.key.raw}` },
    });
    expect(res.status).toBe(200);
    const list = (await res.json()) as {
      object: string;
      data: { id: string; object: string; owned_by: string }[];
    };
    expect(list.object).toBe('list');
    const ids = list.data.map((model) => model.id);
    expect(ids).toContain(mine.routeName);
    expect(ids).toContain(shared.routeName);
    expect(ids).not.toContain(hidden.routeName);
    expect(list.data.find((model) => model.id === shared.routeName)).toMatchObject({
      object: 'model',
      owned_by: shared.account.name,
    });
    expect((await fetch(`${base}/api/v1/models`)).status).toBe(401);

    // A closed account's shared endpoint leaves the list, as it leaves the marketplace.
    await t.db.update(accounts).set({ closedAt: new Date() }).where(eq(accounts.id, shared.account.id));
    const after = await fetch(`${base}/api/v1/models`, {
      headers: { authorization: `Bearer ${mine.key.raw}` },
    });
    const afterIds = ((await after.json()) as { data: { id: string }[] }).data.map((model) => model.id);
    expect(afterIds).toContain(mine.routeName);
    expect(afterIds).not.toContain(shared.routeName);
  });
});
