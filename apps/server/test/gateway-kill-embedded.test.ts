import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { TDb } from '../src/db/client';
import * as schema from '../src/db/schema';
import {
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  writeTestPlans,
  type TMockUpstream,
} from './gateway-fixtures';
import { call, startInstance, type TInstance } from './instances';

const SECRET = 'test-secret-that-is-at-least-32-characters-long';

// The PostgreSQL pass runs the same check in gateway-instances.test.ts.
describe.runIf(process.env.AIR_TEST_DB !== 'postgres')('the embedded database under kill -9', () => {
  let dir = '';
  let upstream: TMockUpstream | undefined;
  let instance: TInstance | undefined;

  afterAll(async () => {
    await instance?.stop();
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('loses no call the client saw succeed when the server is killed (-9) under load', async () => {
    const info = inject('airTestDb');
    if (info.kind !== 'pglite') throw new Error('needs the embedded test database');
    dir = mkdtempSync(path.join(os.tmpdir(), 'air-kill-'));
    upstream = await startMockUpstream();

    // The instance's own database, from the migrated test dump, with a caller written into it.
    const client = await PGlite.create({
      dataDir: path.join(dir, 'db'),
      loadDataDir: new Blob([readFileSync(info.dumpFile)]),
    });
    const db: TDb = drizzle(client, { schema });
    // No plan row yet (the server writes them at start): a null plan is the free plan.
    const account = await insertAccount(db, 'Killed', null);
    const key = await insertKey(db, SECRET, account.id);
    const reader = await insertKey(db, SECRET, account.id, ['usage.read']);
    const routeName = 'kill/embedded';
    await insertEndpoint(db, SECRET, account.id, { routeName, routeEndpoint: `${upstream.url}/ok` });
    await client.close();

    // Free plan: 1,000 calls a minute and a month, so the load meets no limit.
    const env = { DATA_DIR: dir, SECRET, PLANS_FILE: writeTestPlans(dir) };
    instance = await startInstance(env);
    let succeeded = 0;
    let failed = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const status = await call(instance!.url, key.raw, routeName);
        if (status === 200) succeeded++;
        else failed++;
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await expect.poll(() => succeeded, { timeout: 60_000 }).toBeGreaterThanOrEqual(100);
    await instance.kill9();
    stop = true;
    await Promise.all(workers);
    const seen = succeeded;

    // The restarted server replays its journal before it serves; `served` counts the stored rows.
    instance = await startInstance(env);
    const response = await fetch(`${instance.url}/api/account/usage`, {
      headers: { authorization: `Bearer ${reader.raw}` },
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { label: string; total: number }[] };
    const stored = data.find((row) => row.label === 'served')!.total;
    // Every success is stored; beyond them only calls cut off in flight (stored as 499).
    expect(stored).toBeGreaterThanOrEqual(seen);
    expect(stored).toBeLessThanOrEqual(seen + failed);
    // The quota counter, seeded from the stored rows, agrees with them.
    expect(data.find((row) => row.label === 'calls')!.total).toBe(stored);
  }, 240_000);
});
