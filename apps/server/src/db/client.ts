import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { TConfig } from '../config';
import { EmbeddedClient, type TBatchStatement } from './embedded-client';

export type { TBatchStatement };
import * as schema from './schema';

export type TSchema = typeof schema;

/** The driver-agnostic database type every service takes: PGlite and node-postgres both fit. */
export type TDb = PgDatabase<PgQueryResultHKT, TSchema>;
/** A transaction handle (`db.transaction(async (tx) => …)`), usable wherever a TDb is. */
export type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];

export type TDriver = 'pglite' | 'postgres';

interface TDatabaseBase {
  db: TDb;
  driver: TDriver;
  /** Runs `select 1`: throws when the database cannot answer. */
  ping(): Promise<void>;
  /** Closes the pool or the embedded database (an unclosed PGlite keeps Node alive). */
  close(): Promise<void>;
  /**
   * Embedded only: statements run in one transaction in one message to the database thread, one
   * of them may `COPY … FROM '/dev/blob'` its `copyText` (the meter's batches, decision 027).
   */
  batch?: (statements: TBatchStatement[]) => Promise<void>;
}

/** PostgreSQL, with its pool: migrations hold an advisory lock on one connection of it. */
export interface TPostgresDatabase extends TDatabaseBase {
  driver: 'postgres';
  pool: pg.Pool;
}

/** The embedded database: `db` as the PGlite type its migrator takes, and its client (tests dump it). */
export interface TEmbeddedDatabase extends TDatabaseBase {
  driver: 'pglite';
  pglite: PgliteDatabase<TSchema>;
  embedded: EmbeddedClient;
}

export type TDatabase = TPostgresDatabase | TEmbeddedDatabase;

export interface TOpenDatabaseOptions {
  /** Embedded only: start from a `dumpDataDir()` tarball instead of the data dir (tests). */
  loadDataDir?: Blob;
  /** Embedded only: keep the database in memory instead of `DATA_DIR/db`. */
  inMemory?: boolean;
}

export async function openDatabase(
  config: Pick<TConfig, 'databaseUrl' | 'dataDir'>,
  options: TOpenDatabaseOptions = {},
): Promise<TDatabase> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle client that loses its server must not crash the process: the next query reports it.
    pool.on('error', () => {});
    const db: TDb = drizzlePg(pool, { schema });
    return {
      db,
      driver: 'postgres',
      pool,
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        if (pool.ended || pool.ending) return;
        await pool.end();
      },
    };
  }
  let dataDir: string | undefined;
  if (!options.inMemory && !options.loadDataDir) {
    dataDir = path.join(config.dataDir, 'db');
    mkdirSync(dataDir, { recursive: true });
  }
  const client = await EmbeddedClient.start({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: await options.loadDataDir.arrayBuffer() } : {}),
    postgresqlconf: SMALL_INSTALL_SETTINGS,
  });
  const pglite = drizzlePglite(client as never, { schema });
  return {
    db: pglite,
    driver: 'pglite',
    pglite,
    embedded: client,
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
    batch: (statements) => client.batch(statements),
  };
}

/**
 * PostgreSQL memory settings for the embedded database: one process and a handful of connections'
 * worth of work, not a server's defaults. PostgreSQL zeroes its shared buffers at start, so all of
 * shared_buffers is resident from the first second (8 MB: 1,024 pages; a page not in them is read
 * from the operating system's file cache).
 */
export const SMALL_INSTALL_SETTINGS = [
  'shared_buffers = 8MB',
  'work_mem = 2MB',
  'maintenance_work_mem = 16MB',
  'temp_buffers = 2MB',
  'wal_buffers = 1MB',
];

/** The embedded database's client (tests dump it), or undefined on PostgreSQL. */
export function embeddedOf(database: TDatabase): EmbeddedClient | undefined {
  return database.driver === 'pglite' ? database.embedded : undefined;
}
