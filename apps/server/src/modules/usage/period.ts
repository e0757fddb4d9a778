import {
  MAX_USAGE_DAYS,
  type TUsageQuota,
  type TUsageInsightQuery,
  type TUsagePeriod,
} from '@air/shared/schemas/usage-insight';

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a time, in UTC. */
export function dayOf(time: number | Date): string {
  return new Date(time).toISOString().slice(0, 10);
}

function addDays(day: string, days: number): string {
  return dayOf(Date.parse(day) + days * DAY_MS);
}

/** First and last day (inclusive, UTC) of a period picked on the usage page. */
export function periodRange(
  query: Pick<TUsageInsightQuery, 'period' | 'from' | 'to'>,
  now = Date.now(),
): { preset: TUsagePeriod; from: string; to: string } {
  const today = dayOf(now);
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (query.period) {
    case 'last_month':
      return {
        preset: 'last_month',
        from: dayOf(Date.UTC(year, month - 1, 1)),
        to: dayOf(Date.UTC(year, month, 0)),
      };
    case 'last_7_days':
      return { preset: 'last_7_days', from: addDays(today, -6), to: today };
    case 'last_30_days':
      return { preset: 'last_30_days', from: addDays(today, -29), to: today };
    case 'custom':
      return { preset: 'custom', from: query.from!, to: query.to! };
    default:
      return {
        preset: 'this_month',
        from: dayOf(Date.UTC(year, month, 1)),
        to: dayOf(Date.UTC(year, month + 1, 0)),
      };
  }
}

/**
 * Every day from `from` to `to`, inclusive, at most MAX_USAGE_DAYS of them: the query schema
 * already refuses a longer or impossible range, and the loop counts days as numbers with a cap so
 * no request can make it run on (the day after 9999-12-31 sorts before it as text).
 */
export function daysBetween(from: string, to: string): string[] {
  const first = Date.parse(from);
  const span = Math.floor((Date.parse(to) - first) / DAY_MS);
  if (!(span >= 0)) return [];
  const count = Math.min(span + 1, MAX_USAGE_DAYS);
  const days: string[] = [];
  for (let i = 0; i < count; i++) days.push(dayOf(first + i * DAY_MS));
  return days;
}

/**
 * Latency bucket bounds (ms) of usage_daily.latency_bucket: bucket i holds calls with latency in
 * [BOUNDS[i-1], BOUNDS[i]) (bucket 0 is under 1 ms, the last one 100 s and more). The migration's
 * trigger uses the same array with width_bucket(); change both together.
 */
export const LATENCY_BOUNDS_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000,
] as const;

/**
 * The latency under which `fraction` of the calls fall, from bucket counts: linear within the
 * bucket that holds the rank (the open last bucket answers its lower bound). null with no calls.
 */
export function percentileFromBuckets(counts: Map<number, number>, fraction: number): number | null {
  let total = 0;
  for (const calls of counts.values()) total += calls;
  if (total === 0) return null;
  const rank = fraction * total;
  let seen = 0;
  for (let bucket = 0; bucket <= LATENCY_BOUNDS_MS.length; bucket++) {
    const calls = counts.get(bucket) ?? 0;
    if (calls === 0) continue;
    if (seen + calls >= rank) {
      const lower = bucket === 0 ? 0 : LATENCY_BOUNDS_MS[bucket - 1]!;
      const upper = LATENCY_BOUNDS_MS[bucket];
      if (upper === undefined) return lower;
      return Math.round((lower + ((rank - seen) / calls) * (upper - lower)) * 10) / 10;
    }
    seen += calls;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}

/**
 * The day this month's calls reach `quota` at the pace so far (calls per elapsed day), or null
 * when they will not within the month (or nothing was called yet).
 */
export function projectedQuotaDay(calls: number, quota: number, now = Date.now()): string | null {
  const date = new Date(now);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  if (calls >= quota) return dayOf(now);
  if (calls === 0) return null;
  const perMs = calls / Math.max(now - start, 60_000);
  const reachedAt = now + (quota - calls) / perMs;
  return reachedAt < end ? dayOf(reachedAt) : null;
}

/** `2026-11` (UTC): the quota period is the calendar month. */
export function periodOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

export function periodStart(period: string): Date {
  return new Date(`${period}-01T00:00:00.000Z`);
}

/** This month's calls against the quota: per cent used, the projected day, whether it is reached. */
export function quotaState(calls: number, quota: number | null, now = Date.now()): TUsageQuota {
  return {
    period: periodOf(now),
    calls,
    quota,
    percent: quota === null ? null : quota === 0 ? 100 : Math.floor((calls * 100) / quota),
    projected_day: quota === null ? null : projectedQuotaDay(calls, quota, now),
    reached: quota !== null && calls >= quota,
  };
}
