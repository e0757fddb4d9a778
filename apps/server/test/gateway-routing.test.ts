import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRoutingConfig } from '@air/shared/schemas/aiendpoint';
import { aiEndpoints, apiKeys, usageEvents } from '../src/db/schema';
import { circuitKeyOf } from '../src/gateway/circuit';
import { gatewayStateOf } from '../src/gateway/state';
import { createTestApp, type TTestApp } from './helpers';
import { insertAccount, insertEndpoint, insertKey, writeTestPlans } from './gateway-fixtures';
import { refusedUrl, startProgrammableUpstream, type TProgrammableUpstream } from './routing-fixtures';

/*
 * Contract 6a and 6b through the real gateway: weighted upstreams, retries before the first byte,
 * fallbacks the key may call, circuits, the answer cache, the x-air-* headers, metering with
 * attempts and cache hits, and key expiry, allow-lists and monthly caps.
 */

let t: TTestApp;
let base: string;
let plansDir: string;
let secret: string;
const upstreams: TProgrammableUpstream[] = [];

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-routing-plans-'));
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  secret = t.config.secret;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  for (const upstream of upstreams) await upstream.close();
  rmSync(plansDir, { recursive: true, force: true });
});

async function upstream(name: string) {
  const started = await startProgrammableUpstream(name);
  upstreams.push(started);
  return started;
}

let counter = 0;
async function account(name = 'Routing') {
  counter += 1;
  const row = await insertAccount(t.db, `${name} ${counter}`, 'free');
  const key = await insertKey(t.db, secret, row.id);
  return { account: row, key };
}

/** An endpoint of `accountId` with these upstreams (URL, weight) and routing settings. */
async function routed(
  accountId: string,
  list: [string, number][],
  routing: Omit<TRoutingConfig, 'upstreams'> = {},
  extra: { isShared?: boolean; isPrivate?: boolean; upstreamTimeoutMs?: number } = {},
) {
  counter += 1;
  const routeName = `routed/r-${counter}`;
  const endpoint = await insertEndpoint(t.db, secret, accountId, {
    routeName,
    routeEndpoint: list[0]![0],
    ...extra,
  });
  await t.db
    .update(aiEndpoints)
    .set({ routing: { upstreams: list.map(([url, weight]) => ({ url, weight })), ...routing } })
    .where(eq(aiEndpoints.id, endpoint.id));
  return { routeName, endpoint };
}

function call(rawKey: string, routeName: string, body: Record<string, unknown> = {}) {
  return fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${rawKey}` },
    body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'Hi' }], ...body }),
  });
}

async function rowsOf(endpointId: string) {
  await gatewayStateOf(t.app).meter.flush();
  return t.db.select().from(usageEvents).where(eq(usageEvents.endpointId, endpointId));
}

describe('weighted upstreams', () => {
  it('spreads 400 calls in proportion to weight (3:1) within a statistical band', async () => {
    const a = await upstream('a');
    const b = await upstream('b');
    const { account: owner, key } = await account();
    const { routeName } = await routed(owner.id, [
      [a.url, 3],
      [b.url, 1],
    ]);
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(key.raw, routeName)));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-air-route')).toBe(routeName);
        expect(answer.headers.get('x-air-attempts')).toBe('1');
        expect(answer.headers.get('x-air-cache')).toBeNull();
        await answer.arrayBuffer();
      }
    }
    expect(a.calls.length + b.calls.length).toBe(400);
    // Expected 300 (sd ~8.7): 260-340 is more than four standard deviations each way.
    expect(a.calls.length).toBeGreaterThan(260);
    expect(a.calls.length).toBeLessThan(340);
  });

  it('answers a plain endpoint with x-air-route and one attempt', async () => {
    const a = await upstream('plain');
    const { account: owner, key } = await account();
    counter += 1;
    const routeName = `plain/r-${counter}`;
    await insertEndpoint(t.db, secret, owner.id, { routeName, routeEndpoint: a.url });
    const answer = await call(key.raw, routeName);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-air-route')).toBe(routeName);
    expect(answer.headers.get('x-air-attempts')).toBe('1');
  });
});

describe('retries before the first byte', () => {
  it('moves a failed call (503, 500, reset) to the healthy upstream and meters one row with its attempts', async () => {
    const sick = await upstream('sick');
    const healthy = await upstream('healthy');
    const { account: owner, key } = await account();
    const { routeName, endpoint } = await routed(
      owner.id,
      [
        [sick.url, 100],
        [healthy.url, 1],
      ],
      { retry: { attempts: 2, backoff_ms: 0 }, circuit: { failures: 100, cooldown_s: 30 } },
    );
    const failures = [
      { kind: 'status', status: 503 },
      { kind: 'status', status: 500 },
      { kind: 'reset' },
    ] as const;
    let attempts = 0;
    for (const failure of failures) {
      sick.behave(failure);
      for (let i = 0; i < 5; i++) {
        const answer = await call(key.raw, routeName);
        expect(answer.status).toBe(200);
        expect((await answer.json()).id).toBe('chatcmpl-healthy');
        attempts += Number(answer.headers.get('x-air-attempts'));
      }
    }
    expect(healthy.calls).toHaveLength(15);
    expect(sick.calls.length).toBe(attempts - 15);
    const rows = await rowsOf(endpoint.id);
    expect(rows).toHaveLength(15);
    expect(rows.every((row) => row.status === 200)).toBe(true);
    expect(rows.reduce((sum, row) => sum + row.attempts, 0)).toBe(attempts);
  });

  it('retries a hung upstream after its timeout', async () => {
    const hung = await upstream('hung');
    const healthy = await upstream('healthy-2');
    hung.behave({ kind: 'hang' });
    const { account: owner, key } = await account();
    const { routeName } = await routed(
      owner.id,
      [
        [hung.url, 100],
        [healthy.url, 1],
      ],
      { retry: { attempts: 1, backoff_ms: 0 } },
      { upstreamTimeoutMs: 1000 },
    );
    // Until the weighted pick lands on the hung upstream once.
    for (let i = 0; i < 5 && hung.calls.length === 0; i++) {
      const answer = await call(key.raw, routeName);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    expect(hung.calls.length).toBeGreaterThan(0);
  });

  it("honours a 429's Retry-After before trying the same upstream again", async () => {
    const only = await upstream('limited');
    const { account: owner, key } = await account();
    const { routeName } = await routed(owner.id, [[only.url, 1]], { retry: { attempts: 1, backoff_ms: 0 } });
    only.queue({ kind: 'status', status: 429, retryAfter: '1' });
    const answer = await call(key.raw, routeName);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-air-attempts')).toBe('2');
    expect(only.calls).toHaveLength(2);
    expect(only.calls[1]!.at - only.calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('passes a 400 through at once with one upstream call', async () => {
    const picky = await upstream('picky');
    const other = await upstream('other');
    picky.behave({ kind: 'status', status: 400 });
    const { account: owner, key } = await account();
    const { routeName } = await routed(
      owner.id,
      [
        [picky.url, 100],
        [other.url, 1],
      ],
      { retry: { attempts: 3, backoff_ms: 0 } },
    );
    let passed = 0;
    for (let i = 0; i < 5; i++) {
      const answer = await call(key.raw, routeName);
      if (answer.status === 400) {
        passed++;
        expect(answer.headers.get('x-air-attempts')).toBe('1');
        expect((await answer.json()).error.code).toBe('mock_400');
      } else await answer.arrayBuffer();
    }
    expect(passed).toBeGreaterThan(0);
    expect(picky.calls).toHaveLength(passed);
    expect(other.calls).toHaveLength(5 - passed);
  });

  it('answers the last failure when the retries are used up', async () => {
    const down = await upstream('down');
    down.behave({ kind: 'status', status: 503 });
    const { account: owner, key } = await account();
    const { routeName, endpoint } = await routed(owner.id, [[down.url, 1]], {
      retry: { attempts: 2, backoff_ms: 10 },
      circuit: { failures: 100, cooldown_s: 30 },
    });
    const answer = await call(key.raw, routeName);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-air-attempts')).toBe('3');
    expect((await answer.json()).error.code).toBe('mock_503');
    expect(down.calls).toHaveLength(3);
    const [row] = await rowsOf(endpoint.id);
    expect(row).toMatchObject({ status: 503, attempts: 3, cacheHit: false });
  });

  it('never retries a stream cut after its first byte: the caller sees the cut once', async () => {
    const cutting = await upstream('cutting');
    const spare = await upstream('spare');
    cutting.behave({ kind: 'cut-stream' });
    const { account: owner, key } = await account();
    const { routeName } = await routed(owner.id, [[cutting.url, 1]], {
      retry: { attempts: 2, backoff_ms: 0 },
    });
    await routed(owner.id, [[spare.url, 1]]);
    const answer = await call(key.raw, routeName, { stream: true });
    expect(answer.status).toBe(200);
    await expect(answer.text()).rejects.toThrow();
    expect(cutting.calls).toHaveLength(1);
    expect(spare.calls).toHaveLength(0);
  });
});

describe('fallbacks', () => {
  it('falls back in order, only to routes the key may call, with the body naming the fallback', async () => {
    const primary = await upstream('primary');
    const forbidden = await upstream('forbidden');
    const theirs = await upstream('theirs');
    const allowed = await upstream('allowed');
    primary.behave({ kind: 'status', status: 502 });
    const { account: owner, key } = await account();
    const stranger = await account('Stranger');
    const notInList = await routed(owner.id, [[forbidden.url, 1]]);
    const privateOfOther = await routed(stranger.account.id, [[theirs.url, 1]]);
    const target = await routed(owner.id, [[allowed.url, 1]]);
    const main = await routed(owner.id, [[primary.url, 1]], {
      retry: { attempts: 1, backoff_ms: 0 },
      fallbacks: [notInList.routeName, privateOfOther.routeName, target.routeName],
    });
    await t.db
      .update(apiKeys)
      .set({ routes: [main.routeName, target.routeName] })
      .where(eq(apiKeys.id, key.id));
    t.app.forgetApiKey(key.hash);

    const answer = await call(key.raw, main.routeName);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-air-route')).toBe(target.routeName);
    expect(answer.headers.get('x-air-attempts')).toBe('3');
    expect((await answer.json()).id).toBe('chatcmpl-allowed');
    expect(primary.calls).toHaveLength(2);
    expect(forbidden.calls).toHaveLength(0);
    expect(theirs.calls).toHaveLength(0);
    expect(JSON.parse(allowed.calls[0]!.body).model).toBe(target.routeName);
    // One row, on the route that answered.
    expect(await rowsOf(main.endpoint.id)).toHaveLength(0);
    const [row] = await rowsOf(target.endpoint.id);
    expect(row).toMatchObject({ status: 200, attempts: 3, keyId: key.id });
    // The row names the route the caller asked for (decision 058) and the formats it went between.
    expect(row).toMatchObject({
      requestedEndpointId: main.endpoint.id,
      clientFormat: 'openai',
      upstreamFormat: 'openai',
    });
  });

  it('falls back before the first byte of a streamed call', async () => {
    const primary = await upstream('stream-primary');
    const backup = await upstream('stream-backup');
    primary.behave({ kind: 'status', status: 503 });
    const { account: owner, key } = await account();
    const target = await routed(owner.id, [[backup.url, 1]]);
    const main = await routed(owner.id, [[primary.url, 1]], { fallbacks: [target.routeName] });
    const answer = await call(key.raw, main.routeName, { stream: true });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/event-stream');
    expect(answer.headers.get('x-air-route')).toBe(target.routeName);
    expect(await answer.text()).toContain('from stream-backup');
    // The fallback's model is set in the caller's bytes (an integer past 2^53, spacing, an escape).
    const raw = `{ "model" : "${main.routeName}", "stream":true, "seed":9007199254740993, "user":"caf\\u00e9" }`;
    const again = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.raw}` },
      body: raw,
    });
    expect(again.status).toBe(200);
    await again.text();
    expect(backup.calls[1]!.body).toBe(
      `{"stream_options":{"include_usage":true}, "model" : "${target.routeName}", "stream":true, "seed":9007199254740993, "user":"caf\\u00e9" }`,
    );
  });
});

describe('circuit breaking', () => {
  it('limits a failing upstream to `failures` calls, then one probe per cooldown; a good probe closes it', async () => {
    const dead = await upstream('dead');
    const alive = await upstream('alive');
    dead.behave({ kind: 'status', status: 503 });
    const { account: owner, key } = await account();
    const { routeName, endpoint } = await routed(
      owner.id,
      [
        [dead.url, 50],
        [alive.url, 50],
      ],
      { retry: { attempts: 1, backoff_ms: 0 }, circuit: { failures: 3, cooldown_s: 4 } },
    );
    for (let i = 0; i < 30; i++) {
      const answer = await call(key.raw, routeName);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    expect(dead.calls).toHaveLength(3);
    const circuits = gatewayStateOf(t.app).circuits;
    const deadCircuit = circuitKeyOf(endpoint.id, dead.url);
    expect(circuits.state(circuits.peek(deadCircuit)!)).toBe('open');
    const metrics = await t.app.inject({ url: '/metrics' });
    const labels = `{route="${routeName}",upstream="${new URL(dead.url).host}"}`;
    expect(metrics.body).toContain(`air_gateway_upstream_circuit_state${labels} 1`);
    expect(metrics.body).toContain(`air_gateway_upstream_failures_total${labels} 3`);
    // The owner's live view: each upstream's state and last hour.
    const reader = await insertKey(t.db, secret, owner.id, ['aiendpoint.read']);
    const health = await t.app.inject({
      url: `/api/aiendpoint/${endpoint.id}/upstreams`,
      headers: { authorization: `Bearer ${reader.raw}` },
    });
    expect(health.statusCode, health.body).toBe(200);
    const { routed: isRouted, upstreams: list } = health.json().data;
    expect(isRouted).toBe(true);
    expect(list).toEqual([
      {
        url: dead.url,
        weight: 50,
        state: 'open',
        last_failure_at: expect.any(String),
        attempts_1h: 3,
        failures_1h: 3,
        // The owner's own calls failed: open for everyone.
        open_reason: 'owner',
        opened_by_callers: 0,
        open_for_callers: 0,
      },
      {
        url: alive.url,
        weight: 50,
        state: 'closed',
        last_failure_at: null,
        attempts_1h: 30,
        failures_1h: 0,
        open_reason: null,
        opened_by_callers: 0,
        open_for_callers: 0,
      },
    ]);
    // Another account's key learns nothing of it.
    const stranger = await account('Stranger');
    const strangerReader = await insertKey(t.db, secret, stranger.account.id, ['aiendpoint.read']);
    const hidden = await t.app.inject({
      url: `/api/aiendpoint/${endpoint.id}/upstreams`,
      headers: { authorization: `Bearer ${strangerReader.raw}` },
    });
    expect(hidden.statusCode).toBe(404);

    // After the cooldown one call probes it (and fails over): another cooldown.
    await new Promise((resolve) => setTimeout(resolve, 4100));
    for (let i = 0; i < 10; i++) await (await call(key.raw, routeName)).arrayBuffer();
    expect(dead.calls).toHaveLength(4);

    // It recovers: the next probe succeeds and the circuit closes.
    dead.behave({ kind: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 4100));
    for (let i = 0; i < 40; i++) await (await call(key.raw, routeName)).arrayBuffer();
    expect(circuits.state(circuits.peek(deadCircuit)!)).toBe('closed');
    expect(dead.calls.length).toBeGreaterThan(6);
  });

  it('answers 503 upstreams_unavailable with Retry-After when every circuit is open', async () => {
    const gone = await refusedUrl();
    const { account: owner, key } = await account();
    const { routeName } = await routed(owner.id, [[gone, 1]], { circuit: { failures: 1, cooldown_s: 60 } });
    const first = await call(key.raw, routeName);
    expect(first.status).toBe(502);
    expect((await first.json()).error.code).toBe('upstream_unreachable');
    const second = await call(key.raw, routeName);
    expect(second.status).toBe(503);
    expect(second.headers.get('x-air-attempts')).toBe('0');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(50);
    expect((await second.json()).error.code).toBe('upstreams_unavailable');
  });
});

describe('the answer cache', () => {
  it('answers the same call again from the cache, per account, and meters the hit', async () => {
    const origin = await upstream('cached');
    const { account: owner, key } = await account();
    const other = await account('Other');
    const { routeName, endpoint } = await routed(
      owner.id,
      [[origin.url, 1]],
      { cache_ttl_s: 60 },
      {
        isShared: true,
        isPrivate: false,
      },
    );
    const body = { temperature: 0.2, top_p: 1 };
    const first = await call(key.raw, routeName, body);
    expect(first.headers.get('x-air-cache')).toBe('miss');
    expect(first.headers.get('x-air-attempts')).toBe('1');
    const firstBody = await first.text();
    // The same body with its keys in another order is the same call.
    const second = await call(key.raw, routeName, { top_p: 1, temperature: 0.2 });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-air-cache')).toBe('hit');
    expect(second.headers.get('x-air-attempts')).toBe('0');
    expect(await second.text()).toBe(firstBody);
    expect(origin.calls).toHaveLength(1);
    // Another account's identical call is its own.
    const theirs = await call(other.key.raw, routeName, body);
    expect(theirs.headers.get('x-air-cache')).toBe('miss');
    await theirs.arrayBuffer();
    expect(origin.calls).toHaveLength(2);
    // A streamed call is never cached.
    for (let i = 0; i < 2; i++) await (await call(key.raw, routeName, { ...body, stream: true })).text();
    expect(origin.calls).toHaveLength(4);
    const rows = await rowsOf(endpoint.id);
    expect(rows.filter((row) => row.cacheHit)).toEqual([
      expect.objectContaining({ attempts: 0, status: 200, callerAccountId: owner.id }),
    ]);
  });
});

describe('key controls at the gateway', () => {
  it('refuses an expired key as invalid_api_key saying it expired', async () => {
    const a = await upstream('exp');
    const { account: owner, key } = await account();
    const { routeName } = await routed(owner.id, [[a.url, 1]]);
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, key.id));
    t.app.forgetApiKey(key.hash);
    const answer = await call(key.raw, routeName);
    expect(answer.status).toBe(401);
    const { error } = await answer.json();
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toMatch(/expired/);
    expect(a.calls).toHaveLength(0);
  });

  it('lets a restricted key call only its routes; the model list shows only those', async () => {
    const a = await upstream('allow-a');
    const { account: owner, key } = await account();
    const allowed = await routed(owner.id, [[a.url, 1]]);
    const other = await routed(owner.id, [[a.url, 1]]);
    await t.db
      .update(apiKeys)
      .set({ routes: [allowed.routeName] })
      .where(eq(apiKeys.id, key.id));
    t.app.forgetApiKey(key.hash);
    expect((await call(key.raw, allowed.routeName)).status).toBe(200);
    const refused = await call(key.raw, other.routeName);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe('route_not_found');
    const models = await fetch(`${base}/api/v1/models`, { headers: { authorization: `Bearer ${key.raw}` } });
    expect((await models.json()).data.map((model: { id: string }) => model.id)).toEqual([allowed.routeName]);
  });

  it('holds a monthly cap exactly under a burst of 200 concurrent calls', async () => {
    const a = await upstream('capped');
    const { account: owner, key } = await account();
    const { routeName } = await routed(owner.id, [[a.url, 1]]);
    await t.db.update(apiKeys).set({ monthlyCalls: 25 }).where(eq(apiKeys.id, key.id));
    t.app.forgetApiKey(key.hash);
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(key.raw, routeName)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(25);
    expect(statuses.filter((status) => status === 429)).toHaveLength(175);
    const refused = answers.find((answer) => answer.status === 429)!;
    const { error } = await refused.json();
    expect(error.code).toBe('key_quota_exceeded');
    expect(error.message).toContain('25');
    expect(a.calls).toHaveLength(25);
    // Another key of the same account is not capped by it.
    const second = await insertKey(t.db, secret, owner.id);
    expect((await call(second.raw, routeName)).status).toBe(200);
  });
});
