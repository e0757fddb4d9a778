import { sql } from 'drizzle-orm';
import {
  OVERVIEW_ENDPOINTS,
  OVERVIEW_LATEST_CALLS,
  OVERVIEW_TOP_ROUTES,
  OVERVIEW_TREND_DAYS,
  type TAccountOverview,
  type TOverviewEndpoint,
  type TOverviewRoute,
} from '@air/shared/schemas/overview';
import type { TServices } from '../../core/services';
import type { TDb } from '../../db/client';
import { endpointRoutes, listEndpoints, upstreamHealthOf } from '../aiendpoint/service';
import { keyNames } from '../keys/service';
import { measuredLatency, rowsOf } from './insight';
import { dayOf, daysBetween, periodOf, quotaState } from './period';

const DAY_MS = 86_400_000;
const NO_ID = '00000000-0000-0000-0000-000000000000';

interface TOverviewGroup {
  /** 0: day and status class (the trend, over the trend's days), 1: endpoint (this period). */
  grouping_set: number;
  day: string | null;
  status_class: number | null;
  endpoint_id: string | null;
  calls: number;
  period_calls: number;
  period_errors: number;
  route_name: string | null;
}

/**
 * One scan of the caller's roll-up rows from the earlier of the trend's first day and the period's
 * first day: per day and status class for the trend and the period's totals, per endpoint for this
 * period only (FILTER), route names joined in the same round trip.
 */
async function rollUp(db: TDb, accountId: string, from: string, periodFrom: string, today: string) {
  return rowsOf<TOverviewGroup>(
    db,
    sql`with g as (select
        (case when grouping(d.day, d.status_class) = 0 then 0 else 1 end)::int as grouping_set,
        d.day, d.status_class, d.endpoint_id,
        sum(d.calls)::float8 as calls,
        coalesce(sum(d.calls) filter (where d.day >= ${periodFrom}::date), 0)::float8 as period_calls,
        coalesce(sum(d.calls) filter (where d.day >= ${periodFrom}::date and d.status_class in (4, 5)), 0)::float8
          as period_errors
      from usage_daily d
      where d.caller_account_id = ${accountId} and d.day between ${from}::date and ${today}::date
      group by grouping sets ((d.day, d.status_class), (d.endpoint_id)))
      select g.grouping_set, g.day::text as day, g.status_class::int as status_class,
        g.endpoint_id::text as endpoint_id,
        g.calls, g.period_calls, g.period_errors, a.route_name
      from g left join ${endpointRoutes(db, 'a')} on g.grouping_set = 1 and a.id = g.endpoint_id`,
  );
}

/** Whether the account has a key and has ever had a call answered 2xx (the checklist). */
async function startedFlags(db: TDb, accountId: string) {
  const [row] = await rowsOf<{ key: boolean; call: boolean }>(
    db,
    sql`select
      exists (select 1 from ${keyNames(db, 'k')} where k.account_id = ${accountId}) as key,
      exists (select 1 from usage_daily d where d.caller_account_id = ${accountId} and d.status_class = 2) as call`,
  );
  return { key: Boolean(row?.key), call: Boolean(row?.call) };
}

const STATE_RANK = { open: 2, probing: 1, closed: 0 } as const;

/** The account's endpoints with their worst upstream circuit, as the gateway on this instance keeps them. */
async function endpointHealth(app: TServices, server: object, accountId: string) {
  const endpoints = await listEndpoints(app, accountId);
  const rows: TOverviewEndpoint[] = endpoints.map((endpoint) => {
    const upstreams = upstreamHealthOf(server, endpoint.id, endpoint.config.upstreams);
    let state: TOverviewEndpoint['state'] = 'closed';
    for (const upstream of upstreams)
      if (STATE_RANK[upstream.state] > STATE_RANK[state]) state = upstream.state;
    return {
      id: endpoint.id,
      route_name: endpoint.route_name,
      active: endpoint.isActive,
      state,
      upstreams: upstreams.length,
      open_upstreams: upstreams.filter((upstream) => upstream.state === 'open').length,
      attempts_1h: upstreams.reduce((sum, upstream) => sum + upstream.attempts_1h, 0),
      failures_1h: upstreams.reduce((sum, upstream) => sum + upstream.failures_1h, 0),
    };
  });
  // The least healthy first: open circuits, then probing, then inactive endpoints, then by name.
  rows.sort(
    (a, b) =>
      STATE_RANK[b.state] - STATE_RANK[a.state] ||
      Number(a.active) - Number(b.active) ||
      a.route_name.localeCompare(b.route_name),
  );
  return { endpoints: rows.slice(0, OVERVIEW_ENDPOINTS), count: rows.length };
}

export interface TOverviewInputs {
  /** This month's calls as the gateway counts them for the quota, and the quota (null: none). */
  month: { calls: number; quota: number | null };
  /** The HTTP server the gateway reported its circuits for. */
  server: object;
  /** The request log's newest calls (the same reader as `GET /api/account/usage/log`). */
  latestCalls: TAccountOverview['latest_calls'];
}

/** The dashboard's figures (`GET /api/account/overview`); the caller flushes the meter first. */
export async function accountOverview(
  app: TServices,
  accountId: string,
  inputs: TOverviewInputs,
  now = Date.now(),
): Promise<TAccountOverview> {
  const today = dayOf(now);
  const period = periodOf(now);
  const periodFrom = `${period}-01`;
  const trendFrom = dayOf(now - (OVERVIEW_TREND_DAYS - 1) * DAY_MS);
  const from = trendFrom < periodFrom ? trendFrom : periodFrom;
  const [groups, started, health, latency] = await Promise.all([
    rollUp(app.db, accountId, from, periodFrom, today),
    startedFlags(app.db, accountId),
    endpointHealth(app, inputs.server, accountId),
    // Measured like the usage page's (decision 030), so the two pages show the same median.
    measuredLatency(app.db, accountId, periodFrom, today),
  ]);

  const trend = new Map(daysBetween(trendFrom, today).map((day) => [day, { day, calls: 0, errors: 0 }]));
  const routes: TOverviewRoute[] = [];
  let callsPeriod = 0;
  let errorsPeriod = 0;
  let callsToday = 0;
  for (const group of groups) {
    if (group.grouping_set === 0) {
      callsPeriod += group.period_calls;
      errorsPeriod += group.period_errors;
      if (group.day === today) callsToday += group.calls;
      const day = trend.get(group.day!);
      if (!day) continue;
      day.calls += group.calls;
      if (group.status_class === 4 || group.status_class === 5) day.errors += group.calls;
    } else if (group.period_calls > 0) {
      routes.push({
        endpoint_id: group.endpoint_id === NO_ID ? null : group.endpoint_id,
        route_name: group.route_name,
        calls: group.period_calls,
        errors: group.period_errors,
      });
    }
  }
  routes.sort((a, b) => b.calls - a.calls || (a.route_name ?? '').localeCompare(b.route_name ?? ''));

  const { calls, quota } = inputs.month;
  return {
    today,
    period: { period, from: periodFrom },
    calls_today: callsToday,
    calls_period: callsPeriod,
    errors_period: errorsPeriod,
    error_rate: callsPeriod === 0 ? null : errorsPeriod / callsPeriod,
    latency_p50_ms: latency.p50,
    trend: [...trend.values()],
    quota: quotaState(calls, quota, now),
    top_routes: routes.slice(0, OVERVIEW_TOP_ROUTES),
    endpoints: health.endpoints,
    endpoint_count: health.count,
    latest_calls: inputs.latestCalls.slice(0, OVERVIEW_LATEST_CALLS),
    started: { key: started.key, endpoint: health.count > 0, call: started.call },
  };
}
