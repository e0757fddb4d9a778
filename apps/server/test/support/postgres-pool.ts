import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runDatabasePrefix, withDatabaseName } from '../global-setup';
import { PUBLIC_TABLES_SQL, SCHEMA_FINGERPRINT_SQL } from './schema-fingerprint';

/*
 * The PostgreSQL pass's databases, reused by the test apps of one vitest worker as
 * embedded-pool.ts reuses the embedded ones. Cloning the migrated template takes 0.1-0.3 s, but
 * dropping a database takes 1.4-1.7 s on this machine (DROP DATABASE waits for a checkpoint), and
 * nearly every test made and dropped at least one: most of the pass was spent in DROP DATABASE. A
 * database a test app gives back is emptied (every row deleted) for the next test app, unless
 * the test changed its schema or left a connection open to it: then it is dropped and the next one
 * is a new clone. The ones left idle when the worker ends are dropped by the global teardown, which
 * finds them by the run's tag in their names (global-setup.ts).
 */

interface TPooled {
  name: string;
  /** The schema as cloned; a database whose schema differs from it is not reused. */
  schema: string;
  /** Deletes every row and restarts the sequences. */
  empty: string;
}

const idle: TPooled[] = [];
const known = new Map<string, TPooled>();

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function clone(serverUrl: string, template: string): Promise<string> {
  const name = `${runDatabasePrefix(template)}${process.pid}_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, async (admin) => {
    // Parallel clones of one template can briefly collide ("being accessed by other users"): retry.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  return name;
}

export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  known.delete(name);
  await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

const PUBLIC_SEQUENCES_SQL = `select quote_literal(quote_ident(sequencename)) as name, start_value as start
  from pg_sequences where schemaname = 'public'`;

/**
 * DELETE, not TRUNCATE: a test leaves a few rows, and deleting them takes a few milliseconds where
 * truncating the 45 tables takes 0.5-1 s (a new file per table and index). Foreign keys and
 * triggers are off for it (`session_replication_role`, the test server's superuser may set it), so
 * the order of the tables does not matter.
 */
function emptying(tables: { name: string }[], sequences: { name: string; start: string }[]): string {
  return [
    'begin',
    'set local session_replication_role = replica',
    ...tables.map((table) => `delete from ${table.name}`),
    ...sequences.map((sequence) => `select setval(${sequence.name}, ${Number(sequence.start)}, false)`),
    'commit',
  ].join(';\n');
}

/** The name of an empty migrated database: one given back by an earlier test, or a new clone. */
export async function takePostgresDatabase(serverUrl: string, template: string): Promise<string> {
  const reused = idle.pop();
  if (reused) return reused.name;
  const name = await clone(serverUrl, template);
  try {
    const pooled = await withClient(withDatabaseName(serverUrl, name), async (client) => ({
      name,
      schema: ((await client.query(SCHEMA_FINGERPRINT_SQL)).rows[0] as { schema: string }).schema,
      empty: emptying(
        (await client.query(PUBLIC_TABLES_SQL)).rows as { name: string }[],
        (await client.query(PUBLIC_SEQUENCES_SQL)).rows as { name: string; start: string }[],
      ),
    }));
    known.set(name, pooled);
  } catch (error) {
    await dropPostgresDatabase(serverUrl, name);
    throw error;
  }
  return name;
}

/**
 * Empties a database whose every connection the test app has closed, for the next test; drops it
 * when it cannot be reused.
 */
export async function givePostgresDatabaseBack(serverUrl: string, name: string): Promise<void> {
  const pooled = known.get(name);
  if (pooled) {
    try {
      const reusable = await withClient(withDatabaseName(serverUrl, name), async (client) => {
        const others = await client.query(
          'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        if ((others.rows[0] as { n: number }).n > 0) return false;
        const { rows } = await client.query(SCHEMA_FINGERPRINT_SQL);
        if ((rows[0] as { schema: string }).schema !== pooled.schema) return false;
        await client.query(pooled.empty);
        return true;
      });
      if (reusable) {
        idle.push(pooled);
        return;
      }
    } catch {
      // Broken by the test: dropped below, a new clone will be made.
    }
  }
  await dropPostgresDatabase(serverUrl, name);
}
