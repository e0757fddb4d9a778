import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TConfig } from './config';
import { loadPlans, seedPlans } from './modules/billing/service';
import { decorateConsolePage, DEFAULT_WEB_DIST, registerConsole } from './core/console';
import { trustOf, type TTrust } from './core/client-ip';
import { registerErrorHandler } from './core/error-handler';
import { serverWithFastLanes } from './core/fast-lanes';
import { registerHealth, registerProbes } from './core/health';
import { registerJsonBody } from './core/json-body';
import { registerModules, registerPlugins } from './core/load-modules';
import { registerOpenApi } from './core/openapi';
import { RequestLogController } from './core/request-log';
import { genReqId, registerRequestContext } from './core/request-context';
import { registerTracing } from './core/tracing';
import { registerSecurityHeaders } from './core/security-headers';
import { openDatabase, type TDatabase, type TDb } from './db/client';
import { migrateDatabase } from './db/migrate';

declare module 'fastify' {
  interface FastifyInstance {
    config: TConfig;
    /** The Drizzle database (PGlite or PostgreSQL, same type). */
    db: TDb;
    /** The database handle: driver, ping, close. */
    database: TDatabase;
    /** The plans offered, from the plans file, in display order. */
    plans: TPlan[];
  }
}

export interface TBuildAppOptions {
  /** An open, migrated database. When omitted, buildApp opens and migrates one and closes it with the app. */
  database?: TDatabase;
  /** The console build to serve (default apps/web/dist). */
  webDist?: string;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: { write(line: string): void };
  /** Sees every route as it is added (the OpenAPI test checks that each one is documented). */
  onRoute?: (route: RouteOptions) => void;
}

/** Log fields that must never reach a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.confirm_password',
  '*.token',
  '*.secret',
];

/** Builds the whole server (no listen): plugins, then modules, then the console. Tests call this. */
export async function buildApp(config: TConfig, options: TBuildAppOptions = {}) {
  const loggerOptions: FastifyServerOptions['logger'] = {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
  const trust = trustOf(config.trustProxy);
  const app = Fastify({
    serverFactory: serverWithFastLanes,
    logger: loggerOptions,
    logController: new RequestLogController(),
    genReqId,
    requestIdHeader: false,
    // One trust function for Fastify's request.ip and the gateway's fast lane (core/client-ip.ts).
    trustProxy: trust,
    bodyLimit: 1_048_576,
    // A request that reaches a closing server on a kept-alive connection is still answered (with
    // `Connection: close`), not refused with 503: the caller behind a balancer would see that 503.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The console API speaks JSON only: a text/plain body is refused (400) instead of reaching a
  // handler as a string. Features that need uploads add their own parser (e.g. multipart).
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);

  let database = options.database;
  if (!database) {
    database = await openDatabase(config);
    try {
      await migrateDatabase(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    const owned = database;
    app.addHook('onClose', async () => owned.close());
  }
  const plans = loadPlans(config.plansFile);
  await seedPlans(database.db, plans);

  app.decorate('config', config);
  app.decorate<TTrust>('clientTrust', trust);
  app.decorate<TDatabase>('database', database);
  app.decorate('db', database.db);
  app.decorate('plans', plans);

  // First: @fastify/otel must see every route as it is added (nothing when tracing is off).
  await registerTracing(app);
  registerRequestContext(app);
  registerErrorHandler(app);
  await registerSecurityHeaders(app, config);
  await registerOpenApi(app, config);
  registerHealth(app);
  registerProbes(app);
  await registerPlugins(app);
  decorateConsolePage(app, options.webDist ?? DEFAULT_WEB_DIST);
  await registerModules(app);
  await registerConsole(app, options.webDist ?? DEFAULT_WEB_DIST);
  // Not `ready()` yet: tests may add routes; `inject` and `listen` make it ready.
  return app;
}

export type TApp = Awaited<ReturnType<typeof buildApp>>;
