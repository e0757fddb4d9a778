import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, isNotNull, sum } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type TDatabase } from '../src/db/client';
import { aiEndpoints, cards, spendLimits, usageEvents } from '../src/db/schema';
import { withDatabaseName } from './global-setup';
import {
  COMPLETION,
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  type TMockUpstream,
} from './gateway-fixtures';
import { freePort, startInstance, startRedis, stopRedis, tally, type TInstance } from './instances';

const onPostgres = process.env.AIR_TEST_DB === 'postgres';

/**
 * 1,000 per million output tokens (1e9 micros, the most a price part may be: a tenth of a minor
 * unit a token); the mock's answer costs its completion tokens (7): 0.7 minor units, 7e9 picos.
 */
const PER_1M_OUTPUT = 1_000_000_000;
const OUTPUT_TOKENS = COMPLETION.usage.completion_tokens;
const COST = OUTPUT_TOKENS * PER_1M_OUTPUT;

/*
 * Issue 37, item 3, on two instances sharing PostgreSQL and Redis: a burst split across both
 * against a token-priced route gets no answer whose reservation did not fit the caller's limit,
 * and the stored charges never pass it.
 */
describe.runIf(onPostgres)('spend limit on a token-priced route, two instances on Redis', () => {
  let admin: pg.Client;
  let dbName = '';
  let database: TDatabase;
  let upstream: TMockUpstream;
  let redisPort = 0;
  let a: TInstance;
  let b: TInstance;
  let dir = '';
  const secret = 'test-secret-that-is-at-least-32-characters-long';

  beforeAll(async () => {
    const info = inject('airTestDb');
    if (info.kind !== 'postgres') throw new Error('needs AIR_TEST_DB=postgres');
    dir = mkdtempSync(path.join(os.tmpdir(), 'air-spend-'));
    dbName = `air_spend_${process.pid}_${randomBytes(4).toString('hex')}`;
    admin = new pg.Client({ connectionString: info.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}" TEMPLATE "${info.template}"`);
    const databaseUrl = withDatabaseName(info.url, dbName);
    database = await openDatabase({ databaseUrl, dataDir: dir });
    upstream = await startMockUpstream();
    redisPort = await freePort();
    startRedis(redisPort);
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
    };
    [a, b] = await Promise.all([
      startInstance({ ...env, DATA_DIR: path.join(dir, 'a') }),
      startInstance({ ...env, DATA_DIR: path.join(dir, 'b') }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (redisPort) stopRedis(redisPort);
    await upstream?.close();
    await database?.close();
    if (dbName) await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin?.end();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** A chat call with these extra members, to `instance`: its status (0 when it failed). */
  async function call(instance: TInstance, key: string, routeName: string, extra: object): Promise<number> {
    try {
      const answer = await fetch(`${instance.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'Hi' }], ...extra }),
      });
      await answer.arrayBuffer();
      return answer.status;
    } catch {
      return 0;
    }
  }

  it('answers a 200-call burst across both instances only where its reservation fits', async () => {
    const providerAccount = await insertAccount(database.db, 'Provider', 'free');
    const routeName = `spend/${randomBytes(4).toString('hex')}`;
    const endpoint = await insertEndpoint(database.db, secret, providerAccount.id, {
      routeName,
      routeEndpoint: `${upstream.url}/ok`,
    });
    await database.db
      .update(aiEndpoints)
      .set({
        isShared: true,
        isPrivate: false,
        pricePerCall: 0,
        pricePer1mInput: 0,
        pricePer1mOutput: PER_1M_OUTPUT,
      })
      .where(eq(aiEndpoints.id, endpoint.id));
    const account = await insertAccount(database.db, 'Caller', 'free');
    const key = await insertKey(database.db, secret, account.id);
    await database.db
      .insert(cards)
      .values({ accountId: account.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
    // 3 calls' worth already spent this month (2.1); the limit of 10 leaves 7.9: 11 reservations of 0.7.
    await database.db.insert(usageEvents).values(
      Array.from({ length: 3 }, () => ({
        callerAccountId: account.id,
        keyId: key.id,
        endpointId: endpoint.id,
        providerAccountId: providerAccount.id,
        status: 200,
        latencyMs: 1,
        costPicos: COST,
        pricePerCall: 0,
        pricePer1mInput: 0,
        pricePer1mOutput: PER_1M_OUTPUT,
      })),
    );
    await database.db.insert(spendLimits).values({ accountId: account.id, limitMinor: 10 });

    // Without max_tokens each call reserves the gateway's bound (4096 tokens): none fits, none goes.
    const seen = upstream.seen.length;
    const unbounded = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i % 2 ? a : b, key.raw, routeName, {})),
    );
    expect(tally(unbounded)).toEqual({ 402: 20 });
    expect(upstream.seen.length).toBe(seen);

    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(i % 2 ? a : b, key.raw, routeName, { max_tokens: OUTPUT_TOKENS }),
      ),
    );
    // Each answer cost what it reserved, so exactly the 11 that fit are answered.
    expect(tally(statuses)).toEqual({ 200: 11, 402: 189 });
    const spent = async () => {
      const [row] = await database.db
        .select({ picos: sum(usageEvents.costPicos), calls: count() })
        .from(usageEvents)
        // Forwarded calls: refusals are logged without an endpoint (gateway/refusal-log.ts).
        .where(and(eq(usageEvents.callerAccountId, account.id), isNotNull(usageEvents.endpointId)));
      return [Number(row!.calls), Number(row!.picos)];
    };
    await expect.poll(spent, { timeout: 10_000 }).toEqual([14, 14 * COST]);
    // 10 minor units in picos.
    expect(14 * COST).toBeLessThanOrEqual(100_000_000_000);
  });
});
