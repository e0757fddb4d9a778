import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { documentedAs } from '../../core/openapi';
import { ZErrorBody } from '@air/shared/schemas/common';
import { AppError } from '../../lib/app-error';
import { isLocalCaller } from '../../lib/local-caller';
import { gatewayMetrics } from './service';

const docs = documentedAs({
  tags: ['operations'],
  operationId: 'getMetrics',
  summary:
    'Prometheus metrics (text exposition format): to callers on the server itself, or with Authorization: Bearer METRICS_TOKEN',
  security: [],
  response: {
    200: { description: 'Prometheus text', content: { 'text/plain': { schema: z.string() } } },
    // 401 without the token when METRICS_TOKEN is set, else 404 to a caller from elsewhere.
    '4XX': ZErrorBody,
  },
});

/** Root path: Prometheus scrapes /metrics. */
export const prefix = '';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`: Prometheus text format (gateway calls, errors by code, latency histograms, process
 * defaults). Answered only to a caller on this machine that no proxy forwarded (`isLocalCaller`),
 * or to one sending `Authorization: Bearer <METRICS_TOKEN>` when that is set (compared in constant
 * time); anyone else gets 404, or 401 when a token is configured (a scraper with a wrong token
 * learns why).
 */
export default async function metricsRoutes(app: FastifyInstance) {
  const token = app.config.metricsToken ? digest(app.config.metricsToken) : null;
  const allowed = (request: FastifyRequest): boolean => {
    if (isLocalCaller(request.raw)) return true;
    if (!token) return false;
    const sent = BEARER.exec(request.headers.authorization ?? '')?.[1];
    return sent !== undefined && timingSafeEqual(digest(sent), token);
  };

  app.get('/metrics', { config: { swaggerTransform: docs } }, async (request, reply) => {
    if (!allowed(request)) throw new AppError(token ? 'unauthenticated' : 'not_found');
    const { registry } = gatewayMetrics(app.server);
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
