import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, isNotNull, sum } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type TDatabase } from '../src/db/client';
import { aiEndpoints, apiKeys, cards, spendLimits, usageEvents } from '../src/db/schema';
import { ADMIT_SCRIPT } from '../src/gateway/admit-scripts';
import { periodOf } from '../src/gateway/limits';
import { withDatabaseName } from './global-setup';
import {
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  startWellInsideAMinute,
  type TMockUpstream,
} from './gateway-fixtures';
import { startProgrammableUpstream } from './routing-fixtures';
import { call, freePort, startInstance, startRedis, stopRedis, tally, type TInstance } from './instances';

const onPostgres = process.env.AIR_TEST_DB === 'postgres';

/**
 * Plans for these tests: a 30-call quota, a 10-a-minute rate limit, a quota just above the room
 * leases need (admit-leases.ts), and room for everything else.
 */
function writePlans(dir: string): string {
  const file = path.join(dir, 'plans.json');
  const base = { currency: 'usd', currency_symbol: '$', interval: 'month', type: 'flat', price: 0 };
  const plan = (id: string, sort: number, quota: number, rate: number) => ({
    ...base,
    id,
    name: id,
    sort,
    quota_calls_month: quota,
    rate_limit_per_minute: rate,
  });
  writeFileSync(
    file,
    JSON.stringify({
      plans: [
        plan('free', 0, 100_000, 100_000),
        plan('quota30', 1, 30, 100_000),
        plan('rate10', 2, 100_000, 10),
        plan('quota1100', 3, 1100, 100_000),
      ],
    }),
  );
  return file;
}

// Two instances need a shared database: this suite runs in the PostgreSQL pass of the test run
// (the embedded database is one per instance by design).
describe.runIf(onPostgres)('two gateway instances on one PostgreSQL and Redis', () => {
  let admin: pg.Client;
  let dbName = '';
  let database: TDatabase;
  let upstream: TMockUpstream;
  let redisPort = 0;
  let redis: Redis;
  let a: TInstance;
  let b: TInstance;
  let dir = '';
  let secret = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    const info = inject('airTestDb');
    if (info.kind !== 'postgres') throw new Error('needs AIR_TEST_DB=postgres');
    dir = mkdtempSync(path.join(os.tmpdir(), 'air-instances-'));
    dbName = `air_inst_${process.pid}_${randomBytes(4).toString('hex')}`;
    admin = new pg.Client({ connectionString: info.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}" TEMPLATE "${info.template}"`);
    const databaseUrl = withDatabaseName(info.url, dbName);
    database = await openDatabase({ databaseUrl, dataDir: dir });
    upstream = await startMockUpstream();
    redisPort = await freePort();
    startRedis(redisPort);
    redis = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    await redis.connect();
    secret = 'test-secret-that-is-at-least-32-characters-long';
    env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      PLANS_FILE: writePlans(dir),
      SECRET: secret,
    };
    [a, b] = await Promise.all([
      startInstance({ ...env, DATA_DIR: path.join(dir, 'a') }),
      startInstance({ ...env, DATA_DIR: path.join(dir, 'b') }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    redis?.disconnect();
    if (redisPort) stopRedis(redisPort);
    await upstream?.close();
    await database?.close();
    if (dbName) await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin?.end();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** An account on `plan` with a gateway key and its own endpoint on the mock upstream. */
  async function caller(plan: string) {
    const account = await insertAccount(database.db, `Caller ${plan}`, plan);
    const key = await insertKey(database.db, secret, account.id);
    const routeName = `inst/${randomBytes(4).toString('hex')}`;
    const endpoint = await insertEndpoint(database.db, secret, account.id, {
      routeName,
      routeEndpoint: `${upstream.url}/ok`,
    });
    return { account, key, routeName, endpoint };
  }

  async function storedRows(accountId: string, routedOnly = false): Promise<number> {
    const caller = eq(usageEvents.callerAccountId, accountId);
    const [row] = await database.db
      .select({ n: count() })
      .from(usageEvents)
      .where(routedOnly ? and(caller, isNotNull(usageEvents.endpointId)) : caller);
    return Number(row!.n);
  }

  async function health(instance: TInstance): Promise<{ status: string; redis?: string }> {
    return (await (await fetch(`${instance.url}/healthz`)).json()) as { status: string; redis?: string };
  }

  it('stops a 300-call burst on a cold instance exactly at the quota', async () => {
    const { account, key, routeName, endpoint } = await caller('quota30');
    // 29 of 30 calls already stored this month; instance b has never seen this account.
    await database.db.insert(usageEvents).values(
      Array.from({ length: 29 }, () => ({
        callerAccountId: account.id,
        keyId: key.id,
        endpointId: endpoint.id,
        providerAccountId: account.id,
        status: 200,
        latencyMs: 1,
      })),
    );
    const statuses = await Promise.all(Array.from({ length: 300 }, () => call(b.url, key.raw, routeName)));
    expect(tally(statuses)).toEqual({ 200: 1, 402: 299 });
    await expect.poll(() => storedRows(account.id, true), { timeout: 10_000 }).toBe(30);
  });

  it('stops calls alternating between the instances exactly at the quota', async () => {
    const { account, key, routeName } = await caller('quota30');
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call((i % 2 ? a : b).url, key.raw, routeName)),
    );
    expect(tally(statuses)).toEqual({ 200: 30, 402: 30 });
    await expect.poll(() => storedRows(account.id, true), { timeout: 10_000 }).toBe(30);
  });

  it('holds the per-key rate limit exactly across both instances', async () => {
    const { key, routeName } = await caller('rate10');
    await startWellInsideAMinute();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call((i % 2 ? a : b).url, key.raw, routeName)),
    );
    expect(tally(statuses)).toEqual({ 200: 10, 429: 30 });
  });

  /** Runs `count` calls, `concurrency` at a time, alternating between the instances. */
  async function burst(count: number, concurrency: number, key: string, routeName: string) {
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        statuses.push(await call((i % 2 ? a : b).url, key, routeName));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return statuses;
  }

  /**
   * How many times Redis runs the admit script (one per round trip) while `run` runs, seen with
   * MONITOR: the instances' other scripts (heartbeats, give-backs) run on timers, so a count of
   * every script would grow with how slow the machine is.
   */
  async function admitRuns(run: () => Promise<void>): Promise<number> {
    const sha = createHash('sha1').update(ADMIT_SCRIPT).digest('hex');
    const monitor = await redis.monitor();
    let runs = 0;
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'evalsha' && args[1] === sha) runs++;
    });
    try {
      await run();
    } finally {
      monitor.disconnect();
    }
    return runs;
  }

  it('leases blocks of calls to a busy key, and gives back what it does not use', async () => {
    const { account, key, routeName } = await caller('free');
    let statuses: number[] = [];
    const runs = await admitRuns(async () => {
      statuses = await burst(640, 8, key.raw, routeName);
    });
    expect(tally(statuses)).toEqual({ 200: 640 });
    // One round trip per block of 64 on each instance instead of one per call (640). A block
    // lives LEASE_MS (100 ms), so where the machine is slow fewer calls share one: 10 round
    // trips at the least (640 / 64), 228 seen at load 11; never one a call.
    expect(runs).toBeGreaterThan(0);
    expect(runs).toBeLessThan(640 / 2);
    // The blocks' unused calls go back within LEASE_MS: the shared counter then holds the calls made.
    const counter = `air:q:${account.id}:${periodOf(Date.now())}`;
    await expect.poll(() => storedRows(account.id), { timeout: 10_000 }).toBe(640);
    await expect.poll(async () => Number(await redis.get(counter)), { timeout: 5_000 }).toBe(640);
  });

  it('never passes a quota with blocks leased, and admits up to it exactly once they are given back', async () => {
    const { account, key, routeName } = await caller('quota1100');
    // Blocks are leased while the month has 1,024 calls of room, then every call is counted alone.
    const statuses = await burst(1300, 32, key.raw, routeName);
    const served = tally(statuses)[200] ?? 0;
    expect(served).toBeLessThanOrEqual(1100);
    expect(served + (tally(statuses)[402] ?? 0)).toBe(1300);
    // Calls refused while the other instance still held unused calls are admitted once those go back.
    let more = 0;
    await expect
      .poll(
        async () => {
          const answers = await Promise.all([
            call(a.url, key.raw, routeName),
            call(b.url, key.raw, routeName),
          ]);
          more += answers.filter((status) => status === 200).length;
          return served + more;
        },
        { timeout: 5_000, interval: 50 },
      )
      .toBe(1100);
    expect(await Promise.all([call(a.url, key.raw, routeName), call(b.url, key.raw, routeName)])).toEqual([
      402, 402,
    ]);
    await expect.poll(() => storedRows(account.id, true), { timeout: 10_000 }).toBe(1100);
  }, 60_000);

  it('applies a changed route and a revoked key on both instances at once', async () => {
    const { account, key, routeName, endpoint } = await caller('free');
    const manager = await insertKey(database.db, secret, account.id, ['aiendpoint.write', 'aiendpoint.read']);
    expect([await call(a.url, key.raw, routeName), await call(b.url, key.raw, routeName)]).toEqual([
      200, 200,
    ]);

    // Through the API of instance a: b must stop routing to it too.
    const patched = await fetch(`${a.url}/api/aiendpoint/${endpoint.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${manager.raw}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isActive: false }),
    });
    expect(patched.status).toBe(200);
    await expect.poll(() => call(b.url, key.raw, routeName), { timeout: 2_000 }).toBe(404);
    expect(await call(a.url, key.raw, routeName)).toBe(404);

    // A revoked key, as the key service revokes it (the row, then the change on the bus).
    const other = await caller('free');
    expect([
      await call(a.url, other.key.raw, other.routeName),
      await call(b.url, other.key.raw, other.routeName),
    ]).toEqual([200, 200]);
    await database.db.update(apiKeys).set({ active: false }).where(eq(apiKeys.id, other.key.id));
    await redis.publish('air:changes', JSON.stringify({ kind: 'api_key', keyHash: other.key.hash }));
    await expect.poll(() => call(a.url, other.key.raw, other.routeName), { timeout: 2_000 }).toBe(401);
    expect(await call(b.url, other.key.raw, other.routeName)).toBe(401);
  });

  /** This instance's view of a route's upstream circuit (0 closed, 1 open, 2 probing), from /metrics. */
  async function circuitState(instance: TInstance, routeName: string, url: string): Promise<number | null> {
    const text = await (await fetch(`${instance.url}/metrics`)).text();
    const labels = `{route="${routeName}",upstream="${new URL(url).host}"}`;
    const line = text.split('\n').find((l) => l.startsWith(`air_gateway_upstream_circuit_state${labels}`));
    return line ? Number(line.split(' ').pop()) : null;
  }

  /** Routes `endpoint` to these upstreams with this circuit (and timeout), on both instances. */
  async function routeTo(
    endpoint: { id: string; routeName: string },
    urls: string[],
    circuit: { failures: number; cooldown_s: number },
    extra: { upstreamTimeoutMs?: number; isShared?: boolean } = {},
  ) {
    await database.db
      .update(aiEndpoints)
      .set({
        routeEndpoint: urls[0]!,
        routing: { upstreams: urls.map((url) => ({ url, weight: 1 })), circuit },
        ...(extra.upstreamTimeoutMs ? { upstreamTimeoutMs: extra.upstreamTimeoutMs } : {}),
        ...(extra.isShared ? { isShared: true, isPrivate: false } : {}),
      })
      .where(eq(aiEndpoints.id, endpoint.id));
    await redis.publish('air:changes', JSON.stringify({ kind: 'endpoint', routeName: endpoint.routeName }));
  }

  /** A call whose message is `content` (a body the upstream may fail on): its status. */
  async function callWith(instance: TInstance, key: string, routeName: string, content: string) {
    const answer = await fetch(`${instance.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content }] }),
    });
    await answer.arrayBuffer();
    return answer.status;
  }

  it("keeps an endpoint serving on both instances when another account's tight circuit on its upstream URL opens", async () => {
    const shared = await startProgrammableUpstream('shared');
    try {
      const victim = await caller('free');
      const attacker = await caller('free');
      await routeTo({ id: victim.endpoint.id, routeName: victim.routeName }, [shared.url], {
        failures: 5,
        cooldown_s: 30,
      });
      await routeTo(
        { id: attacker.endpoint.id, routeName: attacker.routeName },
        [shared.url],
        { failures: 1, cooldown_s: 3600 },
        { upstreamTimeoutMs: 300 },
      );
      for (const instance of [a, b])
        await expect.poll(() => call(instance.url, attacker.key.raw, attacker.routeName)).toBe(200);
      shared.queue({ kind: 'hang' });
      expect(await call(a.url, attacker.key.raw, attacker.routeName)).toBe(504);
      // The attacker's own endpoint is open on both instances (Redis carried it; a loaded
      // machine may take a few seconds to deliver it)...
      await expect
        .poll(() => call(b.url, attacker.key.raw, attacker.routeName), { timeout: 10_000 })
        .toBe(503);
      // ...and the victim's, on the same URL, on neither.
      for (let i = 0; i < 6; i++)
        expect(await call((i % 2 ? a : b).url, victim.key.raw, victim.routeName)).toBe(200);
    } finally {
      await shared.close();
    }
  });

  it("opens a shared endpoint's circuit for the one caller whose bodies fail it, on both instances", async () => {
    const up = await startProgrammableUpstream('body-sensitive');
    try {
      up.behave({ kind: 'status-if', contains: 'poison', status: 500 });
      const owner = await caller('free');
      const mallory = await caller('free');
      const other = await caller('free');
      await routeTo(owner.endpoint, [up.url], { failures: 4, cooldown_s: 60 }, { isShared: true });
      for (const instance of [a, b])
        await expect.poll(() => call(instance.url, other.key.raw, owner.routeName)).toBe(200);
      // Failures alternate between the instances: counted together, for this caller only.
      for (let i = 0; i < 4; i++)
        expect(await callWith(i % 2 ? a : b, mallory.key.raw, owner.routeName, 'poison')).toBe(500);
      // The opening reaches the other instance through Redis (a poll would send more poison meanwhile).
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const instance of [a, b]) {
        expect(await callWith(instance, mallory.key.raw, owner.routeName, 'poison')).toBe(503);
        expect(await call(instance.url, other.key.raw, owner.routeName)).toBe(200);
        expect(await call(instance.url, owner.key.raw, owner.routeName)).toBe(200);
      }
      expect(up.calls.filter((c) => c.body.includes('poison'))).toHaveLength(4);
    } finally {
      await up.close();
    }
  });

  it('opens and closes a circuit on both instances together: `failures` calls, then one probe per cooldown', async () => {
    const dead = await startProgrammableUpstream('dead');
    const alive = await startProgrammableUpstream('alive');
    try {
      dead.behave({ kind: 'status', status: 503 });
      const { key, routeName, endpoint } = await caller('free');
      await database.db
        .update(aiEndpoints)
        .set({
          routeEndpoint: dead.url,
          routing: {
            upstreams: [
              { url: dead.url, weight: 50 },
              { url: alive.url, weight: 50 },
            ],
            retry: { attempts: 1, backoff_ms: 0 },
            circuit: { failures: 3, cooldown_s: 5 },
          },
        })
        .where(eq(aiEndpoints.id, endpoint.id));
      await redis.publish('air:changes', JSON.stringify({ kind: 'endpoint', routeName }));
      await expect.poll(() => call(b.url, key.raw, routeName), { timeout: 2_000 }).toBe(200);
      // Calls alternate between the instances; the failures are counted together.
      for (let i = 0; i < 40; i++) {
        const before = dead.calls.length;
        expect(await call((i % 2 ? a : b).url, key.raw, routeName)).toBe(200);
        if (before < 3 && dead.calls.length === 3) {
          for (const instance of [a, b])
            await expect.poll(() => circuitState(instance, routeName, dead.url), { timeout: 2_000 }).toBe(1);
        }
      }
      expect(dead.calls).toHaveLength(3);
      // One probe of both instances per cooldown: it fails, the circuit stays open everywhere.
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      for (let i = 0; i < 20; i++) expect(await call((i % 2 ? a : b).url, key.raw, routeName)).toBe(200);
      expect(dead.calls).toHaveLength(4);
      // It recovers: the next probe succeeds and both instances take it back.
      dead.behave({ kind: 'ok' });
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      for (let i = 0; i < 4; i++) expect(await call((i % 2 ? a : b).url, key.raw, routeName)).toBe(200);
      for (const instance of [a, b])
        await expect.poll(() => circuitState(instance, routeName, dead.url), { timeout: 2_000 }).toBe(0);
      const calls = dead.calls.length;
      for (let i = 0; i < 40; i++) expect(await call((i % 2 ? a : b).url, key.raw, routeName)).toBe(200);
      expect(dead.calls.length).toBeGreaterThan(calls);
    } finally {
      await dead.close();
      await alive.close();
    }
  });

  it("holds a key's monthly cap exactly across both instances under a burst", async () => {
    const { key, routeName } = await caller('free');
    await database.db.update(apiKeys).set({ monthlyCalls: 20 }).where(eq(apiKeys.id, key.id));
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call((i % 2 ? a : b).url, key.raw, routeName)),
    );
    expect(tally(statuses)).toEqual({ 200: 20, 429: 180 });
  });

  it("holds a caller's marketplace spend limit exactly across both instances under a burst", async () => {
    const provider = await caller('free');
    await database.db
      .update(aiEndpoints)
      .set({
        isShared: true,
        isPrivate: false,
        pricePerCall: 70_000,
        pricePer1mInput: 0,
        pricePer1mOutput: 0,
      })
      .where(eq(aiEndpoints.id, provider.endpoint.id));
    const { account, key } = await caller('free');
    await database.db
      .insert(cards)
      .values({ accountId: account.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
    // 3 calls' worth already spent this month; the limit leaves room for 10 more (21 + 70 = 91).
    await database.db.insert(usageEvents).values(
      Array.from({ length: 3 }, () => ({
        callerAccountId: account.id,
        keyId: key.id,
        endpointId: provider.endpoint.id,
        providerAccountId: provider.account.id,
        status: 200,
        latencyMs: 1,
        // 7 minor units (0.07, 70,000 micros) a call, in picos.
        costPicos: 70_000_000_000,
        pricePerCall: 70_000,
        pricePer1mInput: 0,
        pricePer1mOutput: 0,
      })),
    );
    await database.db.insert(spendLimits).values({ accountId: account.id, limitMinor: 95 });
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call((i % 2 ? a : b).url, key.raw, provider.routeName)),
    );
    expect(tally(statuses)).toEqual({ 200: 10, 402: 50 });
    const spent = async () => {
      const [row] = await database.db
        .select({ picos: sum(usageEvents.costPicos), calls: count() })
        .from(usageEvents)
        // Forwarded calls: refusals are logged without an endpoint (gateway/refusal-log.ts).
        .where(and(eq(usageEvents.callerAccountId, account.id), isNotNull(usageEvents.endpointId)));
      return [Number(row!.calls), Number(row!.picos)];
    };
    await expect.poll(spent, { timeout: 10_000 }).toEqual([13, 910_000_000_000]);
  });

  it('keeps serving while Redis is down, says so, and reconciles the counters when it returns', async () => {
    const { account, key, routeName } = await caller('free');
    for (const instance of [a, b, a]) expect(await call(instance.url, key.raw, routeName)).toBe(200);
    // A second route, cached on both instances, whose change no instance can hear during the outage.
    const stale = `inst/${randomBytes(4).toString('hex')}`;
    const staleEndpoint = await insertEndpoint(database.db, secret, account.id, {
      routeName: stale,
      routeEndpoint: `${upstream.url}/ok`,
    });
    expect([await call(a.url, key.raw, stale), await call(b.url, key.raw, stale)]).toEqual([200, 200]);

    stopRedis(redisPort);
    redis.disconnect();
    await expect
      .poll(async () => [(await health(a)).redis, (await health(b)).redis], { timeout: 10_000 })
      .toEqual(['down', 'down']);
    expect(await (await fetch(`${a.url}/metrics`)).text()).toMatch(/^air_redis_up 0$/m);
    const during = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call((i % 2 ? a : b).url, key.raw, routeName)),
    );
    expect(tally(during)).toEqual({ 200: 10 });
    await database.db
      .update(aiEndpoints)
      .set({ isActive: false })
      .where(eq(aiEndpoints.id, staleEndpoint.id));
    expect(await (await fetch(`${b.url}/metrics`)).text()).toMatch(
      /^air_gateway_local_admissions_total [1-9]/m,
    );

    startRedis(redisPort);
    await expect
      .poll(async () => [(await health(a)).redis, (await health(b)).redis], { timeout: 30_000 })
      .toEqual(['up', 'up']);
    expect(await (await fetch(`${a.url}/metrics`)).text()).toMatch(/^air_redis_up 1$/m);
    // Every cache is dropped when the change bus reconnects (its own connection, a moment apart):
    // the change made during the outage applies within seconds, not at the 60 s expiry.
    // A poll that still reaches the stale route on one instance is a served call: count it.
    let servedWhilePolling = 0;
    await expect
      .poll(
        async () => {
          const answers = [await call(a.url, key.raw, stale), await call(b.url, key.raw, stale)];
          servedWhilePolling += answers.filter((status) => status === 200).length;
          return answers;
        },
        { timeout: 10_000 },
      )
      .toEqual([404, 404]);
    for (const instance of [a, b]) expect(await call(instance.url, key.raw, routeName)).toBe(200);

    // The shared counter was re-seeded from the stored usage, outage included: 3 + 2 + 10 + 2,
    // plus any call the poll above saw served before an instance dropped its cache.
    await redis.connect();
    const counter = `air:q:${account.id}:${periodOf(Date.now())}`;
    const expected = 17 + servedWhilePolling;
    // Rows of routed calls only: the poll's 404s (the route gone) are metered for the request log
    // with no endpoint, and never count to the quota (decision 030).
    await expect.poll(() => storedRows(account.id, true), { timeout: 10_000 }).toBe(expected);
    // Known race, not yet found (stop 30's note, issue 25): when the two instances' reconciles
    // overlap the first calls after Redis returns, the counter has ended 1-3 calls above the stored
    // count in some runs (never below it). The quota then refuses a few calls early that month,
    // never late; a shortfall, or more than that margin, still fails here.
    // The calls after the outage leased blocks (this plan has room): their unused calls go back
    // within LEASE_MS, so the counter is read once they have.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const counted = Number(await redis.get(counter));
    expect(counted).toBeGreaterThanOrEqual(expected);
    expect(counted).toBeLessThanOrEqual(expected + 3);
  }, 90_000);

  it('loses no call the client saw succeed when an instance is killed (-9) under load', async () => {
    const { account, key, routeName } = await caller('free');
    let succeeded = 0;
    let failed = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const status = await call(a.url, key.raw, routeName);
        if (status === 200) succeeded++;
        else failed++;
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await expect.poll(() => succeeded, { timeout: 30_000 }).toBeGreaterThanOrEqual(150);
    await a.kill9();
    stop = true;
    await Promise.all(workers);
    const seen = succeeded;

    // The restarted instance replays its journal before it serves.
    a = await startInstance({ ...env, DATA_DIR: path.join(dir, 'a') });
    const stored = await storedRows(account.id);
    // Every success is stored; beyond them only calls cut off in flight (stored as 499).
    expect(stored).toBeGreaterThanOrEqual(seen);
    expect(stored).toBeLessThanOrEqual(seen + failed);
    const byStatus = await database.db
      .select({ status: usageEvents.status, n: count() })
      .from(usageEvents)
      .where(eq(usageEvents.callerAccountId, account.id))
      .groupBy(usageEvents.status);
    const rows = Object.fromEntries(byStatus.map((row) => [row.status, Number(row.n)]));
    expect(Object.keys(rows).every((status) => status === '200' || status === '499')).toBe(true);
    expect((rows[200] ?? 0) + (rows[499] ?? 0)).toBe(stored);
  }, 120_000);
});
