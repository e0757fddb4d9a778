import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import type { Agent } from 'undici';
import { gatewayMetrics, type TGatewayMetrics } from '../modules/metrics/service';
import { createDirectory, type TDirectory } from './directory';
import { Gauge } from 'prom-client';
import type { TCallCounters } from './counter-types';
import { createCallCounters } from './counters';
import { Meter, reportGatewayTo } from '../modules/usage/service';
import { addHealthPart } from '../core/health';
import { AnswerCache } from './answer-cache';
import { Circuits } from './circuit';
import { circuitStateGauge, upstreamHealth } from './circuit-report';
import { reportUpstreamHealthTo } from '../modules/aiendpoint/service';
import { createUpstreamAgent } from './upstream';
import { abortReadingOn } from './read-on';

/** Everything the gateway keeps in memory for one server. */
export interface TGatewayState {
  directory: TDirectory;
  counters: TCallCounters;
  meter: Meter;
  agent: Agent;
  metrics: TGatewayMetrics;
  /** Upstream circuits (routed endpoints), shared through Redis when REDIS_URL is set. */
  circuits: Circuits;
  /** Cached answers of routed endpoints with `cache_ttl_s`. */
  answers: AnswerCache;
  /** The `/api/mcp` event streams open on this instance (mcp-aggregate.ts), once its routes are set up. */
  mcpStreams: { readonly size: number } | null;
  /** Draws in [0, 1) spreading model calls across providers (model-routing.ts): Math.random; a test sets its own. */
  random: () => number;
}

const byServer = new WeakMap<object, TGatewayState>();

/** Built once by the gateway plugin; closed (usage flushed, sockets closed) with the app. */
export function createGatewayState(app: FastifyInstance): TGatewayState {
  const meter = new Meter(app.db, app.log, {
    // One journal per instance, beside its other local state.
    journalDir: path.join(app.config.dataDir, 'usage-journal'),
    batch: app.database.batch,
  });
  const metrics = gatewayMetrics(app.server);
  const counters = createCallCounters({
    redisUrl: app.config.redisUrl,
    db: app.db,
    log: app.log,
    beforeSeed: () => meter.flush(),
    onLocalAdmit: () => metrics.localAdmissions.inc(),
  });
  if (app.config.redisUrl) {
    new Gauge({
      name: 'air_redis_up',
      help: '1 while quotas and rate limits are counted in Redis, 0 while Redis is unreachable and this instance counts locally',
      registers: [metrics.registry],
      collect() {
        this.set(counters.redisUp() ? 1 : 0);
      },
    });
  }
  const circuits = new Circuits({
    redisUrl: app.config.redisUrl,
    publish: (change) => app.changes.publish(change),
    log: app.log,
    // The endpoint's owner hears of it by webhook: its account from the in-memory route table, the
    // event queued on the next turn of the event loop (no query on the call's path).
    onOpen: (health, until) => {
      const route = state.directory.routes.peek(health.route);
      if (!route) return;
      app.webhooks.later(route.accountId, 'endpoint.circuit_opened', {
        endpoint_id: route.endpointId,
        route_name: route.routeName,
        upstream_host: health.host,
        reason: health.reason,
        until: new Date(until).toISOString(),
      });
    },
  });
  const unsubscribe = app.changes.subscribe((change) => {
    if (change.kind === 'circuit') circuits.apply(change);
  });
  circuitStateGauge(metrics.registry, circuits);
  const state: TGatewayState = {
    directory: createDirectory(app),
    counters,
    meter,
    agent: createUpstreamAgent(app.config.upstreamAllowPrivate),
    metrics,
    circuits,
    answers: new AnswerCache(),
    mcpStreams: null,
    random: Math.random,
  };
  byServer.set(app.server, state);
  reportGatewayTo(app.server, state);
  reportUpstreamHealthTo(app.server, (endpointId, upstreams) =>
    upstreamHealth(circuits, endpointId, upstreams),
  );
  // With REDIS_URL, /healthz says whether quotas and rate limits are counted in Redis (`up`) or,
  // Redis being unreachable, in this instance only (`down`): the instance keeps serving, degraded.
  addHealthPart(app, () => {
    const up = counters.redisUp();
    return up === null ? {} : { redis: up ? 'up' : 'down' };
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    circuits.close();
    state.directory.close();
    // Streams read on after their caller left are metered as they stand, before the meter closes.
    abortReadingOn(state.agent);
    await state.meter.close();
    await state.counters.close();
    await state.agent.close();
  });
  return state;
}

/** The gateway's state for console routes that report on it (usage). */
export function gatewayStateOf(app: FastifyInstance): TGatewayState {
  const state = byServer.get(app.server);
  if (!state) throw new Error('the gateway is not loaded');
  return state;
}
