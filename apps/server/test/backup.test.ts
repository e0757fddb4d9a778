import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { runCli } from './instances';
import { createScratchDatabase } from './support/scratch-database';

/*
 * Issue 43 item 8: `cli backup` and `cli restore`. A demo account is made in one database, backed
 * up, restored into a fresh one (a new DATA_DIR, or a new PostgreSQL database in the PostgreSQL
 * pass), and the restored one serves the same account: its password signs in, its endpoints are
 * there and its API key (stored encrypted with SECRET) still works.
 */

const info = inject('airTestDb');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'air-backup-'));
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(scratch, { recursive: true, force: true });
});

/** A fresh place for a database: an embedded DATA_DIR, or a new PostgreSQL database. */
async function freshDatabase(name: string): Promise<Record<string, string>> {
  const dataDir = path.join(scratch, name);
  if (info.kind !== 'postgres') return { DATA_DIR: dataDir, DATABASE_URL: '' };
  const database = await createScratchDatabase(info.url, `air_${name}`);
  drops.push(database.drop);
  return { DATA_DIR: dataDir, DATABASE_URL: database.url };
}

it('a backup restored into a fresh database serves the same account', async () => {
  const original = await freshDatabase('original');
  const seeded = runCli(['seed-demo', 'backup@example.com'], original);
  const password = /with password (\S+)/.exec(seeded)![1]!;
  const apiKey = /Gateway key \(shown once\): (\S+)/.exec(seeded)![1]!;

  const file = path.join(scratch, 'air.backup');
  const written = runCli(['backup', file], original);
  expect(written).toContain(`Backup written to ${file}`);
  expect(written).toContain('Keep SECRET');

  const restored = await freshDatabase('restored');
  expect(runCli(['restore', file], restored)).toContain(`Restored ${file}`);
  // A restore never overwrites a database.
  expect(() => runCli(['restore', file], restored)).toThrow(/DATA_DIR|DATABASE_URL/);

  const config = loadConfig({
    NODE_ENV: 'test',
    SECRET: 'test-secret-that-is-at-least-32-characters-long',
    ...restored,
  });
  const database = await openDatabase(config);
  const app = await buildApp(config, { database });
  try {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { email: 'backup@example.com', password },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const byKey = await app.inject({
      url: '/api/aiendpoint',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(byKey.statusCode).toBe(200);
    expect((byKey.json() as { data: unknown[] }).data).toHaveLength(3);
  } finally {
    await app.close();
    await database.close();
  }
}, 400_000);
