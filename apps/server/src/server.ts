import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, loadConfig, type TConfig } from './config';
import { openDatabase, type TDatabase } from './db/client';
import { migrateDatabase } from './db/migrate';
import { mailStatus } from './mail/mailer';
import { drainAndClose } from './core/shutdown';
import { startLine } from './lib/start-line';
import { databaseProblem, listenProblem, oneLine, redisProblem } from './lib/start-checks';

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

  // Start lines: plain for a person in a terminal, JSON like every other line in production.
  const say = startLine(config);

  // Each problem that stops the start names its variable, in one line, before migrations run.
  let database: TDatabase;
  try {
    database = await openDatabase(config);
  } catch (error) {
    const variable = config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR';
    console.error(`${variable}: cannot open the database (${oneLine(error)})`);
    process.exit(1);
  }
  const databaseError = await databaseProblem(database, config);
  if (databaseError) {
    console.error(databaseError);
    await database.close();
    process.exit(1);
  }
  // Not fatal (the gateway counts locally meanwhile), but said at once instead of never.
  const redisError = await redisProblem(config);
  if (redisError) console.error(redisError);

  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let address = config.appUrl;
  try {
    const { applied } = await migrateDatabase(database);
    if (applied > 0) say(`Applied ${applied} database migration${applied === 1 ? '' : 's'}`);
    app = await buildApp(config, { database });
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    console.error(listenProblem(error, config) ?? oneLine(error));
    await app?.close().catch(() => {});
    await database.close();
    process.exit(1);
  }
  // PORT=0 picks a free port: name the one actually bound.
  const url = config.port === 0 ? address : config.appUrl;
  // One line, once: the address, the database and where mail goes (the dev outbox's address).
  say(`AIR is running at ${url} (${database.driver} database, ${mailStatus({ ...config, appUrl: url })})`);

  // SIGINT/SIGTERM: a graceful stop (core/shutdown.ts): /healthz answers 503 `draining` for
  // SHUTDOWN_DELAY_MS, then the server stops accepting, in-flight calls and streams finish within
  // SHUTDOWN_TIMEOUT_MS, the meter writes its rows, the database closes. A stop that still hangs
  // 15 s past those ends the process anyway.
  const grace = closeWithGrace(
    { delay: config.shutdownDelayMs + config.shutdownTimeoutMs + 15_000, skip: ['SIGINT'] },
    async ({ signal, err, manual }) => {
      if (err) app!.log.error({ err }, 'stopping after an uncaught error');
      else app!.log.info({ signal: manual ? 'SIGINT' : signal }, 'shutting down');
      try {
        if (err) await app!.close();
        else
          await drainAndClose(app!, {
            delayMs: config.shutdownDelayMs,
            timeoutMs: config.shutdownTimeoutMs,
          });
      } finally {
        await database.close();
      }
    },
  );
  // Ctrl-C on `npm start` in a terminal reaches the server twice at once: the terminal signals the
  // whole foreground group, and npm forwards its own copy. That is one key press, not the "second
  // signal" that stops without waiting; a SIGINT a second or more after the first still is.
  let interruptedAt = 0;
  process.on('SIGINT', () => {
    if (interruptedAt === 0) {
      interruptedAt = Date.now();
      void grace.close();
    } else if (Date.now() - interruptedAt >= 1000) {
      console.error('second SIGINT, exiting');
      process.exit(1);
    }
  });
}

await main();
