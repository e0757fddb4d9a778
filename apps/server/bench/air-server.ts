// AIR as the benchmark runs it: the real buildApp on a fresh DATA_DIR (embedded database), one
// account on an unlimited plan, one key and one endpoint pointing at the mock upstream. Prints
// `{"port":N,"key":"air_…","route":"bench/mock"}` when listening. Run with `node --import tsx`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { accounts, aiEndpoints, apiKeys } from '../src/db/schema';
import { encryptSecret, randomBase62, sha256 } from '../src/lib/crypto';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-bench-'));
const plansFile = path.join(dataDir, 'plans.json');
const plan = { currency: 'usd', currency_symbol: '$', interval: 'month', type: 'flat' };
writeFileSync(
  plansFile,
  JSON.stringify({
    plans: [
      {
        ...plan,
        id: 'free',
        name: 'Free',
        price: 0,
        quota_calls_month: 1000,
        rate_limit_per_minute: 60,
        sort: 0,
      },
      {
        ...plan,
        id: 'bench',
        name: 'Bench',
        price: 1,
        quota_calls_month: 2_000_000_000,
        rate_limit_per_minute: 2_000_000_000,
        sort: 1,
      },
    ],
  }),
);
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  SECRET: 'bench-secret-that-is-at-least-32-characters',
  DATA_DIR: dataDir,
  // BENCH_DATABASE_URL: run AIR on PostgreSQL instead of the embedded database.
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
  REDIS_URL: '',
  PLANS_FILE: plansFile,
  UPSTREAM_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'warn',
  PORT: '0',
});
const app = await buildApp(config);
const [account] = await app.db.insert(accounts).values({ name: 'Bench', planId: 'bench' }).returning();
const key = `air_${randomBase62(40)}`;
await app.db.insert(apiKeys).values({
  accountId: account!.id,
  name: 'bench',
  keyHash: sha256(key),
  keyEnc: encryptSecret(config.secret, key),
  keyPrefix: key.slice(0, 8),
  scope: ['gateway.invoke'],
});
// Unique per run: a PostgreSQL bench database keeps earlier runs' rows.
const route = `bench/mock-${randomBase62(8).toLowerCase()}`;
await app.db.insert(aiEndpoints).values({
  accountId: account!.id,
  name: 'bench',
  routeName: route,
  routeEndpoint: `${values.upstream}/v1/chat/completions`,
  routeType: 'model',
});
// BENCH_CPU_PROFILE=file: profile only the loaded server (start-up and migrations excluded).
const profileFile = process.env.BENCH_CPU_PROFILE;
let stopProfile = async () => {};
if (profileFile) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  stopProfile = async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
  };
}
// BENCH_LOOP_DELAY=1: report this process's event-loop delay on exit, to tell AIR's own stalls
// (metering, GC) from the machine's scheduling.
const { monitorEventLoopDelay } = await import('node:perf_hooks');
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
if (process.env.BENCH_LOOP_DELAY) loopDelay.enable();
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(JSON.stringify({ port: Number(new URL(address).port), key, route }) + '\n');
const stop = async () => {
  await stopProfile();
  if (process.env.BENCH_LOOP_DELAY) {
    const ms = (ns: number) => (ns / 1e6).toFixed(2);
    process.stderr.write(
      `AIR event-loop delay: p50 ${ms(loopDelay.percentile(50))} ms, p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms\n`,
    );
  }
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
