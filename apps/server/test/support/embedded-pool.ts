import { sql } from 'drizzle-orm';
import { afterAll } from 'vitest';
import { embeddedOf, openDatabase, type TDatabase } from '../../src/db/client';
import { rowsOf } from '../../src/modules/usage/insight';
import { PUBLIC_TABLES_SQL, SCHEMA_FINGERPRINT_SQL } from './schema-fingerprint';

/*
 * Embedded databases reused by the test apps of one vitest worker (the server project runs its
 * files in one module context, `isolate: false`, so this pool outlives a file). Opening one (a thread, PGlite's WASM, the
 * migrated tarball) takes 1.5-2 s on this machine, several times what most tests take; emptying
 * one takes a few milliseconds. A database a test app gives back is emptied (every table truncated,
 * session state discarded) and handed to the next test app, unless the test changed the schema
 * (a trigger, a table, a column) or left work running in it: then it is closed and the next test
 * gets a new one. Either way each test starts from the migrated, empty database.
 */

interface TPooled {
  database: TDatabase;
  /** The schema as migrated; a database whose schema differs from it is not reused. */
  schema: string;
  tables: string[];
}

const idle: TPooled[] = [];
const known = new WeakMap<TDatabase, TPooled>();

// An open embedded database keeps its thread, and the process, alive: the idle ones are closed
// after the first file that imports this module (later files' ones end with the worker).
afterAll(async () => {
  await Promise.all(idle.splice(0).map(({ database }) => database.close()));
});

async function fingerprint(database: TDatabase): Promise<string> {
  const [row] = await rowsOf<{ schema: string }>(database.db, sql.raw(SCHEMA_FINGERPRINT_SQL));
  return row!.schema;
}

/** An empty migrated embedded database: one given back by an earlier test, or a new one. */
export async function takeEmbeddedDatabase(dataDir: string, dump: Blob): Promise<TDatabase> {
  const reused = idle.pop();
  if (reused) return reused.database;
  const database = await openDatabase({ databaseUrl: undefined, dataDir }, { loadDataDir: dump });
  try {
    const tables = await rowsOf<{ name: string }>(database.db, sql.raw(PUBLIC_TABLES_SQL));
    known.set(database, {
      database,
      schema: await fingerprint(database),
      tables: tables.map((row) => row.name),
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Empties the database for the next test, or closes it when it cannot be reused. */
export async function giveBackEmbeddedDatabase(database: TDatabase): Promise<void> {
  const pooled = known.get(database);
  if (pooled && embeddedOf(database)?.idle) {
    try {
      if ((await fingerprint(database)) === pooled.schema) {
        await database.db.execute(sql.raw(`truncate ${pooled.tables.join(', ')} restart identity cascade`));
        await database.db.execute(sql`discard all`);
        idle.push(pooled);
        return;
      }
    } catch {
      // Closed or broken by the test: a new one will be opened.
    }
  }
  await database.close();
}
