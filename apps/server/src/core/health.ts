import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealth, ZHealthUnavailable } from '@air/shared/schemas/operations';
import { findGatewayState } from '../gateway/state';
import { isDraining } from './shutdown';

/**
 * `GET /healthz`: 200 after a real `select 1`, 503 when the database does not answer, 503
 * `draining` once a graceful shutdown began (core/shutdown.ts: a balancer stops sending here). With
 * REDIS_URL, `redis` says whether the gateway counts quotas and rate limits in Redis (`up`) or,
 * Redis being unreachable, in this instance only (`down`): the instance keeps serving, degraded.
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
        const redisUp = findGatewayState(app)?.counters.redisUp() ?? null;
        if (redisUp === null) return { status: 'ok' as const };
        return { status: 'ok' as const, redis: redisUp ? ('up' as const) : ('down' as const) };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unavailable');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );
}
