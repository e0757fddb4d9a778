import { and, count, eq, gte } from 'drizzle-orm';
import type { TUsageList } from '@air/shared/schemas/usage';
import type { TUsageInsight, TUsageInsightQuery } from '@air/shared/schemas/usage-insight';
import type { TServices } from '../../core/services';
import type { TDb, TTx } from '../../db/client';
import { usageEvents } from '../../db/schema/usage-events';
import { callerUsage, providerUsage } from './insight';
import { periodOf, periodRange, periodStart, projectedQuotaDay } from './period';

/*
 * Usage owns the calls the gateway serves (`usage_events`, its daily roll-up, the meter's batches
 * and the quota warnings): the meter that writes them (metering.ts, with its journal), the
 * reports that read them, and the stored count the gateway seeds its quota counter from.
 */
export { Meter, insertUsageRows, type TMeterOptions, type TUsageRow } from './metering';
export type { TJournalStart } from './journal';
export { periodOf, periodStart };

/** Day arithmetic and latency percentiles over the roll-ups' buckets, for the marketplace's statistics. */
export { dayOf, percentileFromBuckets } from './period';

/** The first instant of the month after `period`. */
function periodEnd(period: string): Date {
  const start = periodStart(period);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/**
 * Deletes the calls an account made, in the caller's transaction when it closes the account:
 * usage_events has no foreign key to cascade from (metering.ts says why).
 */
export async function deleteAccountUsage(db: TDb | TTx, accountId: string): Promise<void> {
  await db.delete(usageEvents).where(eq(usageEvents.callerAccountId, accountId));
}

/**
 * The calls stored in usage_events for one caller account (or one of its keys) since the period
 * began: what the gateway seeds its quota counters from. Read through the caller's index.
 */
export async function storedCalls(
  db: TDb,
  accountId: string,
  period: string,
  keyId?: string,
): Promise<number> {
  const since = and(
    eq(usageEvents.callerAccountId, accountId),
    gte(usageEvents.createdAt, periodStart(period)),
  );
  const [row] = await db
    .select({ calls: count() })
    .from(usageEvents)
    .where(keyId === undefined ? since : and(since, eq(usageEvents.keyId, keyId)));
  return Number(row?.calls ?? 0);
}

/**
 * The gateway's in-memory parts that usage reports on: its quota counter, the plan limits it
 * enforces and its pending usage rows. The gateway hands them over when it starts
 * (`reportGatewayTo`); usage does not import the gateway, which sits above the modules.
 */
interface TQuota {
  quotaCallsMonth: number;
}

export interface TGatewayView {
  meter: { flush(): Promise<void> };
  counters: { calls(accountId: string): number | Promise<number> };
  directory: { planLimits: { get(accountId: string): TQuota | null | Promise<TQuota | null> } };
}

const gatewayViews = new WeakMap<object, TGatewayView>();

/** Called by the gateway with its server (`app.server`) and its running parts. */
export function reportGatewayTo(server: object, view: TGatewayView): void {
  gatewayViews.set(server, view);
}

/** The running gateway's parts, for the usage routes of the same server. */
export function gatewayViewOf(server: object): TGatewayView {
  const view = gatewayViews.get(server);
  if (!view) throw new Error('the gateway is not loaded');
  return view;
}

/** Writes the gateway's pending usage rows, so a call made a moment ago shows. */
export async function flushUsage(gateway: TGatewayView): Promise<void> {
  await gateway.meter.flush();
}

/** This month's calls (the gateway's own quota counter, so the console and the 402 agree) and quota. */
async function monthCalls(app: TServices, gateway: TGatewayView, accountId: string) {
  const [calls, limits] = await Promise.all([
    gateway.counters.calls(accountId),
    gateway.directory.planLimits.get(accountId),
  ]);
  // No limits loaded yet (no subscription row): the free plan's, as the gateway's entitlements say.
  const free = app.plans.find((plan) => plan.id === 'free');
  return { calls, quota: limits?.quotaCallsMonth ?? free?.quota_calls_month ?? null };
}

/**
 * This period's gateway use of one account. `calls` is the same counter the gateway enforces the
 * quota with (so the console and the 402 agree); `served` is counted from usage_events after the
 * pending batch is written, so a call made a moment ago is included.
 */
export async function accountUsage(
  app: TServices,
  gateway: TGatewayView,
  accountId: string,
): Promise<TUsageList> {
  const period = periodOf(Date.now());
  const start = periodStart(period);
  const { calls, quota } = await monthCalls(app, gateway, accountId);
  await flushUsage(gateway);
  const [served] = await app.db
    .select({ total: count() })
    .from(usageEvents)
    .where(and(eq(usageEvents.providerAccountId, accountId), gte(usageEvents.createdAt, start)));
  const bounds = { period, period_start: start.toISOString(), period_end: periodEnd(period).toISOString() };
  // A counter not yet seeded for this month reads as no number: count the stored calls instead.
  let total = calls;
  if (!Number.isFinite(total)) {
    const [made] = await app.db
      .select({ total: count() })
      .from(usageEvents)
      .where(and(eq(usageEvents.callerAccountId, accountId), gte(usageEvents.createdAt, start)));
    total = Number(made?.total ?? 0);
  }
  return [
    { label: 'calls', total, quota, ...bounds },
    { label: 'served', total: Number(served?.total ?? 0), quota: null, ...bounds },
  ];
}

/** The usage page: caller and provider views of the period, and this month against the quota. */
export async function usageInsight(
  app: TServices,
  gateway: TGatewayView,
  accountId: string,
  query: TUsageInsightQuery,
  now = Date.now(),
): Promise<TUsageInsight> {
  const range = periodRange(query, now);
  const { calls, quota } = await monthCalls(app, gateway, accountId);
  await flushUsage(gateway);
  const [caller, provider] = await Promise.all([
    callerUsage(app.db, accountId, range.from, range.to),
    providerUsage(app.db, accountId, range.from, range.to),
  ]);
  return {
    period: range,
    caller,
    provider,
    quota: {
      period: periodOf(now),
      calls,
      quota,
      percent: quota === null ? null : quota === 0 ? 100 : Math.floor((calls * 100) / quota),
      projected_day: quota === null ? null : projectedQuotaDay(calls, quota, now),
      reached: quota !== null && calls >= quota,
    },
  };
}
