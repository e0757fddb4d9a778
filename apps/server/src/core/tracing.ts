import type { FastifyInstance } from 'fastify';
import type { TTracing } from '../lib/tracing-sdk';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * OpenTelemetry when an OTLP endpoint is configured (lib/otel-env.ts), else null: the gateway
     * checks this once per call and, off, makes no span and propagates nothing.
     */
    tracing: TTracing | null;
  }
}

/**
 * Tracing, before any route is added: with OTEL_EXPORTER_OTLP_ENDPOINT (or its traces variant)
 * set, the SDK is loaded (only then: an install without tracing never loads it), @fastify/otel
 * makes a span per console request, and the app's close exports what is left. Off, `app.tracing`
 * is null and nothing else happens.
 */
export async function registerTracing(app: FastifyInstance): Promise<void> {
  const config = app.config.tracing;
  if (config === null) {
    app.decorate<TTracing | null>('tracing', null);
    return;
  }
  const { startTracing } = await import('../lib/tracing-sdk');
  const tracing = startTracing(config, app.log);
  app.decorate<TTracing | null>('tracing', tracing);
  await app.register(tracing.fastify.plugin());
  // Last of the close hooks' work: the gateway's calls have ended and their spans with them.
  app.addHook('onClose', async () => tracing.shutdown());
}
