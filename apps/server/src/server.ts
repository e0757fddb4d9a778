import { buildApp } from './app';
import { ConfigError, loadConfig, type TConfig } from './config';
import { openDatabase } from './db/client';
import { migrateDatabase } from './db/migrate';

/** The only file that listens: config, database + migrations, app, listen, graceful shutdown. */
async function main() {
  let config: TConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.lines) console.error(line);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrateDatabase(database);
    app = await buildApp(config, { database });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    console.error((error as Error).message);
    await app?.close().catch(() => {});
    await database.close();
    process.exit(1);
  }
  console.log(`AIR is running at ${config.appUrl} (${database.driver} database)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app!.log.info({ signal }, 'shutting down');
    // A hung connection must not keep the process alive forever.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app!.close();
    } finally {
      await database.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

await main();
