import { sql, type SQL } from 'drizzle-orm';
import type {
  TStatusCounts,
  TUsageByEndpoint,
  TUsageByKey,
  TUsageCaller,
  TUsageDay,
  TUsageProvider,
  TUsageRow,
} from '@air/shared/schemas/usage-insight';
import type { TDb } from '../../db/client';
import { endpointRoutes } from '../aiendpoint/service';
import { keyNames } from '../keys/service';
import { accountNames } from '../membership/service';
import { daysBetween } from './period';

/** Rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
export async function rowsOf<T>(db: TDb, query: SQL): Promise<T[]> {
  // Drizzle types a raw result per driver (`unknown` for the driver-agnostic TDb).
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/** The zero uuid stands for a missing id in usage_daily (see its schema). */
const NO_ID = '00000000-0000-0000-0000-000000000000';
const idOrNull = (id: string) => (id === NO_ID ? null : id);

function emptyRow(): TUsageRow {
  return {
    calls: 0,
    status_2xx: 0,
    status_4xx: 0,
    status_5xx: 0,
    status_other: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    estimated_calls: 0,
  };
}

function statusField(statusClass: number): keyof TStatusCounts {
  return statusClass === 2
    ? 'status_2xx'
    : statusClass === 4
      ? 'status_4xx'
      : statusClass === 5
        ? 'status_5xx'
        : 'status_other';
}

interface TAggregate {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  estimated_calls: number;
}

function addTo(row: TUsageRow, statusClass: number, part: TAggregate) {
  row.calls += part.calls;
  row[statusField(statusClass)] += part.calls;
  row.prompt_tokens += part.prompt_tokens;
  row.completion_tokens += part.completion_tokens;
  row.estimated_calls += part.estimated_calls;
}

const byCallsDesc = (a: { calls: number }, b: { calls: number }) => b.calls - a.calls;

interface TCallerGroup extends TAggregate {
  /** 0: day, 1: endpoint, 2: key (which grouping set the row belongs to). */
  grouping_set: number;
  day: string | null;
  endpoint_id: string | null;
  key_id: string | null;
  status_class: number | null;
  route_name: string | null;
  key_name: string | null;
}

/**
 * How many of the period's latest calls the percentiles are measured over: every call up to this
 * many, a recent sample beyond (bounded cost on the embedded database; decision 030).
 */
export const LATENCY_SAMPLE = 100_000;

/**
 * Median and 95th percentile latency of the caller's calls to a route in the period, as measured
 * (values of stored calls, not the roll-up's bucket bounds: a bucket of 1-2 s said "p95 1,800 ms"
 * when the slowest call took 1,023 ms). Calls refused before a route was found carry no latency of
 * an endpoint and are left out.
 */
export async function measuredLatency(
  db: TDb,
  accountId: string,
  from: string,
  to: string,
): Promise<{ p50: number | null; p95: number | null }> {
  const [row] = await rowsOf<{ p50: number | null; p95: number | null }>(
    db,
    sql`select percentile_disc(0.5) within group (order by s.latency_ms)::int as p50,
        percentile_disc(0.95) within group (order by s.latency_ms)::int as p95
      from (select e.latency_ms from usage_events e
        where e.caller_account_id = ${accountId} and e.endpoint_id is not null
          and e.created_at >= (${from}::date)::timestamp at time zone 'UTC'
          and e.created_at < (${to}::date + 1)::timestamp at time zone 'UTC'
        order by e.created_at desc limit ${LATENCY_SAMPLE}) s`,
  );
  return { p50: row?.p50 ?? null, p95: row?.p95 ?? null };
}

/**
 * The caller view: one scan of the account's roll-up rows in the period, grouped three ways at
 * once (GROUPING SETS), then names for the endpoints and keys it found; latency percentiles from
 * the stored calls.
 */
export async function callerUsage(
  db: TDb,
  accountId: string,
  from: string,
  to: string,
): Promise<TUsageCaller> {
  const latency = await measuredLatency(db, accountId, from, to);
  const groups = await rowsOf<TCallerGroup>(
    db,
    sql`with g as (select
        (case when grouping(d.day, d.status_class) = 0 then 0
              when grouping(d.endpoint_id, d.status_class) = 0 then 1 else 2 end)::int as grouping_set,
        d.day, d.endpoint_id, d.key_id, d.status_class,
        sum(d.calls)::float8 as calls, sum(d.prompt_tokens)::float8 as prompt_tokens,
        sum(d.completion_tokens)::float8 as completion_tokens, sum(d.estimated_calls)::float8 as estimated_calls
      from usage_daily d
      where d.caller_account_id = ${accountId} and d.day between ${from}::date and ${to}::date
      group by grouping sets ((d.day, d.status_class), (d.endpoint_id, d.status_class),
                              (d.key_id, d.status_class)))
      -- Names in the same round trip: route names are public for shared endpoints, keys are this account's.
      select g.grouping_set, g.day::text as day, g.endpoint_id::text as endpoint_id, g.key_id::text as key_id,
        g.status_class::int as status_class, g.calls, g.prompt_tokens,
        g.completion_tokens, g.estimated_calls, a.route_name, k.name as key_name
      from g
      left join ${endpointRoutes(db, 'a')} on g.grouping_set = 1 and a.id = g.endpoint_id
      left join ${keyNames(db, 'k')} on g.grouping_set = 2 and k.id = g.key_id and k.account_id = ${accountId}`,
  );
  const days = new Map<string, TUsageDay>(daysBetween(from, to).map((day) => [day, { day, ...emptyRow() }]));
  const endpoints = new Map<string, TUsageByEndpoint>();
  const keys = new Map<string, TUsageByKey>();
  const totals = emptyRow();
  for (const group of groups) {
    if (group.grouping_set === 0) {
      addTo(
        days.get(group.day!) ?? days.set(group.day!, { day: group.day!, ...emptyRow() }).get(group.day!)!,
        group.status_class!,
        group,
      );
      addTo(totals, group.status_class!, group);
    } else if (group.grouping_set === 1) {
      const id = group.endpoint_id!;
      let row = endpoints.get(id);
      if (!row)
        endpoints.set(id, (row = { endpoint_id: idOrNull(id), route_name: group.route_name, ...emptyRow() }));
      addTo(row, group.status_class!, group);
    } else {
      const id = group.key_id!;
      let row = keys.get(id);
      if (!row) keys.set(id, (row = { key_id: idOrNull(id), key_name: group.key_name, ...emptyRow() }));
      addTo(row, group.status_class!, group);
    }
  }
  return {
    totals: {
      ...totals,
      latency_p50_ms: latency.p50,
      latency_p95_ms: latency.p95,
    },
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
    endpoints: [...endpoints.values()].sort(byCallsDesc),
    keys: [...keys.values()].sort(byCallsDesc),
  };
}

interface TProviderGroup {
  grouping_set: number;
  day: string | null;
  endpoint_id: string | null;
  calls: number;
  route_name: string | null;
  account_name: string | null;
}

/** The provider view: calls other accounts made to this account's endpoints in the period. */
export async function providerUsage(
  db: TDb,
  accountId: string,
  from: string,
  to: string,
): Promise<TUsageProvider> {
  const groups = await rowsOf<TProviderGroup>(
    db,
    sql`with g as (select
        (case when grouping(d.day) = 0 then 0 when grouping(d.endpoint_id) = 0 then 1 else 2 end)::int as grouping_set,
        d.day, d.endpoint_id, d.caller_account_id, sum(d.calls)::float8 as calls
      from usage_daily d
      where d.provider_account_id = ${accountId} and d.caller_account_id <> ${accountId}
        and d.day between ${from}::date and ${to}::date
      group by grouping sets ((d.day), (d.endpoint_id), (d.caller_account_id)))
      select g.grouping_set, g.day::text as day, g.endpoint_id::text as endpoint_id, g.calls,
        a.route_name, c.name as account_name
      from g
      left join ${endpointRoutes(db, 'a')} on g.grouping_set = 1 and a.id = g.endpoint_id
      left join ${accountNames(db, 'c')} on g.grouping_set = 2 and c.id = g.caller_account_id`,
  );
  const days = new Map(daysBetween(from, to).map((day) => [day, { day, calls: 0 }]));
  const endpoints = new Map<
    string,
    { endpoint_id: string | null; route_name: string | null; calls: number }
  >();
  const callers: { account_name: string | null; calls: number }[] = [];
  let total = 0;
  for (const group of groups) {
    if (group.grouping_set === 0) {
      const day =
        days.get(group.day!) ?? days.set(group.day!, { day: group.day!, calls: 0 }).get(group.day!)!;
      day.calls += group.calls;
      total += group.calls;
    } else if (group.grouping_set === 1) {
      endpoints.set(group.endpoint_id!, {
        endpoint_id: idOrNull(group.endpoint_id!),
        route_name: group.route_name,
        calls: group.calls,
      });
    } else {
      callers.push({ account_name: group.account_name, calls: group.calls });
    }
  }
  return {
    totals: { calls: total },
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
    endpoints: [...endpoints.values()].sort(byCallsDesc),
    callers: callers.sort(byCallsDesc),
  };
}
