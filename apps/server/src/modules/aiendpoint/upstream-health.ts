import type { TUpstreamHealth } from '@air/shared/schemas/aiendpoint';

export type TUpstreamHealthRow = TUpstreamHealth['upstreams'][number];

/** The gateway's live view of an endpoint's upstreams (its circuits and their last hour). */
export type TUpstreamHealthReader = (
  endpointId: string,
  upstreams: { url: string; weight: number }[],
) => TUpstreamHealthRow[];

const readers = new WeakMap<object, TUpstreamHealthReader>();

/**
 * Called by the gateway when it starts, with its server (`app.server`): the endpoint routes report
 * the circuits it keeps without importing the gateway, which sits above the modules.
 */
export function reportUpstreamHealthTo(server: object, reader: TUpstreamHealthReader): void {
  readers.set(server, reader);
}

/**
 * Each upstream's circuit and last hour as this instance knows them (`GET
 * /api/aiendpoint/{id}/upstreams`); without the gateway, or before it called one, closed with no calls.
 */
export function upstreamHealthOf(
  server: object,
  endpointId: string,
  upstreams: { url: string; weight: number }[],
): TUpstreamHealthRow[] {
  const reader = readers.get(server);
  if (reader) return reader(endpointId, upstreams);
  return upstreams.map(({ url, weight }) => ({
    url,
    weight,
    state: 'closed',
    last_failure_at: null,
    attempts_1h: 0,
    failures_1h: 0,
    open_reason: null,
    opened_by_callers: 0,
    open_for_callers: 0,
  }));
}
