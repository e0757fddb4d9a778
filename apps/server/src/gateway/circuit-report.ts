import { Gauge, type Registry } from 'prom-client';
import type { TUpstreamHealthRow } from '../modules/aiendpoint/service';
import { circuitKeyOf, type Circuits } from './circuit';

const STATE_VALUE = { closed: 0, probing: 2, open: 1 } as const;

/**
 * `air_gateway_upstream_circuit_state` per route and upstream host (never the URL: its path, query
 * or user part may hold a secret). Two upstreams of a route on one host show the worse state.
 */
export function circuitStateGauge(registry: Registry, circuits: Circuits): void {
  new Gauge({
    name: 'air_gateway_upstream_circuit_state',
    help: "Each routed endpoint upstream's circuit for everyone, by route and host: 0 closed, 1 open, 2 probing (this instance's view)",
    labelNames: ['route', 'upstream'],
    registers: [registry],
    collect() {
      this.reset();
      const now = Date.now();
      const worst = new Map<string, { route: string; host: string; value: number }>();
      for (const health of circuits.all()) {
        // Known only from another instance's message: no calls here to name it by.
        if (health.route === '') continue;
        const value = STATE_VALUE[circuits.state(health, now)];
        const name = `${health.route} ${health.host}`;
        const seen = worst.get(name);
        if (!seen) worst.set(name, { route: health.route, host: health.host, value });
        else if (value !== 0 && (seen.value === 0 || value === 1)) seen.value = value;
      }
      for (const { route, host, value } of worst.values()) this.labels(route, host).set(value);
    },
  });
}

/** Each upstream's circuit (and why it is open) and last hour as this instance knows them (handed to aiendpoint). */
export function upstreamHealth(
  circuits: Circuits,
  endpointId: string,
  upstreams: { url: string; weight: number }[],
): TUpstreamHealthRow[] {
  const now = Date.now();
  return upstreams.map(({ url, weight }) => {
    const health = circuits.peek(circuitKeyOf(endpointId, url));
    const state = health ? circuits.state(health, now) : 'closed';
    return {
      url,
      weight,
      state,
      last_failure_at: health?.lastFailureAt ? new Date(health.lastFailureAt).toISOString() : null,
      attempts_1h: health ? health.attempts.total(now) : 0,
      failures_1h: health ? health.failures.total(now) : 0,
      open_reason: health && state !== 'closed' ? health.reason : null,
      opened_by_callers: health && state !== 'closed' ? health.reasonCallers : 0,
      open_for_callers: health ? circuits.openForCallers(health, now) : 0,
    };
  });
}
