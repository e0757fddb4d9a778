import { z } from 'zod';
import { UPSTREAM_STATES } from './aiendpoint';
import { ZUsageLogEntry, ZUsageQuota } from './usage-insight';

/**
 * `GET /api/account/overview`: the dashboard's figures for the signed-in account as a caller, read
 * from the daily roll-up (`usage_daily`, decision 010), never from a scan of the calls. Days are
 * UTC days; "period" is the quota's calendar month so far. Example:
 * `{ data: { calls_today: 12, calls_period: 340, error_rate: 0.02, latency_p50_ms: 180, ... } }`.
 */
export const OVERVIEW_TREND_DAYS = 30;
export const OVERVIEW_TOP_ROUTES = 5;
export const OVERVIEW_ENDPOINTS = 6;
export const OVERVIEW_LATEST_CALLS = 5;

const count = z.number().int().min(0);
const ZDay = z.iso.date();

export const ZOverviewTrendDay = z.object({ day: ZDay, calls: count, errors: count });
export type TOverviewTrendDay = z.infer<typeof ZOverviewTrendDay>;

export const ZOverviewRoute = z.object({
  endpoint_id: z.uuid().nullable(),
  /** null when the endpoint was deleted since. */
  route_name: z.string().nullable(),
  calls: count,
  /** 4xx and 5xx answers. */
  errors: count,
});
export type TOverviewRoute = z.infer<typeof ZOverviewRoute>;

/**
 * One of the account's endpoints with its worst upstream circuit (the gateway's live view,
 * decision 025): `open` when any upstream is open, else `probing` when any is, else `closed`.
 */
export const ZOverviewEndpoint = z.object({
  id: z.uuid(),
  route_name: z.string(),
  active: z.boolean(),
  state: z.enum(UPSTREAM_STATES),
  upstreams: count,
  open_upstreams: count,
  attempts_1h: count,
  failures_1h: count,
});
export type TOverviewEndpoint = z.infer<typeof ZOverviewEndpoint>;

export const ZAccountOverview = z.object({
  today: ZDay,
  /** The quota period (`YYYY-MM`) and its first day. */
  period: z.object({ period: z.string().regex(/^\d{4}-\d{2}$/), from: ZDay }),
  calls_today: count,
  calls_period: count,
  errors_period: count,
  /** errors_period / calls_period; null with no calls this period. */
  error_rate: z.number().min(0).max(1).nullable(),
  /** This period's median latency from the roll-up's latency buckets; null with no calls. */
  latency_p50_ms: z.number().min(0).nullable(),
  /** The last OVERVIEW_TREND_DAYS days, oldest first, today last (days without calls are 0). */
  trend: z.array(ZOverviewTrendDay),
  quota: ZUsageQuota,
  /** This period's most called routes, most calls first. */
  top_routes: z.array(ZOverviewRoute),
  /** The account's endpoints, the least healthy first (at most OVERVIEW_ENDPOINTS), and how many there are. */
  endpoints: z.array(ZOverviewEndpoint),
  endpoint_count: count,
  latest_calls: z.array(ZUsageLogEntry),
  /** The "Get started" checklist: a key exists, an endpoint exists, a call has succeeded. */
  started: z.object({ key: z.boolean(), endpoint: z.boolean(), call: z.boolean() }),
});
export type TAccountOverview = z.infer<typeof ZAccountOverview>;
