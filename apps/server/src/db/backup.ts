import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TConfig } from '../config';
import { createDatabase } from './embedded-client';
import { openDatabase, SMALL_INSTALL_SETTINGS } from './client';

/**
 * Backups (issue 43 item 8, decision 046). PostgreSQL: pg_dump's custom format, restored with
 * pg_restore into an empty database. The embedded database: PGlite's own `dumpDataDir` (a
 * tarball of its data folder taken by the database itself, so it is consistent), restored
 * into an empty DATA_DIR. Neither holds SECRET, which decrypts the stored keys: it is kept apart.
 */

type TBackupConfig = Pick<TConfig, 'databaseUrl' | 'dataDir'>;

/** The URL for a PostgreSQL tool without its password, which goes in PGPASSWORD (never in `ps`). */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(tool, args, { env, encoding: 'utf8' });
  if (result.error)
    throw new Error(`${tool} could not run (${result.error.message}): install the PostgreSQL client tools`);
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr.trim()}`);
}

/** The embedded database's folder: empty or absent means nothing to overwrite. */
function embeddedFolder(config: TBackupConfig): string {
  return path.join(config.dataDir, 'db');
}

/** Writes a backup of the configured database to `file`; answers which kind it wrote. */
export async function backupDatabase(config: TBackupConfig, file: string): Promise<'pg_dump' | 'embedded'> {
  if (config.databaseUrl) {
    const { dbname, env } = libpq(config.databaseUrl);
    run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${dbname}`], env);
    return 'pg_dump';
  }
  if (!existsSync(embeddedFolder(config)))
    throw new Error(`DATA_DIR: no embedded database in ${config.dataDir}`);
  const database = await openDatabase(config);
  try {
    if (database.driver !== 'pglite') throw new Error('expected the embedded database');
    const dump = await database.embedded.dumpDataDir();
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
  return 'embedded';
}

/** Restores `file` (a backupDatabase file) into the configured database, which must be empty. */
export async function restoreDatabase(config: TBackupConfig, file: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const used = await client.query(
        "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
      );
      if (Number(used.rows[0].n) > 0)
        throw new Error('DATABASE_URL: the database is not empty; restore into a new, empty database');
    } finally {
      await client.end();
    }
    const { dbname, env } = libpq(config.databaseUrl);
    run(
      'pg_restore',
      ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file],
      env,
    );
    return;
  }
  const folder = embeddedFolder(config);
  if (existsSync(folder) && readdirSync(folder).length > 0)
    throw new Error(`DATA_DIR: ${folder} already holds a database; restore into an empty DATA_DIR`);
  // Made in a child process from the backup, as a new database is from the build's template:
  // in a sibling folder renamed into place, so a restore cut short leaves no half-made database.
  await createDatabase(folder, SMALL_INSTALL_SETTINGS, path.resolve(file));
}
