import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/migrate';
import { killGroup, startAir, type TAirProcess } from './support/air-process';
import { createScratchDatabase } from './support/scratch-database';

const info = inject('airTestDb');
const started: TAirProcess[] = [];
let dropDatabase = async () => {};
const cleanups: (() => void)[] = [];
afterAll(async () => {
  for (const air of started) killGroup(air.child);
  await Promise.all(started.map((air) => air.exited));
  await dropDatabase();
  for (const cleanup of cleanups) cleanup();
});

it.runIf(info.kind === 'postgres')(
  'two instances booting at once on an empty PostgreSQL database migrate it once',
  async () => {
    if (info.kind !== 'postgres') return;
    const database = await createScratchDatabase(info.url, 'air_lock');
    dropDatabase = database.drop;
    const env = {
      DATABASE_URL: database.url,
      SECRET: 'lock-test-secret-at-least-32-characters',
    };

    // Two separate processes of the real server, started together, each with its own data folder
    // (never the repository's ./data).
    const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'air-lock-')));
    cleanups.push(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
    const both = await Promise.all(dirs.map((dir) => startAir('node', { ...env, DATA_DIR: dir })));
    started.push(...both);

    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const migrations = journal.entries.length;
    // Exactly one of them applied the migrations; the other waited for the lock and found none left.
    const appliedLines = both.map((air) => /Applied (\d+) database migration/.exec(air.output())?.[1]);
    expect(appliedLines.filter(Boolean)).toEqual([String(migrations)]);
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(rows[0].n).toBe(migrations);
    } finally {
      await client.end();
    }
    for (const air of both) expect((await fetch(`${air.url}/healthz`)).status).toBe(200);
  },
  240_000,
);
