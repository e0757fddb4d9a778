import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { withDatabaseName } from '../global-setup';

/**
 * A new, empty database on the test PostgreSQL server (`serverUrl`), for a test that starts real
 * server processes on it. `drop` removes it, connections and all.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  return {
    url: withDatabaseName(serverUrl, name),
    drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
