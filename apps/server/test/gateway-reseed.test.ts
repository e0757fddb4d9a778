import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisCallCounters } from '../src/gateway/redis-counters';
import { spendKeyName, type TSpendLimits } from '../src/gateway/spend';
import type { TPlanLimits } from '../src/gateway/directory';
import { periodOf } from '../src/modules/usage/service';
import { insertUsageRows, type TUsageRow } from '../src/modules/usage/metering';
import { createTestApp, type TTestApp } from './helpers';
import { freePort, startRedis, stopRedis } from './instances';
import { seedUser } from './identity-helpers';

/*
 * Issue 42 / decision 049: a counter Redis lost under load is seeded again from the stored usage,
 * which lacks the rows other instances still hold in their meters. Two counters (two instances) on
 * one database and one private redis-server: the rows of one of them are held back, as in a meter
 * that has not flushed, until after the other has seeded the counter again.
 */

const LIMITS: TPlanLimits = {
  planId: 'test',
  quotaCallsMonth: 1_000_000,
  rateLimitPerMinute: 1_000_000,
  tokensPerMinute: null,
  hasCard: true,
  spendLimitMinor: null,
  spendLimitSetAt: null,
};
/** A call priced at 1,000 micros = 0.1 cent. */
const PRICE = { per_call: 1000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 };
const PICOS_PER_NANO = 1000;

let t: TTestApp;
let redisPort = 0;
let redis: Redis;
const counters: RedisCallCounters[] = [];

beforeAll(async () => {
  t = await createTestApp();
  redisPort = await freePort();
  startRedis(redisPort);
  redis = new Redis(`redis://127.0.0.1:${redisPort}`, { maxRetriesPerRequest: 1 });
}, 60_000);

afterEach(async () => {
  await Promise.all(counters.splice(0).map((counter) => counter.close()));
});

afterAll(async () => {
  redis?.disconnect();
  if (redisPort) stopRedis(redisPort);
  await t?.close();
});

/** An instance's counters; its meter is `pending`, written by `flush` (as the real meter's beforeSeed). */
function instance(correctAfterMs: number[]) {
  const pending: TUsageRow[] = [];
  const flush = async () => {
    await insertUsageRows(t.db, pending.splice(0));
  };
  const counter = new RedisCallCounters(
    `redis://127.0.0.1:${redisPort}`,
    t.db,
    t.app.log,
    flush,
    async () => 0,
    () => {},
    Date.now,
    correctAfterMs,
  );
  counters.push(counter);
  return { counter, pending, flush };
}

/** A call's row as the gateway writes it: counted `latencyMs` before it ended (or at `admittedAt`). */
function row(accountId: string, keyId: string, priced: boolean, latencyMs = 5, admittedAt?: Date): TUsageRow {
  return {
    callerAccountId: accountId,
    keyId,
    endpointId: randomUUID(),
    providerAccountId: randomUUID(),
    status: 200,
    latencyMs,
    promptTokens: 1,
    completionTokens: 1,
    tokensEstimated: false,
    streamed: false,
    errorCode: null,
    attempts: 1,
    cacheHit: false,
    price: priced ? PRICE : null,
    createdAt: new Date(),
    admittedAt: admittedAt ?? new Date(Date.now() - latencyMs),
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function storedCalls(accountId: string): Promise<number> {
  const result = (await t.db.execute(
    `select count(*)::int as calls from usage_events where caller_account_id = '${accountId}' and endpoint_id is not null`,
  )) as { rows: { calls: number }[] };
  return Number(result.rows[0]!.calls);
}

async function storedSpendNanos(keyId: string): Promise<number> {
  const result = (await t.db.execute(
    `select coalesce(sum(cost_picos), 0)::text as picos from usage_events where key_id = '${keyId}'`,
  )) as { rows: { picos: string }[] };
  return Math.ceil(Number(result.rows[0]!.picos) / PICOS_PER_NANO);
}

async function restartRedis(...instances: { counter: RedisCallCounters }[]) {
  stopRedis(redisPort);
  await until('the counters see Redis gone', () => instances.every((one) => !one.counter.redisUp()));
  startRedis(redisPort);
  await until('the counters use Redis again', () => instances.every((one) => one.counter.redisUp()));
}

describe('a counter seeded again after Redis lost it (decision 049)', () => {
  it('counts the calls other instances had not stored yet, once each', async () => {
    const a = instance([300, 900]);
    const b = instance([300, 900]);
    await until('both use Redis', () => a.counter.redisUp() && b.counter.redisUp());
    const { accountId } = await seedUser(t.app, { email: `${randomUUID()}@reseed.io` });
    const keyId = randomUUID();
    const key = { accountId, keyId, monthlyCalls: 500 };

    // 6 calls through a (stored), 4 through b (still in b's meter when Redis goes).
    for (let i = 0; i < 6; i++) {
      expect(await a.counter.admit(key, LIMITS)).toBe(0);
      a.pending.push(row(accountId, keyId, false));
    }
    for (let i = 0; i < 4; i++) {
      expect(await b.counter.admit(key, LIMITS)).toBe(0);
      b.pending.push(row(accountId, keyId, false));
    }
    await a.flush();
    const held = b.pending.splice(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await restartRedis(a, b);

    // The first call after the restart seeds the month from the 6 stored calls, and counts itself.
    expect(await a.counter.admit(key, LIMITS)).toBe(0);
    const period = periodOf(Date.now());
    expect(Number(await redis.get(`air:q:${accountId}:${period}`))).toBe(7);
    // b's rows are stored after the seed; one more call through b after the seed is counted by Redis.
    // It came in 10 s ago (before the loss: a slow body) and was counted just now: counted once.
    await insertUsageRows(t.db, held);
    expect(await b.counter.admit(key, LIMITS)).toBe(0);
    b.pending.push(row(accountId, keyId, false, 10_000, new Date()));
    a.pending.push(row(accountId, keyId, false));
    await a.flush();
    await b.flush();

    await until('the account month corrected to the stored calls', async () => {
      return Number(await redis.get(`air:q:${accountId}:${period}`)) === 12;
    });
    expect(await storedCalls(accountId)).toBe(12);
    // The capped key's month, seeded the same way, is corrected too.
    const keyMonth = `air:kq:${accountId}:${keyId}:500:${period}`;
    await until('the key month corrected', async () => Number(await redis.get(keyMonth)) === 12);
    // Later passes add nothing more: no row is counted twice.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(Number(await redis.get(`air:q:${accountId}:${period}`))).toBe(12);
    expect(Number(await redis.get(keyMonth))).toBe(12);
  }, 60_000);

  it('a key budget counts the charges settled before the loss that were stored after the seed', async () => {
    const a = instance([300, 900]);
    const b = instance([300, 900]);
    await until('both use Redis', () => a.counter.redisUp() && b.counter.redisUp());
    const { accountId } = await seedUser(t.app, { email: `${randomUUID()}@reseed.io` });
    const keyId = randomUUID();
    const limits: TSpendLimits = {
      parts: [{ kind: 'key', id: `${accountId}:${keyId}`, limitMinor: 10_000, setAt: 10_000 }],
    };
    const cost = 1000 * 1_000_000; // 1,000 micros in picos
    const call = async (one: ReturnType<typeof instance>) => {
      const ticket = await one.counter.reserveSpend(limits, cost);
      expect('refused' in ticket).toBe(false);
      if ('refused' in ticket) return;
      await one.counter.settleSpend(ticket, cost);
      one.pending.push(row(accountId, keyId, true));
    };
    for (let i = 0; i < 3; i++) await call(a);
    for (let i = 0; i < 5; i++) await call(b);
    await a.flush();
    const held = b.pending.splice(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await restartRedis(a, b);

    await call(a); // seeds the budget from a's 3 stored charges
    const name = spendKeyName(limits.parts[0]!, periodOf(Date.now()));
    await insertUsageRows(t.db, held);
    await call(b);
    await a.flush();
    await b.flush();

    const expected = await storedSpendNanos(keyId);
    expect(expected).toBe(10 * 1_000_000);
    await until('the key budget corrected to the stored spend', async () => {
      return Number(await redis.hget(name, 'v')) === expected;
    });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(Number(await redis.hget(name, 'v'))).toBe(expected);
  }, 60_000);

  it('a month first seeded with no loss behind it is not corrected', async () => {
    const a = instance([200]);
    const b = instance([200]);
    await until('both use Redis', () => a.counter.redisUp() && b.counter.redisUp());
    const { accountId } = await seedUser(t.app, { email: `${randomUUID()}@reseed.io` });
    const keyId = randomUUID();
    // A cap under the lease's room: the month counts call by call (no block of calls leased).
    const key = { accountId, keyId, monthlyCalls: 500 };
    // Rows stored before this instance's first call; none counted in Redis: the seed counts them.
    await insertUsageRows(t.db, [row(accountId, keyId, false), row(accountId, keyId, false)]);
    expect(await a.counter.admit(key, LIMITS)).toBe(0);
    const period = periodOf(Date.now());
    expect(Number(await redis.get(`air:q:${accountId}:${period}`))).toBe(3);
    expect(await redis.exists(`air:seed:air:q:${accountId}:${period}`)).toBe(0);
  }, 60_000);
});
