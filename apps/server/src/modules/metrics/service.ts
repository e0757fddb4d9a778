import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The Prometheus registry of one server (one per app, so tests can build several apps in one
 * process): process defaults plus the gateway's own series. The gateway records, GET /metrics
 * reads; both find the same registry through the app's http server.
 */
export interface TGatewayMetrics {
  registry: Registry;
  calls: Counter<'status'>;
  errors: Counter<'code'>;
  duration: Histogram<string>;
  upstreamDuration: Histogram<string>;
  localAdmissions: Counter<string>;
  /** By route and upstream host: never the URL, whose path, query or user part may hold a secret. */
  upstreamAttempts: Counter<'route' | 'upstream'>;
  upstreamFailures: Counter<'route' | 'upstream'>;
}

const byServer = new WeakMap<object, TGatewayMetrics>();

/** Buckets in seconds, from sub-millisecond (the gateway's own overhead) to two minutes. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function gatewayMetrics(owner: object): TGatewayMetrics {
  let metrics = byServer.get(owner);
  if (metrics) return metrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'air_' });
  metrics = {
    registry,
    calls: new Counter({
      name: 'air_gateway_calls_total',
      help: 'Gateway calls by HTTP status answered to the caller',
      labelNames: ['status'],
      registers: [registry],
    }),
    errors: new Counter({
      name: 'air_gateway_errors_total',
      help: 'Gateway calls that failed, by error code (gateway codes, or upstream_<status> for passed-through upstream errors)',
      labelNames: ['code'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'air_gateway_request_duration_seconds',
      help: 'Time from the request reaching the gateway to the last byte of its answer',
      buckets: BUCKETS,
      registers: [registry],
    }),
    upstreamDuration: new Histogram({
      name: 'air_gateway_upstream_duration_seconds',
      help: 'Time from dispatching to the upstream to the last byte of its answer',
      buckets: BUCKETS,
      registers: [registry],
    }),
    localAdmissions: new Counter({
      name: 'air_gateway_local_admissions_total',
      help: 'Calls whose quota and rate limit were counted in this process because Redis was unreachable',
      registers: [registry],
    }),
    upstreamAttempts: new Counter({
      name: 'air_gateway_upstream_attempts_total',
      help: 'Calls made to each upstream host of a routed endpoint, by route (retries and fallbacks included)',
      labelNames: ['route', 'upstream'],
      registers: [registry],
    }),
    upstreamFailures: new Counter({
      name: 'air_gateway_upstream_failures_total',
      help: 'Calls to each upstream host of a routed endpoint that failed, by route (connection error, timeout, 429 or 5xx)',
      labelNames: ['route', 'upstream'],
      registers: [registry],
    }),
  };
  byServer.set(owner, metrics);
  return metrics;
}
