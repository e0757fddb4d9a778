/**
 * Usage page query benchmark (`npm run bench:usage`, not part of npm test): seeds 1,000,000 calls
 * of one account over the last 30 days on a fresh embedded database (on disk, like `npm start`),
 * then times the queries the usage page and the request log run. Options: `--calls N`,
 * `--runs N`, `--database-url postgres://…` (a database this script may fill; it is not dropped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { migrateDatabase } from '../src/db/migrate';
import { catalogEndpoint, catalogPage } from '../src/modules/aiendpoint-shared/catalog';
import { loadPlans } from '../src/modules/billing/plans';
import { BUILT_IN_PLANS_FILE } from '../src/config';
import { callerUsage, providerUsage, rowsOf } from '../src/modules/usage/insight';
import { dayOf } from '../src/modules/usage/period';
import { requestLog } from '../src/modules/usage/request-log';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    'database-url': { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const RUNS = Number(values.runs);
const CHUNK = 100_000;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-bench-usage-'));
const database = await openDatabase({ databaseUrl: values['database-url'], dataDir });
const db = database.db;

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function time<T>(label: string, run: () => Promise<T>): Promise<void> {
  await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(ms(start));
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  console.log(
    `${label.padEnd(44)} median ${at(0.5).toFixed(1).padStart(7)} ms   p95 ${at(0.95).toFixed(1).padStart(7)} ms   max ${samples[samples.length - 1]!.toFixed(1).padStart(7)} ms`,
  );
}

try {
  console.log(`database: ${database.driver}${database.driver === 'pglite' ? ` (on disk, ${dataDir})` : ''}`);
  let start = process.hrtime.bigint();
  await migrateDatabase(database);
  const ids = await rowsOf<{ caller: string; provider: string; other: string }>(
    db,
    sql`with c as (insert into accounts (name) values ('Bench caller') returning id),
      p as (insert into accounts (name) values ('Bench provider') returning id),
      o as (insert into accounts (name) values ('Bench other') returning id)
      select c.id::text as caller, p.id::text as provider, o.id::text as other from c, p, o`,
  );
  const { caller, provider, other } = ids[0]!;
  // 6 endpoints (4 own, 2 of the provider) and 3 keys, as uuids the seed picks from.
  const endpoints = Array.from({ length: 6 }, (_, i) => `00000000-0000-4000-8000-00000000000${i + 1}`);
  const keys = Array.from({ length: 3 }, (_, i) => `00000000-0000-4000-9000-00000000000${i + 1}`);
  console.log(`migrated in ${ms(start).toFixed(0)} ms; seeding ${CALLS.toLocaleString('en')} calls…`);

  start = process.hrtime.bigint();
  for (let offset = 0; offset < CALLS; offset += CHUNK) {
    const count = Math.min(CHUNK, CALLS - offset);
    // Each INSERT is one statement, as the metering writer's are: the roll-up trigger runs once per chunk.
    await db.execute(sql`insert into usage_events
      (caller_account_id, key_id, endpoint_id, provider_account_id, status, latency_ms,
       prompt_tokens, completion_tokens, tokens_estimated, streamed, created_at)
      select ${caller}::uuid,
        (${sql.param(keys)}::uuid[])[1 + (g % 3)],
        (${sql.param(endpoints)}::uuid[])[1 + (g % 6)],
        case when g % 6 >= 4 then ${provider}::uuid else ${caller}::uuid end,
        case when g % 50 = 0 then 502 when g % 20 = 0 then 429 else 200 end,
        (5 + (g::bigint * 7919) % 400)::int,
        (g % 300)::int, (g % 500)::int, g % 10 = 0, g % 4 = 0,
        now() - ((g % 2592000) * interval '1 second')
      from generate_series(${offset + 1}::int, ${offset + count}::int) g`);
    process.stdout.write(`  ${(offset + count).toLocaleString('en')}\r`);
  }
  // Some traffic of another account to the provider (the provider view) and of the provider itself.
  await db.execute(sql`insert into usage_events
      (caller_account_id, key_id, endpoint_id, provider_account_id, status, latency_ms, created_at)
      select ${other}::uuid, ${keys[0]!}::uuid, (${sql.param(endpoints)}::uuid[])[5 + (g % 2)], ${provider}::uuid,
        200, (g % 100)::int, now() - ((g % 2592000) * interval '1 second')
      from generate_series(1, 50000) g`);
  const seeded = ms(start);
  const [rollup] = await rowsOf<{ rows: number; calls: number }>(
    db,
    sql`select count(*)::int as rows, sum(calls)::float8 as calls from usage_daily where caller_account_id = ${caller}`,
  );
  console.log(
    `seeded in ${(seeded / 1000).toFixed(1)} s (${((seeded * 1000) / CALLS).toFixed(1)} µs a call, roll-up included); ` +
      `usage_daily holds ${rollup!.rows.toLocaleString('en')} rows for ${rollup!.calls.toLocaleString('en')} calls of the caller`,
  );
  // The 6 endpoints as listed marketplace routes (the catalog's statistics come from their roll-up).
  await db.execute(sql`insert into ai_endpoints
      (id, account_id, name, route_name, route_endpoint, route_type, is_private, is_shared, price_per_call, price_per_1m_input, price_per_1m_output)
      select e.id, case when e.n >= 5 then ${provider}::uuid else ${caller}::uuid end, 'Bench ' || e.n,
        'bench/route-' || e.n, 'https://upstream.example/v1', 'model', false, true, 2, 100, 300
      from unnest(${sql.param(endpoints)}::uuid[]) with ordinality as e(id, n)`);
  await db.execute(sql`analyze`);

  const to = dayOf(Date.now());
  const from = dayOf(Date.now() - 29 * 86_400_000);
  console.log(`\nqueries over the last 30 days (${from} .. ${to}), ${RUNS} runs each after a warm-up:`);
  await time('caller view (by day, endpoint, key, latency)', () => callerUsage(db, caller, from, to));
  await time('provider view (by day, endpoint, organisation)', () => providerUsage(db, provider, from, to));
  await time('usage page total (caller + provider)', () =>
    Promise.all([callerUsage(db, caller, from, to), providerUsage(db, provider, from, to)]),
  );
  const plans = loadPlans(BUILT_IN_PLANS_FILE);
  for (const sort of ['popular', 'fastest', 'reliable', 'newest'] as const)
    await time(`marketplace catalog, first page (${sort})`, () => catalogPage(db, plans, { sort }));
  await time('marketplace catalog, search "route-5"', () =>
    catalogPage(db, plans, { sort: 'popular', q: 'route-5' }),
  );
  await time('marketplace endpoint page (30 days)', () =>
    catalogEndpoint(db, plans, 'http://localhost:3000', 'bench/route-1'),
  );
  await time('request log, first page of 50', () => requestLog(db, caller, { limit: 50 }));
  await time('request log, 4xx only, first page of 50', () =>
    requestLog(db, caller, { limit: 50, status: '4xx' }),
  );
  const page = await requestLog(db, caller, { limit: 50 });
  await time('request log, second page (cursor)', () =>
    requestLog(db, caller, { limit: 50, cursor: page.next_cursor! }),
  );
  // The database's own time for the caller view's statement (without the driver and event loop).
  const plan = await rowsOf<{ 'QUERY PLAN': string }>(
    db,
    sql`explain (analyze, timing off) select d.day, d.status_class, sum(d.calls) from usage_daily d
      where d.caller_account_id = ${caller} and d.day between ${from}::date and ${to}::date
      group by grouping sets ((d.day, d.status_class), (d.endpoint_id, d.status_class),
                              (d.key_id, d.status_class), (d.latency_bucket))`,
  );
  console.log(
    `caller view statement in the database: ${plan
      .map((r) => r['QUERY PLAN'])
      .filter((l) => /Execution Time/.test(l))
      .join('')}`,
  );
  // For comparison: the same per-day aggregate straight over usage_events (what the roll-up spares).
  await time('(comparison) per-day count over usage_events', () =>
    rowsOf(
      db,
      sql`select (created_at at time zone 'UTC')::date as day, count(*) from usage_events
        where caller_account_id = ${caller} and created_at >= ${from}::date group by 1`,
    ),
  );
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
