// The exactness run of issue 42 (decision 049): token limits and budgets in money across
// instances, under bursts, with an instance killed (`kill -9`) and Redis restarted during the run.
//
//   node --import tsx apps/server/bench/exactness.ts [--instances 3] [--keys 500] [--bursts 30]
//        [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--redis-port 6390] [--embedded]
//
// With PostgreSQL (default) it makes a database of its own and starts its own redis-server on
// --redis-port (never the shared one: it is restarted during the run), then N instances. With
// --embedded, one instance on the embedded database, no Redis (the process is killed and restarted).
// Seeds --keys keys over accounts of 5 keys, each with tokens per minute, every 4th with a budget
// in money, every 10th account with a spend limit; fires --bursts bursts of 200 concurrent calls
// (10 keys x 20 calls, spread over the instances); prints what it checked as JSON. Loopback only.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type TDatabase } from '../src/db/client';
import { migrateDatabase } from '../src/db/migrate';
import {
  accounts,
  accountUsers,
  aiEndpoints,
  apiKeys,
  cards,
  sessions,
  spendLimits,
  users,
} from '../src/db/schema';
import { signSessionToken } from '../src/lib/jwt';
import { encryptSecret, randomBase62, sha256 } from '../src/lib/crypto';
import { loadPlans, seedPlans } from '../src/modules/billing/plans';
import { startInstance, startRedis, stopRedis, type TInstance } from '../test/instances';

const { values: args } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    keys: { type: 'string', default: '500' },
    bursts: { type: 'string', default: '30' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'redis-port': { type: 'string', default: '6390' },
    embedded: { type: 'boolean', default: false },
  },
});
const EMBEDDED = args.embedded;
const INSTANCES = EMBEDDED ? 1 : Number(args.instances);
const KEYS = Number(args.keys);
const BURSTS = Number(args.bursts);
const BURST = 200;
const SECRET = 'exactness-secret-that-is-at-least-32-characters';
/** "Hi" in one message: the gateway counts 8 prompt tokens; the mock reports the same. */
const PROMPT = 8;
const PERIOD = new Date().toISOString().slice(0, 7);
const NANOS_PER_MINOR = 10_000_000;
const PICOS_PER_NANO = 1000;

// ---- the upstream: answers after 20-80 ms, usage at most what max_tokens allows ----------------
const seenCalls = new Set<string>();
function completionOf(maxTokens: number): number {
  return Math.max(1, Math.floor(maxTokens * 0.6));
}
const upstream: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const parsed = JSON.parse(body) as { user: string; max_tokens?: number; stream?: boolean };
    seenCalls.add(parsed.user);
    const completion = completionOf(parsed.max_tokens ?? 4096);
    const usage = { prompt_tokens: PROMPT, completion_tokens: completion, total_tokens: PROMPT + completion };
    setTimeout(
      () => {
        if (parsed.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const chunk = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [] };
          res.write(
            `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { content: 'hi' } }] })}\n\n`,
          );
          res.write(`data: ${JSON.stringify({ ...chunk, usage })}\n\n`);
          return void res.end('data: [DONE]\n\n');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            created: 1,
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
            usage,
          }),
        );
      },
      20 + Math.floor(Math.random() * 60),
    );
  });
});
upstream.listen(0, '127.0.0.1');
await new Promise((resolve) => upstream.once('listening', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;

// ---- the database, Redis and the seed -----------------------------------------------------------
const dir = mkdtempSync(path.join(os.tmpdir(), 'air-exact-'));
const dbName = `air_exact_${process.pid}`;
let databaseUrl = '';
let admin: pg.Client | null = null;
if (!EMBEDDED) {
  admin = new pg.Client({ connectionString: args['database-url'] });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const url = new URL(args['database-url']!);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
}
const redisPort = Number(args['redis-port']);
if (!EMBEDDED) startRedis(redisPort);

interface TKey {
  id: string;
  raw: string;
  accountId: string;
  tokensPerMinute: number;
  budget: number | null;
  route: string;
}
const keys: TKey[] = [];
const spendLimited = new Map<string, number>();
/** A console session per account (its owner's), to read the embedded instance's counters through the API. */
const sessionTokens = new Map<string, string>();

async function seed(database: TDatabase) {
  await migrateDatabase(database);
  const db = database.db;
  const plans = path.join(dir, 'plans.json');
  const base = { currency: 'usd', currency_symbol: '$', interval: 'month', type: 'flat', price: 0, sort: 0 };
  writeFileSync(
    plans,
    JSON.stringify({
      plans: [
        { ...base, id: 'free', name: 'free', quota_calls_month: 10_000_000, rate_limit_per_minute: 100_000 },
      ],
    }),
  );
  await seedPlans(db, loadPlans(plans));
  const [provider] = await db.insert(accounts).values({ name: 'Provider', planId: 'free' }).returning();
  const priced = `exact/priced-${randomBase62(6).toLowerCase()}`;
  // One minor unit a call and one nano a completion token: whole nanos, so counters and sums compare exactly.
  await db.insert(aiEndpoints).values({
    accountId: provider!.id,
    name: 'priced',
    routeName: priced,
    routeEndpoint: `${upstreamUrl}/v1/chat/completions`,
    routeType: 'model',
    isPrivate: false,
    isShared: true,
    pricePerCall: 10_000,
    pricePer1mInput: 0,
    pricePer1mOutput: 1_000_000,
  });
  for (let a = 0; a < KEYS / 5; a++) {
    const [account] = await db
      .insert(accounts)
      .values({ name: `Caller ${a}`, planId: 'free' })
      .returning();
    const own = `exact/own-${a}-${randomBase62(6).toLowerCase()}`;
    await db.insert(aiEndpoints).values({
      accountId: account!.id,
      name: own,
      routeName: own,
      routeEndpoint: `${upstreamUrl}/v1/chat/completions`,
      routeType: 'model',
    });
    await db
      .insert(cards)
      .values({ accountId: account!.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
    const [owner] = await db
      .insert(users)
      .values({
        name: `Owner ${a}`,
        email: `owner-${a}-${randomBase62(6).toLowerCase()}@exact.test`,
        verified: true,
      })
      .returning();
    await db.insert(accountUsers).values({ accountId: account!.id, userId: owner!.id, permission: 'owner' });
    const [session] = await db
      .insert(sessions)
      .values({ userId: owner!.id, accountId: account!.id })
      .returning();
    sessionTokens.set(
      account!.id,
      await signSessionToken(SECRET, {
        userId: owner!.id,
        accountId: account!.id,
        role: 'owner',
        sessionId: session!.id,
      }),
    );
    if (a % 10 === 0) {
      await db.insert(spendLimits).values({ accountId: account!.id, limitMinor: 300 });
      spendLimited.set(account!.id, 300);
    }
    for (let k = 0; k < 5; k++) {
      const n = a * 5 + k;
      const raw = `air_${randomBase62(40)}`;
      const tokensPerMinute = 300 + ((n * 137) % 1700);
      const budget = n % 4 === 0 ? 20 + ((n * 31) % 180) : null;
      const [row] = await db
        .insert(apiKeys)
        .values({
          accountId: account!.id,
          name: `key ${n}`,
          keyHash: sha256(raw),
          keyEnc: encryptSecret(SECRET, raw),
          keyPrefix: raw.slice(0, 8),
          scope: ['gateway.invoke'],
          tokensPerMinute,
          monthlySpend: budget,
        })
        .returning();
      keys.push({
        id: row!.id,
        raw,
        accountId: account!.id,
        tokensPerMinute,
        budget,
        route: budget === null ? own : priced,
      });
    }
  }
  return plans;
}

const seedDb = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir: path.join(dir, 'i0') });
const plansFile = await seed(seedDb);
await seedDb.close();

const env = (i: number): Record<string, string> => ({
  ...(EMBEDDED ? {} : { DATABASE_URL: databaseUrl, REDIS_URL: `redis://127.0.0.1:${redisPort}` }),
  PLANS_FILE: plansFile,
  SECRET,
  UPSTREAM_ALLOW_PRIVATE: 'true',
  DATA_DIR: path.join(dir, `i${EMBEDDED ? 0 : i}`),
});
const instances: TInstance[] = [];
for (let i = 0; i < INSTANCES; i++) instances.push(await startInstance(env(i)));

// ---- the bursts ---------------------------------------------------------------------------------
interface TCall {
  id: string;
  key: TKey;
  minute: number;
  reserved: number;
  status: number;
  code: string | null;
  used: number;
  remaining: number | null;
}
const calls: TCall[] = [];
let seq = 0;

async function fire(instance: TInstance, key: TKey, maxTokens: number, stream: boolean): Promise<void> {
  const id = `c${seq++}`;
  const sent = Date.now();
  const minute = Math.floor(sent / 60_000);
  const call: TCall = {
    id,
    key,
    minute,
    reserved: PROMPT + maxTokens,
    status: 0,
    code: null,
    used: 0,
    remaining: null,
  };
  calls.push(call);
  try {
    const answer = await fetch(`${instance.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.raw}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: key.route,
        user: id,
        messages: [{ role: 'user', content: 'Hi' }],
        max_tokens: maxTokens,
        ...(stream ? { stream: true } : {}),
      }),
    });
    const text = await answer.text();
    call.status = answer.status;
    const remaining = answer.headers.get('x-ratelimit-remaining-tokens');
    call.remaining = remaining === null ? null : Number(remaining);
    // The minute the server admitted it in: the one ending `reset` seconds after admission.
    const reset = answer.headers.get('x-ratelimit-reset-tokens');
    if (reset !== null) call.minute = Math.round((sent + Number.parseInt(reset, 10) * 1000) / 60_000) - 1;
    if (answer.status === 200) call.used = PROMPT + completionOf(maxTokens);
    else call.code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    call.status = 0; // the instance was killed with the call in flight
  }
}

async function wellInsideAMinute() {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (62 - second) * 1000));
}

const events: string[] = [];
const live = () =>
  instances.filter((instance) => instance.process.exitCode === null && instance.process.signalCode === null);
const KILL_AT = Math.floor(BURSTS / 5);
const RESTART_AT = KILL_AT + 3;
const REDIS_AT = Math.floor(BURSTS / 2);
const started = Date.now();
for (let b = 0; b < BURSTS; b++) {
  await wellInsideAMinute();
  const picked = Array.from({ length: 10 }, (_, i) => keys[(b * 37 + i * 53) % keys.length]!);
  const targets = live();
  const burst = Array.from({ length: BURST }, (_, i) => {
    const key = picked[i % picked.length]!;
    const maxTokens = [10, 50, 100, 200][(i + b) % 4]!;
    return fire(targets[i % targets.length]!, key, maxTokens, i % 10 === 0);
  });
  if (b === KILL_AT && instances.length > 1) {
    // Killed with its share of the burst in flight.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await instances.at(-1)!.kill9();
    events.push(`burst ${b}: instance ${instances.length - 1} killed with kill -9`);
  }
  if (b === KILL_AT && EMBEDDED) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    await instances[0]!.kill9();
    events.push(`burst ${b}: the instance killed with kill -9`);
  }
  if (b === REDIS_AT && !EMBEDDED) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    stopRedis(redisPort);
    startRedis(redisPort);
    events.push(`burst ${b}: Redis restarted (its data lost)`);
  }
  await Promise.all(burst);
  if ((b === RESTART_AT && !EMBEDDED) || (EMBEDDED && b === KILL_AT)) {
    const index = instances.length - 1;
    instances[index] = await startInstance(env(index));
    events.push(`burst ${b}: instance ${index} started again`);
  }
  if (b === REDIS_AT && !EMBEDDED) await new Promise((resolve) => setTimeout(resolve, 3000));
}
const elapsed = (Date.now() - started) / 1000;

// ---- the checks ---------------------------------------------------------------------------------
// Every instance writes its usage and gives back what it held; a killed holder is swept after 15 s.
await new Promise((resolve) => setTimeout(resolve, 25_000));
/**
 * The embedded instance's months of calls (its counters live in its process), read through the
 * console's usage call, which reports the gateway's own counter; then the instance is stopped (its
 * meter written) and its data folder opened for the stored usage.
 */
const embeddedCalls = new Map<string, number>();
if (EMBEDDED) {
  for (const [accountId, token] of sessionTokens) {
    const answer = await fetch(`${instances[0]!.url}/api/account/usage`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const rows = ((await answer.json()) as { data: { label: string; total: number }[] }).data;
    embeddedCalls.set(accountId, rows.find((row) => row.label === 'calls')!.total);
  }
  await instances[0]!.stop();
}
const checkDb = await openDatabase(
  EMBEDDED ? { dataDir: path.join(dir, 'i0') } : { databaseUrl, dataDir: dir },
);
const redis = EMBEDDED ? null : new Redis(`redis://127.0.0.1:${redisPort}`);

const refused = calls.filter((call) => call.status === 429 || call.status === 402);
const deliveredOnRefused = refused.filter((call) => seenCalls.has(call.id)).length;
const falseTokenRefusals = calls.filter(
  (call) =>
    call.code === 'token_rate_limit_exceeded' && call.remaining !== null && call.remaining >= call.reserved,
).length;
/** Tokens delivered per key and minute, against the key's limit. */
const byMinute = new Map<string, { key: TKey; used: number }>();
for (const call of calls) {
  if (call.status !== 200) continue;
  const name = `${call.key.id}:${call.minute}`;
  const entry = byMinute.get(name) ?? { key: call.key, used: 0 };
  entry.used += call.used;
  byMinute.set(name, entry);
}
const over = [...byMinute.values()].filter((entry) => entry.used > entry.key.tokensPerMinute);

async function storedSpend(where: ReturnType<typeof sql>): Promise<Map<string, bigint>> {
  if (!checkDb) return new Map();
  const result = (await checkDb.db.execute(sql`
    select ${where} as id, coalesce(sum(cost_picos), 0)::text as picos from usage_events
    where cost_picos is not null group by 1`)) as { rows: { id: string; picos: string }[] };
  return new Map(result.rows.map((row) => [row.id, BigInt(row.picos)]));
}
const keySpend = await storedSpend(sql`key_id::text`);
const accountSpend = await storedSpend(sql`caller_account_id::text`);
const overBudget = keys.filter(
  (key) =>
    key.budget !== null &&
    (keySpend.get(key.id) ?? 0n) > BigInt(key.budget) * BigInt(NANOS_PER_MINOR * PICOS_PER_NANO),
).length;
const overLimit = [...spendLimited].filter(
  ([id, limit]) => (accountSpend.get(id) ?? 0n) > BigInt(limit) * BigInt(NANOS_PER_MINOR * PICOS_PER_NANO),
).length;

/** Counters in Redis against the stored usage: budgets, spend limits, months of calls. */
const drift: string[] = [];
let compared = 0;
let missing = 0;
let held = 0;
const heldBy: string[] = [];
if (EMBEDDED) {
  const stored = (await checkDb.db.execute(sql`
    select caller_account_id::text as id, count(*)::int as calls from usage_events
    where endpoint_id is not null group by 1`)) as { rows: { id: string; calls: number }[] };
  const storedCalls = new Map(stored.rows.map((row) => [row.id, Number(row.calls)]));
  for (const [accountId, counted] of embeddedCalls) {
    compared++;
    const want = storedCalls.get(accountId) ?? 0;
    if (counted !== want) drift.push(`calls ${accountId}: ${counted} vs ${want}`);
  }
}
if (redis && checkDb) {
  const nanos = (picos: bigint) => Number((picos + BigInt(PICOS_PER_NANO) - 1n) / BigInt(PICOS_PER_NANO));
  for (const key of keys.filter((candidate) => candidate.budget !== null)) {
    const value = await redis.hget(`air:ks:${key.accountId}:${key.id}:${PERIOD}`, 'v');
    if (value === null) missing++;
    else {
      compared++;
      if (Number(value) !== nanos(keySpend.get(key.id) ?? 0n))
        drift.push(`key budget ${key.id}: ${value} vs ${nanos(keySpend.get(key.id) ?? 0n)}`);
    }
  }
  for (const [id] of spendLimited) {
    const value = await redis.hget(`air:sp3:${id}:${PERIOD}`, 'v');
    if (value === null) missing++;
    else {
      compared++;
      if (Number(value) !== nanos(accountSpend.get(id) ?? 0n))
        drift.push(`spend limit ${id}: ${value} vs ${nanos(accountSpend.get(id) ?? 0n)}`);
    }
  }
  const stored = (await checkDb.db.execute(sql`
    select caller_account_id::text as id, count(*)::int as calls from usage_events
    where endpoint_id is not null group by 1`)) as { rows: { id: string; calls: number }[] };
  for (const row of stored.rows) {
    const value = await redis.get(`air:q:${row.id}:${PERIOD}`);
    if (value === null) missing++;
    else {
      compared++;
      if (Number(value) !== Number(row.calls)) drift.push(`calls ${row.id}: ${value} vs ${row.calls}`);
    }
  }
  // Token windows of the last burst's minute against what was delivered in it.
  const lastMinute = Math.max(...calls.map((call) => call.minute));
  for (const [name, entry] of byMinute) {
    if (!name.endsWith(`:${lastMinute}`)) continue;
    const value = await redis.hget(`air:tk:${entry.key.id}:${lastMinute}`, 'v');
    compared++;
    if (Number(value ?? 0) !== entry.used) drift.push(`tokens ${name}: ${value} vs ${entry.used}`);
  }
  for (const pattern of ['air:tk:*', 'air:ks:*', 'air:sp3:*']) {
    for (const counter of await redis.keys(pattern)) {
      const fields = await redis.hgetall(counter);
      for (const [field, value] of Object.entries(fields)) {
        if (!field.startsWith('h:') || value === '0') continue;
        held++;
        const alive = (await redis.exists(`air:alive:${field.slice(2)}`)) === 1;
        heldBy.push(`${counter} ${field}=${value} ${alive ? 'alive' : 'not beating'}`);
      }
    }
  }
}

const tally: Record<string, number> = {};
for (const call of calls)
  tally[call.code ?? String(call.status)] = (tally[call.code ?? String(call.status)] ?? 0) + 1;
console.log(
  JSON.stringify(
    {
      mode: EMBEDDED ? 'embedded, one instance' : `PostgreSQL + Redis, ${INSTANCES} instances`,
      keys: keys.length,
      bursts: BURSTS,
      calls: calls.length,
      seconds: elapsed,
      answers: tally,
      events,
      deliveredOnRefusedReservation: deliveredOnRefused,
      falseTokenRefusals,
      keyMinutesOverTokenLimit: over.length,
      mostOverTokenLimit: over.reduce(
        (most, entry) => Math.max(most, entry.used - entry.key.tokensPerMinute),
        0,
      ),
      keysOverBudget: overBudget,
      accountsOverSpendLimit: overLimit,
      countersCompared: compared,
      countersMissing: missing,
      countersDrifted: drift.length,
      driftByKind: Object.fromEntries(
        ['calls', 'key budget', 'spend limit', 'tokens'].map((kind) => [
          kind,
          drift.filter((line) => line.startsWith(`${kind} `)).length,
        ]),
      ),
      drift: ['calls', 'key budget', 'spend limit', 'tokens'].flatMap((kind) =>
        drift.filter((line) => line.startsWith(`${kind} `)).slice(0, 5),
      ),
      holdsLeft: held,
      holds: heldBy.slice(0, 10),
    },
    null,
    2,
  ),
);

if (!EMBEDDED) await Promise.all(instances.map((instance) => instance.stop()));
redis?.disconnect();
await checkDb?.close();
if (!EMBEDDED) stopRedis(redisPort);
if (admin) {
  await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin.end();
}
upstream.close();
rmSync(dir, { recursive: true, force: true });
