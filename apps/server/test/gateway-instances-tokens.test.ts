import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type TDatabase } from '../src/db/client';
import { aiEndpoints, apiKeys, cards } from '../src/db/schema';
import { withDatabaseName } from './global-setup';
import {
  COMPLETION,
  STREAM_USAGE,
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  startWellInsideAMinute,
  type TMockUpstream,
} from './gateway-fixtures';
import { freePort, startInstance, startRedis, stopRedis, tally, type TInstance } from './instances';

const onPostgres = process.env.AIR_TEST_DB === 'postgres';

/** "Hi" in one message reserves 8 prompt tokens; the mock answers 11 + 7 (see gateway-token-limits). */
const PROMPT = 8;
const USED = COMPLETION.usage.prompt_tokens + COMPLETION.usage.completion_tokens;

/*
 * Issue 42, items 1 and 2, on two instances sharing PostgreSQL and Redis: a key's tokens per
 * minute and its budget in money hold across both (one counter in Redis, reserved at admission and
 * settled after), with no answer on a refused reservation and nothing left held afterwards.
 */
describe.runIf(onPostgres)('token limits and key budgets, two instances on Redis', () => {
  let admin: pg.Client;
  let dbName = '';
  let database: TDatabase;
  let upstream: TMockUpstream;
  let redisPort = 0;
  let redis: Redis;
  let a: TInstance;
  let b: TInstance;
  let dir = '';
  const secret = 'test-secret-that-is-at-least-32-characters-long';

  beforeAll(async () => {
    const info = inject('airTestDb');
    if (info.kind !== 'postgres') throw new Error('needs AIR_TEST_DB=postgres');
    dir = mkdtempSync(path.join(os.tmpdir(), 'air-tokens-'));
    dbName = `air_tokens_${process.pid}_${randomBytes(4).toString('hex')}`;
    admin = new pg.Client({ connectionString: info.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}" TEMPLATE "${info.template}"`);
    const databaseUrl = withDatabaseName(info.url, dbName);
    database = await openDatabase({ databaseUrl, dataDir: dir });
    upstream = await startMockUpstream();
    redisPort = await freePort();
    startRedis(redisPort);
    redis = new Redis(`redis://127.0.0.1:${redisPort}`);
    const plans = path.join(dir, 'plans.json');
    const free = {
      id: 'free',
      name: 'free',
      sort: 0,
      quota_calls_month: 100_000,
      rate_limit_per_minute: 100_000,
    };
    const base = { currency: 'usd', currency_symbol: '$', interval: 'month', type: 'flat', price: 0 };
    writeFileSync(plans, JSON.stringify({ plans: [{ ...base, ...free }] }));
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      PLANS_FILE: plans,
      SECRET: secret,
      UPSTREAM_ALLOW_PRIVATE: 'true',
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

  let seq = 0;
  async function route(accountId: string, priced = false) {
    const routeName = `tokens/${randomBytes(4).toString('hex')}-${seq++}`;
    const endpoint = await insertEndpoint(database.db, secret, accountId, {
      routeName,
      routeEndpoint: `${upstream.url}/ok`,
    });
    if (priced)
      await database.db
        .update(aiEndpoints)
        .set({
          isShared: true,
          isPrivate: false,
          pricePerCall: 10_000,
          pricePer1mInput: 0,
          pricePer1mOutput: 0,
        })
        .where(eq(aiEndpoints.id, endpoint.id));
    return routeName;
  }

  async function limitedKey(controls: { tokensPerMinute?: number; monthlySpend?: number }) {
    const account = await insertAccount(database.db, `Caller ${seq++}`, 'free');
    const key = await insertKey(database.db, secret, account.id);
    await database.db.update(apiKeys).set(controls).where(eq(apiKeys.id, key.id));
    return { account, key };
  }

  async function chat(instance: TInstance, key: string, routeName: string, extra: object = {}) {
    try {
      const answer = await fetch(`${instance.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'Hi' }], ...extra }),
      });
      const text = await answer.text();
      return { status: answer.status, headers: answer.headers, text };
    } catch {
      return { status: 0, headers: new Headers(), text: '' };
    }
  }

  /** What is still held in Redis for a key's minute (every holder's field): nothing once all settled. */
  async function holds(keyId: string): Promise<string[]> {
    const minute = Math.floor(Date.now() / 60_000);
    const fields = await redis.hgetall(`air:tk:${keyId}:${minute}`);
    return Object.entries(fields)
      .filter(([field, value]) => field.startsWith('h:') && value !== '0')
      .map(([field]) => field);
  }

  it('passes exactly the calls whose token reservations fit in a 200-call burst across both', async () => {
    await startWellInsideAMinute();
    const { account, key } = await limitedKey({ tokensPerMinute: 10 * USED + 17 });
    const routeName = await route(account.id);
    const seen = upstream.seen.length;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => chat(i % 2 ? a : b, key.raw, routeName, { max_tokens: 10 })),
    );
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 200: 10, 429: 190 });
    expect(upstream.seen.length - seen).toBe(10);
    const minute = Math.floor(Date.now() / 60_000);
    expect(Number(await redis.hget(`air:tk:${key.id}:${minute}`, 'v'))).toBe(10 * USED);
    await expect.poll(() => holds(key.id)).toEqual([]);
  });

  it('settles a shorter answer and a stream to what they used, on the counter both instances share', async () => {
    await startWellInsideAMinute();
    const limit = 10_000;
    const { account, key } = await limitedKey({ tokensPerMinute: limit });
    const routeName = await route(account.id);
    const first = await chat(a, key.raw, routeName, { max_tokens: 100 });
    expect(first.headers.get('x-ratelimit-remaining-tokens')).toBe(String(limit - PROMPT - 100));
    // On the other instance: the first settled to its 18.
    await expect
      .poll(async () => Number(await redis.hget(`air:tk:${key.id}:${Math.floor(Date.now() / 60_000)}`, 'v')))
      .toBe(USED);
    const second = await chat(b, key.raw, routeName, { max_tokens: 100 });
    expect(second.headers.get('x-ratelimit-remaining-tokens')).toBe(String(limit - USED - PROMPT - 100));
    const streamed = await chat(a, key.raw, routeName, { stream: true, max_tokens: 50 });
    expect(streamed.text).toContain('[DONE]');
    const streamUsed = STREAM_USAGE.prompt_tokens + STREAM_USAGE.completion_tokens;
    // The stream settles when its metering ends, a moment after its last byte.
    const minute = Math.floor(Date.now() / 60_000);
    await expect
      .poll(async () => Number(await redis.hget(`air:tk:${key.id}:${minute}`, 'v')))
      .toBe(2 * USED + streamUsed);
    const after = await chat(b, key.raw, routeName, { max_tokens: 10 });
    expect(after.headers.get('x-ratelimit-remaining-tokens')).toBe(
      String(limit - 2 * USED - streamUsed - PROMPT - 10),
    );
    await expect.poll(() => holds(key.id)).toEqual([]);
  });

  it("answers exactly the calls a key's budget pays for in a 200-call burst across both", async () => {
    const provider = await insertAccount(database.db, 'Provider', 'free');
    const routeName = await route(provider.id, true);
    // A budget of 5 minor units; each call costs 1.
    const { account, key } = await limitedKey({ monthlySpend: 5 });
    await database.db
      .insert(cards)
      .values({ accountId: account.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => chat(i % 2 ? a : b, key.raw, routeName)),
    );
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 200: 5, 402: 195 });
    const refused = answers.find((answer) => answer.status === 402)!;
    expect(JSON.parse(refused.text).error.code).toBe('key_budget_exceeded');
    const period = new Date().toISOString().slice(0, 7);
    const counter = () => redis.hgetall(`air:ks:${account.id}:${key.id}:${period}`);
    // 5 minor units in nanos, nothing held once the last call settled.
    await expect
      .poll(async () => Object.keys(await counter()).filter((field) => field.startsWith('h:')))
      .toEqual([]);
    expect(Number((await counter()).v)).toBe(5 * 10_000_000);
  });
});
