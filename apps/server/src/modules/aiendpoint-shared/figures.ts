import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  MARKETPLACE_HISTORY_DAYS,
  MARKETPLACE_STATS_DAYS,
  type TMarketplaceItem,
  type TMarketplaceSort,
  type TMarketplaceStats,
  type TMarketplaceWindow,
  UPTIME_FAILURE_RUN,
} from '@air/shared/schemas/marketplace';
import type { TDb } from '../../db/client';
import { aiEndpoints } from '../../db/schema/ai-endpoints';
import { endpointDaily, endpointMinute, endpointTtftDaily } from '../../db/schema/endpoint-daily';
import { dayOf, percentileFromBuckets } from '../usage/service';
import type { TCatalogFilters } from './catalog-filters';

/**
 * The catalog's figures callers choose by (contract 5b, decision 057): read from the bounded
 * roll-ups the metering trigger keeps, and the orders and filters over them.
 */

const DAY_MS = 86_400_000;

interface TCounts {
  calls: number;
  success: number;
  buckets: Map<number, number>;
  ttft: Map<number, number>;
  completionTokens: number;
  generationMs: number;
  minutes: number;
  upMinutes: number;
}

export const emptyCounts = (): TCounts => ({
  calls: 0,
  success: 0,
  buckets: new Map(),
  ttft: new Map(),
  completionTokens: 0,
  generationMs: 0,
  minutes: 0,
  upMinutes: 0,
});

/** An endpoint's counts over 7 and over 30 days. */
export interface TWindows {
  d7: TCounts;
  d30: TCounts;
}

const addTo = (map: Map<number, number>, bucket: number, calls: number) =>
  map.set(bucket, (map.get(bucket) ?? 0) + calls);

/**
 * The figures' counts per endpoint over the last 7 and 30 days (today included), from the
 * bounded roll-ups the metering trigger keeps (decision 057): endpoint_daily (calls, status,
 * latency buckets, tokens and generation time), endpoint_ttft_daily (first-byte buckets) and
 * endpoint_minute (up minutes). Three grouped reads, never a scan of the calls.
 */
export async function statsOf(db: TDb, ids: string[], now: number): Promise<Map<string, TWindows>> {
  const answer = new Map<string, TWindows>();
  if (ids.length === 0) return answer;
  const windows = (id: string) => {
    let found = answer.get(id);
    if (!found) answer.set(id, (found = { d7: emptyCounts(), d30: emptyCounts() }));
    return found;
  };
  const from30 = dayOf(now - (MARKETPLACE_HISTORY_DAYS - 1) * DAY_MS);
  const from7 = dayOf(now - (MARKETPLACE_STATS_DAYS - 1) * DAY_MS);
  const inIds = (column: AnyPgColumn) => sql`${column} = any(${sql.param(ids)}::uuid[])`;
  // Grouped by the select's second column (`recent`): its parameter would not match the select's.
  const second = sql.raw('2');
  const recent7 = sql<boolean>`${endpointDaily.day} >= ${from7}::date`;
  const rows = await db
    .select({
      endpointId: endpointDaily.endpointId,
      recent: recent7,
      statusClass: endpointDaily.statusClass,
      latencyBucket: endpointDaily.latencyBucket,
      calls: sql<number>`sum(${endpointDaily.calls})::int`,
      completionTokens: sql<number>`sum(${endpointDaily.completionTokens})::float8`,
      generationMs: sql<number>`sum(${endpointDaily.generationMs})::float8`,
    })
    .from(endpointDaily)
    .where(and(inIds(endpointDaily.endpointId), sql`${endpointDaily.day} >= ${from30}::date`))
    .groupBy(endpointDaily.endpointId, second, endpointDaily.statusClass, endpointDaily.latencyBucket);
  for (const row of rows) {
    const found = windows(row.endpointId);
    for (const counts of row.recent ? [found.d7, found.d30] : [found.d30]) {
      const calls = Number(row.calls);
      counts.calls += calls;
      if (row.statusClass === 2) counts.success += calls;
      addTo(counts.buckets, row.latencyBucket, calls);
      counts.completionTokens += Number(row.completionTokens);
      counts.generationMs += Number(row.generationMs);
    }
  }
  const ttftRecent = sql<boolean>`${endpointTtftDaily.day} >= ${from7}::date`;
  const ttft = await db
    .select({
      endpointId: endpointTtftDaily.endpointId,
      recent: ttftRecent,
      bucket: endpointTtftDaily.bucket,
      calls: sql<number>`sum(${endpointTtftDaily.calls})::int`,
    })
    .from(endpointTtftDaily)
    .where(and(inIds(endpointTtftDaily.endpointId), sql`${endpointTtftDaily.day} >= ${from30}::date`))
    .groupBy(endpointTtftDaily.endpointId, second, endpointTtftDaily.bucket);
  for (const row of ttft) {
    const found = windows(row.endpointId);
    for (const counts of row.recent ? [found.d7, found.d30] : [found.d30])
      addTo(counts.ttft, row.bucket, Number(row.calls));
  }
  // Minutes: the windows' first UTC day at midnight, as the days above.
  const up = sql`${endpointMinute.ok} > 0 and ${endpointMinute.maxFailedRun} < ${UPTIME_FAILURE_RUN}`;
  const minuteRecent = sql<boolean>`${endpointMinute.minute} >= ${from7}::timestamptz`;
  const minutes = await db
    .select({
      endpointId: endpointMinute.endpointId,
      recent: minuteRecent,
      minutes: sql<number>`count(*)::int`,
      up: sql<number>`(count(*) filter (where ${up}))::int`,
    })
    .from(endpointMinute)
    .where(
      and(
        inIds(endpointMinute.endpointId),
        sql`${endpointMinute.minute} >= ${`${from30}T00:00:00Z`}::timestamptz`,
      ),
    )
    .groupBy(endpointMinute.endpointId, second);
  for (const row of minutes) {
    const found = windows(row.endpointId);
    for (const counts of row.recent ? [found.d7, found.d30] : [found.d30]) {
      counts.minutes += Number(row.minutes);
      counts.upMinutes += Number(row.up);
    }
  }
  return answer;
}

const ratio = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

function figures(counts: TCounts) {
  const any = counts.calls > 0;
  const ttftCalls = [...counts.ttft.values()].reduce((sum, calls) => sum + calls, 0);
  return {
    calls: counts.calls,
    success_rate: ratio(counts.success, counts.calls),
    uptime: ratio(counts.upMinutes, counts.minutes),
    p50_ms: any ? percentileFromBuckets(counts.buckets, 0.5) : null,
    p95_ms: any ? percentileFromBuckets(counts.buckets, 0.95) : null,
    ttft_ms: ttftCalls > 0 ? percentileFromBuckets(counts.ttft, 0.5) : null,
    tokens_per_s:
      counts.generationMs > 0
        ? Math.round((counts.completionTokens / (counts.generationMs / 1000)) * 10) / 10
        : null,
  };
}

export function statsFrom(windows: TWindows | undefined): TMarketplaceStats {
  const d7 = figures(windows?.d7 ?? emptyCounts());
  const d30 = figures(windows?.d30 ?? emptyCounts());
  return {
    calls_7d: d7.calls,
    success_rate_7d: d7.success_rate,
    uptime_7d: d7.uptime,
    p50_ms_7d: d7.p50_ms,
    p95_ms_7d: d7.p95_ms,
    ttft_ms_7d: d7.ttft_ms,
    tokens_per_s_7d: d7.tokens_per_s,
    calls_30d: d30.calls,
    success_rate_30d: d30.success_rate,
    uptime_30d: d30.uptime,
    p50_ms_30d: d30.p50_ms,
    p95_ms_30d: d30.p95_ms,
    ttft_ms_30d: d30.ttft_ms,
    tokens_per_s_30d: d30.tokens_per_s,
  };
}

/** The order of a sort as a key to compare: numbers first (smaller first), then the route name. */
export type TSortKey = [number, string];

/** What the sorts and figure filters read of a catalog item or a model: its figures, price and creation. */
export type TRanked = Pick<TMarketplaceItem, 'stats' | 'price' | 'created_at'>;

/** One window's figure of an item (`uptime`, `p95_ms`…). */
function figureOf(item: TRanked, window: TMarketplaceWindow, name: string): number | null {
  return (item.stats as Record<string, number | null>)[`${name}_${window}`] ?? null;
}

/** A million input and a million output tokens (micros), then a call's price (a millionth of it). */
function priceKey(item: TRanked): number {
  const price = item.price;
  if (!price) return 0;
  return price.per_1m_input_tokens + price.per_1m_output_tokens + price.per_call / 1_000_000;
}

const LAST = Number.MAX_SAFE_INTEGER;

/** `item`'s place in `sort`; `name` (a route name, a model id) breaks ties. */
export function sortKey(
  sort: TMarketplaceSort,
  window: TMarketplaceWindow,
  item: TRanked,
  name: string,
): TSortKey {
  const smaller = (name: string) => figureOf(item, window, name) ?? LAST;
  const larger = (name: string) => {
    const value = figureOf(item, window, name);
    return value === null ? 1 : -value;
  };
  switch (sort) {
    case 'fastest':
      return [smaller('p50_ms'), name];
    case 'p95':
      return [smaller('p95_ms'), name];
    case 'ttft':
      return [smaller('ttft_ms'), name];
    case 'reliable':
      return [larger('success_rate'), name];
    case 'uptime':
      return [larger('uptime'), name];
    case 'throughput':
      return [larger('tokens_per_s'), name];
    case 'price':
      return [priceKey(item), name];
    case 'newest':
      return [-Date.parse(item.created_at), name];
    default:
      return [-(figureOf(item, window, 'calls') ?? 0), name];
  }
}

/** The figure filters of the query (none: every item passes); an item without the figure fails one. */
export function passes(
  filters: Pick<
    TCatalogFilters,
    'window' | 'min_uptime' | 'max_p95_ms' | 'max_ttft_ms' | 'min_tokens_per_s' | 'max_price_1m'
  >,
  item: TRanked,
): boolean {
  const window = filters.window ?? '7d';
  const at = (name: string) => figureOf(item, window, name);
  const atLeast = (name: string, min: number | undefined) => {
    if (min === undefined) return true;
    const value = at(name);
    return value !== null && value >= min;
  };
  const atMost = (name: string, max: number | undefined) => {
    if (max === undefined) return true;
    const value = at(name);
    return value !== null && value <= max;
  };
  const max = filters.max_price_1m;
  const priced =
    max === undefined ||
    !item.price ||
    (item.price.per_1m_input_tokens <= max && item.price.per_1m_output_tokens <= max);
  return (
    priced &&
    atLeast('uptime', filters.min_uptime) &&
    atMost('p95_ms', filters.max_p95_ms) &&
    atMost('ttft_ms', filters.max_ttft_ms) &&
    atLeast('tokens_per_s', filters.min_tokens_per_s)
  );
}

function mergeCounts(into: TCounts, from: TCounts): void {
  into.calls += from.calls;
  into.success += from.success;
  for (const [bucket, calls] of from.buckets) addTo(into.buckets, bucket, calls);
  for (const [bucket, calls] of from.ttft) addTo(into.ttft, bucket, calls);
  into.completionTokens += from.completionTokens;
  into.generationMs += from.generationMs;
  into.minutes += from.minutes;
  into.upMinutes += from.upMinutes;
}

/**
 * Several endpoints' figures as one (a provider's page): their calls, histograms, tokens and
 * minutes added up, so the combined uptime is up minutes over observed minutes of all of them.
 */
export function combinedWindows(all: Iterable<TWindows>): TWindows {
  const combined = { d7: emptyCounts(), d30: emptyCounts() };
  for (const windows of all) {
    mergeCounts(combined.d7, windows.d7);
    mergeCounts(combined.d30, windows.d30);
  }
  return combined;
}

/** Minutes observed and minutes up, over 7 and 30 days. */
interface TMinutes {
  d7: { minutes: number; up: number };
  d30: { minutes: number; up: number };
}

/**
 * Each model's uptime minutes across its providers (decision 062): a UTC minute is observed when
 * some provider of the model had a success or a failure in it, and up when some provider was up
 * in it (a success and no run of failures). One grouped read of endpoint_minute for `ids` (the
 * listed endpoints declaring a model), by model and minute, then counted per window.
 */
export async function modelMinutesOf(db: TDb, ids: string[], now: number): Promise<Map<string, TMinutes>> {
  const answer = new Map<string, TMinutes>();
  if (ids.length === 0) return answer;
  const from30 = dayOf(now - (MARKETPLACE_HISTORY_DAYS - 1) * DAY_MS);
  const from7 = dayOf(now - (MARKETPLACE_STATS_DAYS - 1) * DAY_MS);
  const up = sql`${endpointMinute.ok} > 0 and ${endpointMinute.maxFailedRun} < ${UPTIME_FAILURE_RUN}`;
  const byMinute = db
    .select({
      modelId: sql<string>`${aiEndpoints.modelId}`.as('model_id'),
      minute: sql<Date>`${endpointMinute.minute}`.as('minute'),
      up: sql<boolean>`bool_or(${up})`.as('up'),
    })
    .from(endpointMinute)
    .innerJoin(aiEndpoints, eq(aiEndpoints.id, endpointMinute.endpointId))
    .where(
      and(
        sql`${endpointMinute.endpointId} = any(${sql.param(ids)}::uuid[])`,
        sql`${endpointMinute.minute} >= ${`${from30}T00:00:00Z`}::timestamptz`,
        isNotNull(aiEndpoints.modelId),
      ),
    )
    .groupBy(aiEndpoints.modelId, endpointMinute.minute)
    .as('by_minute');
  const rows = await db
    .select({
      modelId: byMinute.modelId,
      recent: sql<boolean>`${byMinute.minute} >= ${from7}::timestamptz`,
      minutes: sql<number>`count(*)::int`,
      up: sql<number>`(count(*) filter (where ${byMinute.up}))::int`,
    })
    .from(byMinute)
    // Grouped by the select's second column (`recent`): its parameter would not match the select's.
    .groupBy(byMinute.modelId, sql.raw('2'));
  for (const row of rows) {
    let found = answer.get(row.modelId);
    if (!found) answer.set(row.modelId, (found = { d7: { minutes: 0, up: 0 }, d30: { minutes: 0, up: 0 } }));
    for (const window of row.recent ? [found.d7, found.d30] : [found.d30]) {
      window.minutes += Number(row.minutes);
      window.up += Number(row.up);
    }
  }
  return answer;
}

/** Combined windows with a model's own minutes (some provider up) in place of the added-up ones. */
export function withModelMinutes(windows: TWindows, minutes: TMinutes | undefined): TWindows {
  windows.d7.minutes = minutes?.d7.minutes ?? 0;
  windows.d7.upMinutes = minutes?.d7.up ?? 0;
  windows.d30.minutes = minutes?.d30.minutes ?? 0;
  windows.d30.upMinutes = minutes?.d30.up ?? 0;
  return windows;
}
