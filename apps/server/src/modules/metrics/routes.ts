import type { FastifyInstance } from 'fastify';
import { gatewayMetrics } from './registry';

/** Root path: Prometheus scrapes /metrics. */
export const prefix = '';

/**
 * `GET /metrics`: Prometheus text format (gateway calls, errors by code, latency histograms, process
 * defaults). Counts only, no account data, so like /healthz it needs no credentials; keep the port
 * private or filter /metrics at the proxy if the counts themselves are sensitive.
 */
export default async function metricsRoutes(app: FastifyInstance) {
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const { registry } = gatewayMetrics(app.server);
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
