import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type TDatabase } from '../src/db/client';
import { migrateDatabase } from '../src/db/migrate';
import { accounts, users } from '../src/db/schema';
import { threadsOf } from './support/threads';

// The embedded database itself (not a copy of the test dump): an on-disk PGlite in its worker thread,
// created on an empty folder (by a child process, see embedded-client.ts).
let database: TDatabase;
let dataDir = '';
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-embedded-'));
  database = await openDatabase({ databaseUrl: undefined, dataDir });
  await migrateDatabase(database);
}, 120_000);
afterAll(() => database?.close());

it('runs PostgreSQL off the event loop: timers keep firing while a slow statement runs', async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    // Pure CPU inside PostgreSQL; in-process PGlite would hold the event loop for all of it.
    await database.db.execute(sql`select count(*) from generate_series(1, 3000000) as s(n) where n % 7 = 3`);
  } finally {
    clearInterval(timer);
  }
  expect(ticks).toBeGreaterThan(0);
});

it.runIf(process.platform === 'linux')(
  "runs PostgreSQL's thread ten nice steps below the event loop, so the gateway's thread runs first",
  () => {
    const own = os.getPriority();
    const lowered = threadsOf(process.pid).filter((thread) => thread.nice === Math.min(19, own + 10));
    expect(lowered.length).toBeGreaterThan(0);
    expect(threadsOf(process.pid).find((thread) => thread.tid === process.pid)?.nice).toBe(own);
  },
);

it('commits a transaction whole and rolls a failed one back whole', async () => {
  const { db } = database;
  await db.transaction(async (tx) => {
    await tx.insert(accounts).values({ name: 'Committed' });
    await tx.insert(accounts).values({ name: 'Committed too' });
  });
  await expect(
    db.transaction(async (tx) => {
      await tx.insert(accounts).values({ name: 'Rolled back' });
      throw new Error('halfway');
    }),
  ).rejects.toThrow('halfway');
  const names = (await db.select({ name: accounts.name }).from(accounts)).map((row) => row.name).sort();
  expect(names).toEqual(['Committed', 'Committed too']);
});

it('keeps PostgreSQL error codes and date types across the thread boundary', async () => {
  const { db } = database;
  await db.insert(users).values({ email: 'same@example.test', name: 'One' });
  const failure = await db
    .insert(users)
    .values({ email: 'same@example.test', name: 'Two' })
    .then(() => undefined)
    .catch((error: Error & { cause?: { code?: string } }) => error);
  expect(failure?.cause?.code).toBe('23505');
  const [row] = await db.select().from(users).where(eq(users.email, 'same@example.test'));
  expect(row!.createdAt).toBeInstanceOf(Date);
});

it('refuses to create a database over a folder that holds files but no database, and leaves them', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-embedded-stray-'));
  mkdirSync(path.join(dataDir, 'db'));
  writeFileSync(path.join(dataDir, 'db', 'notes.txt'), 'mine');
  await expect(openDatabase({ databaseUrl: undefined, dataDir })).rejects.toThrow(
    /holds files but no database/,
  );
  expect(readdirSync(path.join(dataDir, 'db'))).toEqual(['notes.txt']);
  rmSync(dataDir, { recursive: true, force: true });
});

it('made the new database in place whole (no half-made folder left) and keeps its rows across a restart', async () => {
  await database.close();
  expect(readdirSync(dataDir)).toEqual(['db']);
  database = await openDatabase({ databaseUrl: undefined, dataDir });
  const names = (await database.db.select({ name: accounts.name }).from(accounts)).map((row) => row.name);
  expect(names.sort()).toEqual(['Committed', 'Committed too']);
}, 60_000);
