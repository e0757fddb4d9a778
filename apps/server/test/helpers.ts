import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type TApp, type TBuildAppOptions } from '../src/app';
import { loadConfig, type TConfig } from '../src/config';
import { openDatabase, type TDatabase, type TDb } from '../src/db/client';
import { withDatabaseName } from './global-setup';
import { giveBackEmbeddedDatabase, takeEmbeddedDatabase } from './support/embedded-pool';

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

async function createPostgresDatabase(url: string, template: string): Promise<string> {
  const name = `air_t_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // Parallel clones of one template can briefly collide ("being accessed by other users"): retry.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        break;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  return name;
}

async function dropPostgresDatabase(url: string, name: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh app on a fresh migrated database (embedded from the global dump, emptied and reused
 * within a test file, see support/embedded-pool.ts; or a PostgreSQL clone of the template when
 * AIR_TEST_DB=postgres). Always `await close()` (afterEach/afterAll).
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
    const name = await createPostgresDatabase(info.url, info.template);
    database = await openDatabase({ databaseUrl: withDatabaseName(info.url, name), dataDir });
    releaseDatabase = async () => {
      await database.close();
      await dropPostgresDatabase(info.url, name);
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
