import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp, type TApp, type TBuildAppOptions } from '../src/app';
import { loadConfig, type TConfig } from '../src/config';
import { openDatabase, type TDatabase, type TDb } from '../src/db/client';
import { withDatabaseName } from './global-setup';
import { giveBackEmbeddedDatabase, takeEmbeddedDatabase } from './support/embedded-pool';
import { givePostgresDatabaseBack, takePostgresDatabase } from './support/postgres-pool';

export interface TTestApp {
  app: TApp;
  db: TDb;
  database: TDatabase;
  config: TConfig;
  close(): Promise<void>;
}

let dumpCache: { file: string; blob: Blob } | undefined;

function pgliteDump(file: string): Blob {
  if (dumpCache?.file !== file) dumpCache = { file, blob: new Blob([readFileSync(file)]) };
  return dumpCache.blob;
}

/**
 * A fresh app on a fresh migrated database (embedded from the global dump, emptied and reused
 * within a test file, see support/embedded-pool.ts; or a PostgreSQL clone of the template when
 * AIR_TEST_DB=postgres, reused the same way: support/postgres-pool.ts). Always `await close()` (afterEach/afterAll).
 */
export async function createTestApp(
  configOverrides: Partial<TConfig> = {},
  options: Omit<TBuildAppOptions, 'database'> = {},
): Promise<TTestApp> {
  const info = inject('airTestDb');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-test-'));
  const config: TConfig = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SECRET: 'test-secret-that-is-at-least-32-characters-long',
    }),
    ...configOverrides,
  };

  // Closes the database and drops the clone, or gives the embedded database back to the pool.
  let database: TDatabase;
  let releaseDatabase: () => Promise<void>;
  if (info.kind === 'postgres') {
    const name = await takePostgresDatabase(info.url, info.template);
    database = await openDatabase({ databaseUrl: withDatabaseName(info.url, name), dataDir });
    releaseDatabase = async () => {
      await database.close();
      await givePostgresDatabaseBack(info.url, name);
    };
  } else {
    database = await takeEmbeddedDatabase(dataDir, pgliteDump(info.dumpFile));
    releaseDatabase = () => giveBackEmbeddedDatabase(database);
  }

  let app: TApp;
  try {
    app = await buildApp(config, { ...options, database });
  } catch (error) {
    await releaseDatabase();
    throw error;
  }

  let closed = false;
  return {
    app,
    db: database.db,
    database,
    config,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        await releaseDatabase();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
