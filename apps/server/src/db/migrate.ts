import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { TDatabase } from './client';

/** The generated SQL migrations, resolved from this file (not the working directory). */
export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../drizzle');

/**
 * Session-level advisory lock key ("AIR" + 1) held while migrating PostgreSQL: instances that boot
 * together wait for the first one instead of racing on the same DDL.
 */
export const MIGRATION_LOCK_KEY = 0x41495201;

type TQuery = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/** How many migrations the database records as applied (0 before the first one). */
async function countApplied(query: TQuery): Promise<number> {
  const exists = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`);
  if (!exists.rows[0]!.ok) return 0;
  return Number((await query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]!.n);
}

/**
 * Applies every pending migration (idempotent; drizzle records applied ones) and returns how many
 * this call applied. On PostgreSQL it runs under an advisory lock on its own connection.
 */
export async function migrateDatabase(database: TDatabase): Promise<{ applied: number }> {
  if (database.driver === 'pglite') {
    const query: TQuery = async (text) =>
      (await database.db.execute(sql.raw(text))) as { rows: Record<string, unknown>[] };
    const count = () => countApplied(query);
    const before = await count();
    await migratePglite(database.pglite, { migrationsFolder: MIGRATIONS_FOLDER });
    return { applied: (await count()) - before };
  }
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const count = () => countApplied((text) => client.query(text));
      const before = await count();
      await migratePg(drizzlePg(client) as NodePgDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
      return { applied: (await count()) - before };
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

let journalEntries: number | undefined;

/** How many migrations this build ships (drizzle's journal), read once. */
function shippedMigrations(): number {
  journalEntries ??= (
    JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;
  return journalEntries;
}

/**
 * How many of this build's migrations the database has not applied (readiness, `/readyz`): 0 once
 * they all are. A database migrated by a newer build (more rows) counts as applied.
 */
export async function pendingMigrations(database: TDatabase): Promise<number> {
  const query: TQuery = async (text) =>
    (await database.db.execute(sql.raw(text))) as { rows: Record<string, unknown>[] };
  return Math.max(0, shippedMigrations() - (await countApplied(query)));
}
