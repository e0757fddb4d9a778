import { context, propagation, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { TTracingConfig } from './otel-env';

/**
 * The OpenTelemetry SDK, loaded only when tracing is on (core/tracing.ts imports this file
 * dynamically): a tracer provider per app exporting in batches over OTLP/HTTP protobuf, the
 * sampler the OTEL_TRACES_SAMPLER variables name, W3C trace context, and @fastify/otel for the
 * console's requests. Nothing here is global except what @fastify/otel needs to carry a request's
 * context (the context manager and the propagator, set once per process).
 */

/** What the rest of the server uses of a running tracer. */
export interface TTracing {
  tracer: Tracer;
  propagator: W3CTraceContextPropagator;
  /** Registered before any route: a span per console request. */
  fastify: FastifyOtelInstrumentation;
  /** Exports every ended span now (tests); never rejects. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

interface TLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

function samplerOf(config: TTracingConfig): Sampler {
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(config.samplerRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.samplerRatio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * The OTLP exporter, saying when exports start failing and when they work again (once each, like
 * Redis going away, decision 046): the collector's host only, never the URL or the headers.
 */
class LoggedExporter implements SpanExporter {
  private failing = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly host: string,
    private readonly log: TLog,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS && !this.failing) {
        this.failing = true;
        const reason = result.error?.message ?? 'export failed';
        this.log.warn(
          { collector: this.host, reason },
          'OTEL_EXPORTER_OTLP_ENDPOINT: cannot export traces; spans are dropped until it answers',
        );
      } else if (result.code === ExportResultCode.SUCCESS && this.failing) {
        this.failing = false;
        this.log.info({ collector: this.host }, 'OpenTelemetry collector reachable again');
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Routes whose requests are no console request: the gateway (its own spans) and the probes. */
function ignoredPath({ url }: { url: string }): boolean {
  if (url.startsWith('/api/v1')) return true;
  const path = url.split('?')[0]!;
  return path === '/healthz' || path === '/livez' || path === '/readyz' || path === '/metrics';
}

export function startTracing(config: TTracingConfig, log: TLog): TTracing {
  const exporter = new LoggedExporter(
    new OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers }),
    new URL(config.tracesUrl).host,
    log,
  );
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ ...config.resourceAttributes, 'service.name': config.serviceName }),
    sampler: samplerOf(config),
    spanProcessors: [
      // A gateway makes two or three spans a call: a second's worth, in batches of 1,024.
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: 1000,
        maxExportBatchSize: 1024,
        maxQueueSize: 16_384,
      }),
    ],
  });
  const propagator = new W3CTraceContextPropagator();
  // @fastify/otel reads the caller's context through the global propagator and keeps each
  // request's span active through the global context manager; both are set once per process
  // (a second app in a test process finds them set, which is the same setting).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(propagator);
  const fastify = new FastifyOtelInstrumentation({
    // One span a request: no span per hook or handler.
    instrumentHooks: false,
    instrumentHandler: false,
    ignorePaths: ignoredPath,
    requestHook: (span, request) => {
      const route = request.routeOptions.url;
      span.updateName(route ? `${request.method} ${route}` : request.method);
      span.setAttribute('air.request_id', request.id);
    },
  });
  fastify.setTracerProvider(provider);
  return {
    tracer: provider.getTracer('air'),
    propagator,
    fastify,
    // A failed export is already logged (LoggedExporter): a flush or a stop does not fail with it.
    flush: () => provider.forceFlush().catch(() => undefined),
    shutdown: () => provider.shutdown().catch(() => undefined),
  };
}
