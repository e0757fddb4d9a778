import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, loadConfig, type TConfig } from './config';
import { openDatabase } from './db/client';
import { migrateDatabase } from './db/migrate';
import { mailStatus } from './mail/mailer';

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
  let address = config.appUrl;
  try {
    const { applied } = await migrateDatabase(database);
    if (applied > 0) console.log(`Applied ${applied} database migration${applied === 1 ? '' : 's'}`);
    app = await buildApp(config, { database });
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    console.error((error as Error).message);
    await app?.close().catch(() => {});
    await database.close();
    process.exit(1);
  }
  // PORT=0 picks a free port: name the one actually bound.
  const url = config.port === 0 ? address : config.appUrl;
  // One line, once: the address, the database and where mail goes (the dev outbox's address).
  console.log(
    `AIR is running at ${url} (${database.driver} database, ${mailStatus({ ...config, appUrl: url })})`,
  );

  // SIGINT/SIGTERM close the server (in-flight requests finish) and the database; a hung
  // connection cannot keep the process alive past 10 s.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app!.log.error({ err }, 'stopping after an uncaught error');
    else app!.log.info({ signal }, 'shutting down');
    try {
      await app!.close();
    } finally {
      await database.close();
    }
  });
}

await main();
