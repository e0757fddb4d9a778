import type { FastifyInstance } from 'fastify';
import type { Agent } from 'undici';
import { gatewayMetrics, type TGatewayMetrics } from '../modules/metrics/registry';
import { createDirectory, type TDirectory } from './directory';
import { createMemoryRateLimiter, createRedisRateLimiter, MonthlyCalls, type TRateLimiter } from './limits';
import { Meter, ROWS_PER_STATEMENT } from './metering';
import { createUpstreamAgent } from './upstream';

/** Everything the gateway keeps in memory for one server. */
export interface TGatewayState {
  directory: TDirectory;
  limiter: TRateLimiter;
  monthlyCalls: MonthlyCalls;
  meter: Meter;
  agent: Agent;
  metrics: TGatewayMetrics;
}

const byServer = new WeakMap<object, TGatewayState>();

/** Built once by the gateway plugin; closed (usage flushed, sockets closed) with the app. */
export function createGatewayState(app: FastifyInstance): TGatewayState {
  const state: TGatewayState = {
    directory: createDirectory(app),
    limiter: app.config.redisUrl ? createRedisRateLimiter(app.config.redisUrl) : createMemoryRateLimiter(),
    monthlyCalls: new MonthlyCalls(app.db),
    meter: new Meter(app.db, app.log, { rowsPerStatement: ROWS_PER_STATEMENT[app.database.driver] }),
    agent: createUpstreamAgent(app.config.upstreamAllowPrivate),
    metrics: gatewayMetrics(app.server),
  };
  byServer.set(app.server, state);
  app.addHook('onClose', async () => {
    state.directory.close();
    await state.meter.close();
    await state.limiter.close();
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
