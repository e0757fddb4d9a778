import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZHealth,
  ZHealthUnavailable,
  ZLiveness,
  ZReadiness,
  type THealth,
  type TReadiness,
} from '@air/shared/schemas/operations';
import { pendingMigrations } from '../db/migrate';
import { isDraining } from './shutdown';

/** What a part of the server adds to a healthy answer (the gateway: whether Redis counts). */
export type THealthPart = () => Omit<THealth, 'status'>;

const partsByServer = new WeakMap<object, THealthPart[]>();

/**
 * Adds a part's own fields to `/healthz` (the gateway adds `redis`). Core does not import the
 * parts: each hands its part over when it starts.
 */
export function addHealthPart(app: FastifyInstance, part: THealthPart): void {
  const parts = partsByServer.get(app.server) ?? [];
  parts.push(part);
  partsByServer.set(app.server, parts);
}

/**
 * `GET /healthz`: 200 after a real `select 1` (with each part's fields), 503 when the database does
 * not answer, 503 `draining` once a graceful shutdown began (core/shutdown.ts: a balancer stops
 * sending here).
 */
export function registerHealth(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary:
          'Readiness: 200 after a real database query, 503 when the database does not answer or the instance is shutting down',
        security: [],
        response: {
          200: ZHealth,
          503: ZHealthUnavailable,
        },
      },
    },
    async (request, reply) => {
      if (isDraining(app)) return reply.status(503).send({ status: 'draining' as const });
      try {
        await app.database.ping();
        const answer: THealth = { status: 'ok', ...partsOf(app) };
        return answer;
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unavailable');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );
}

/** The parts' fields together (the gateway's `redis`), as `/healthz` and `/readyz` report them. */
function partsOf(app: FastifyInstance): Omit<THealth, 'status'> {
  let fields: Omit<THealth, 'status'> = {};
  for (const part of partsByServer.get(app.server) ?? []) fields = { ...fields, ...part() };
  return fields;
}

/** What `/readyz` checks, each on its own so the answer says which one failed. */
async function readinessChecks(app: FastifyInstance): Promise<TReadiness['checks']> {
  let database: 'up' | 'down' = 'up';
  let migrations: TReadiness['checks']['migrations'] = 'unknown';
  try {
    await app.database.ping();
    migrations = (await pendingMigrations(app.database)) === 0 ? 'applied' : 'pending';
  } catch {
    database = 'down';
  }
  const { redis } = partsOf(app);
  return { database, migrations, ...(redis ? { redis } : {}), draining: isDraining(app) };
}

/**
 * `GET /livez` and `GET /readyz`, for an orchestrator's liveness and readiness probes (decision
 * 046). Liveness checks nothing outside the process: a database outage must not restart every
 * instance. Readiness fails while the database, its migrations or a configured Redis is missing,
 * and once a graceful shutdown began.
 */
export function registerProbes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/livez',
    {
      schema: {
        operationId: 'getLiveness',
        tags: ['operations'],
        summary: 'Liveness: 200 while the process answers',
        security: [],
        response: { 200: ZLiveness },
      },
    },
    async () => ({ status: 'alive' as const }),
  );
  typed.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness: 200 when the database, its migrations and Redis (when configured) are there',
        description:
          '503 `not_ready` when the database does not answer, a migration is not applied or a configured Redis does not answer; 503 `draining` once a graceful shutdown began.',
        security: [],
        response: { 200: ZReadiness, 503: ZReadiness },
      },
    },
    async (request, reply) => {
      const checks = await readinessChecks(app);
      const ready = checks.database === 'up' && checks.migrations === 'applied' && checks.redis !== 'down';
      if (checks.draining) return reply.status(503).send({ status: 'draining' as const, checks });
      if (ready) return { status: 'ready' as const, checks };
      request.log.debug({ checks }, 'readiness: not ready');
      return reply.status(503).send({ status: 'not_ready' as const, checks });
    },
  );
}
