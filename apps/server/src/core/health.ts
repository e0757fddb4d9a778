import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealth, ZHealthUnavailable, type THealth } from '@air/shared/schemas/operations';
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
        let answer: THealth = { status: 'ok' };
        for (const part of partsByServer.get(app.server) ?? []) answer = { ...answer, ...part() };
        return answer;
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unavailable');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );
}
