import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';

const draining = new WeakSet<object>();

/** True once a graceful shutdown began: `/healthz` answers 503 `draining`. */
export function isDraining(app: FastifyInstance): boolean {
  return draining.has(app.server);
}

export interface TDrainOptions {
  /** How long `/healthz` answers `draining` while requests are still served (SHUTDOWN_DELAY_MS). */
  delayMs: number;
  /** Then how long in-flight requests and streams may run before their connections are cut. */
  timeoutMs: number;
}

/** How often connections that became idle while closing are closed (a kept-alive one would linger). */
const REAP_IDLE_MS = 100;

/**
 * A graceful stop behind a balancer (SIGTERM, decision 024):
 * 1. `/healthz` answers 503 `draining` for `delayMs`, while every request is still served, so the
 *    balancer's health check takes this instance out before it stops accepting;
 * 2. the server stops accepting connections; requests in flight (gateway calls, streams) finish;
 *    connections are closed as they become idle; after `timeoutMs` the rest are cut;
 * 3. the app's close hooks run: the meter writes its buffered usage rows, sockets and the
 *    database (when the app owns it) close.
 */
export async function drainAndClose(app: FastifyInstance, { delayMs, timeoutMs }: TDrainOptions) {
  draining.add(app.server);
  if (delayMs > 0) {
    app.log.info({ delayMs }, 'draining: /healthz answers 503 before the server stops accepting');
    await sleep(delayMs);
  }
  const server = app.server;
  const reaper = setInterval(() => server.closeIdleConnections(), REAP_IDLE_MS);
  const deadline = setTimeout(() => {
    app.log.warn({ timeoutMs }, 'shutdown deadline reached: closing the connections still open');
    server.closeAllConnections();
  }, timeoutMs);
  try {
    await app.close();
  } finally {
    clearInterval(reaper);
    clearTimeout(deadline);
  }
}
