import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealth, ZHealthUnavailable } from '@air/shared/schemas/operations';
import { findGatewayState } from '../gateway/state';

/**
 * `GET /healthz`: 200 after a real `select 1`, 503 when the database does not answer. With
 * REDIS_URL, `redis` says whether the gateway counts quotas and rate limits in Redis (`up`) or,
 * Redis being unreachable, in this instance only (`down`): the instance keeps serving, degraded.
 */
export function registerHealth(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: 200 after a real database query, 503 when the database does not answer',
        security: [],
        response: {
          200: ZHealth,
          503: ZHealthUnavailable,
        },
      },
    },
    async (request, reply) => {
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
