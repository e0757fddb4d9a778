import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { embeddedOf, openDatabase } from '../src/db/client';
import { migrateDatabase } from '../src/db/migrate';

export type TTestDbInfo =
  { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; url: string; template: string };

declare module 'vitest' {
  export interface ProvidedContext {
    airTestDb: TTestDbInfo;
  }
}

/** Git-ignored scratch folder at the repository root. */
export const TEST_DATA_ROOT = path.resolve(import.meta.dirname, '../../../.data-test');

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** The prefix of a run's test databases (support/postgres-pool.ts); the teardown drops what is left. */
export const runDatabasePrefix = (template: string) => `air_t_${template.replace(/^air_tpl_/, '')}_`;

/**
 * Migrates ONCE per test run; every createTestApp then starts from a copy. Embedded: a
 * `dumpDataDir` tarball (~0.4 s to load vs ~3 s to create). PostgreSQL (AIR_TEST_DB=postgres with
 * TEST_DATABASE_URL): a migrated template database that each test app clones.
 */
export default async function setup(project: TestProject) {
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  if (process.env.AIR_TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url)
      throw new Error(
        'AIR_TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
      );
    const template = `air_tpl_${tag}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${template}"`);
    await admin.end();
    const database = await openDatabase({
      databaseUrl: withDatabaseName(url, template),
      dataDir: TEST_DATA_ROOT,
    });
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
    project.provide('airTestDb', { kind: 'postgres', url, template });
    return async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      // The test apps' databases the workers left idle (support/postgres-pool.ts), then the template.
      const left = await client.query('select datname from pg_database where starts_with(datname, $1)', [
        runDatabasePrefix(template),
      ]);
      for (const { datname } of left.rows as { datname: string }[])
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
      await client.end();
    };
  }

  mkdirSync(TEST_DATA_ROOT, { recursive: true });
  const dumpFile = path.join(TEST_DATA_ROOT, `pglite-${tag}.tar`);
  const database = await openDatabase(
    { databaseUrl: undefined, dataDir: TEST_DATA_ROOT },
    { inMemory: true },
  );
  try {
    await migrateDatabase(database);
    const dump = await embeddedOf(database)!.dumpDataDir();
    writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('airTestDb', { kind: 'pglite', dumpFile });
  return () => rmSync(dumpFile, { force: true });
}
