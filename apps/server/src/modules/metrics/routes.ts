import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { documentedAs } from '../../core/openapi';
import { gatewayMetrics } from './service';

const docs = documentedAs({
  tags: ['operations'],
  summary: 'Prometheus metrics (text exposition format)',
  security: [],
  response: {
    200: { description: 'Prometheus text', content: { 'text/plain': { schema: z.string() } } },
  },
});

/** Root path: Prometheus scrapes /metrics. */
export const prefix = '';

/**
 * `GET /metrics`: Prometheus text format (gateway calls, errors by code, latency histograms, process
 * defaults). Counts only, no account data, so like /healthz it needs no credentials; keep the port
 * private or filter /metrics at the proxy if the counts themselves are sensitive.
 */
export default async function metricsRoutes(app: FastifyInstance) {
  app.get('/metrics', { config: { swaggerTransform: docs } }, async (_request, reply) => {
    const { registry } = gatewayMetrics(app.server);
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
