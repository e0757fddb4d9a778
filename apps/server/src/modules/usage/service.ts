import { and, count, eq, gte, isNotNull, sql } from 'drizzle-orm';
import { endpointRoutes } from '../aiendpoint/service';
import { picosToMinor } from '../money/service';
import type { TUsageList } from '@air/shared/schemas/usage';
import type { TUsageInsight, TUsageInsightQuery } from '@air/shared/schemas/usage-insight';
import type { TServices } from '../../core/services';
import type { TDb, TTx } from '../../db/client';
import { usageEvents } from '../../db/schema/usage-events';
import { callerUsage, providerUsage } from './insight';
import { periodOf, periodRange, periodStart, quotaState } from './period';
import { OVERVIEW_LATEST_CALLS, type TAccountOverview } from '@air/shared/schemas/overview';
import { accountOverview } from './overview';
import { requestLog } from './request-log';
import { listKeys } from '../keys/service';
import { keyPeriodUsage, keysPeriodUse, limitsReached } from './limits';
import type { TLimitsState, TListedApiKey } from '@air/shared/schemas/limits';

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
    // A call to an unknown route is metered for the request log but never counted to the quota.
    isNotNull(usageEvents.endpointId),
  );
  const [row] = await db
    .select({ calls: count() })
    .from(usageEvents)
    .where(keyId === undefined ? since : and(since, eq(usageEvents.keyId, keyId)));
  return Number(row?.calls ?? 0);
}

/**
 * What a counter seeded again after it was lost (Redis restarted, or its month dropped) corrects
 * itself by (decision 049): the stored calls of an account (or key) this period, in all and of
 * the calls counted before `startedBefore` (a row's admitted_at; a row without one, replayed from
 * a journal, by its start: created_at, when the call ended, less its latency). Read once at the
 * seed and again later, the second figure grows by the rows of calls counted before the loss that
 * other instances stored after the seed.
 */
export async function storedCallsCountedBefore(
  db: TDb,
  accountId: string,
  period: string,
  keyId: string | undefined,
  startedBefore: Date,
): Promise<{ calls: number; startedBefore: number }> {
  const result = (await db.execute(sql`
    select count(*)::int as calls,
      (count(*) filter (where coalesce(admitted_at, created_at - latency_ms * interval '1 millisecond')
        < ${startedBefore.toISOString()}::timestamptz))::int as before
    from usage_events
    where caller_account_id = ${accountId} and endpoint_id is not null
      ${keyId === undefined ? sql`` : sql`and key_id = ${keyId}`}
      and created_at >= ${periodStart(period).toISOString()}::timestamptz`)) as {
    rows: { calls: number; before: number }[];
  };
  const row = result.rows[0];
  return { calls: Number(row?.calls ?? 0), startedBefore: Number(row?.before ?? 0) };
}

/**
 * The same for a spend counter: the stored spend in picos this period, in all and of the calls
 * metered (settled) before `createdBefore`.
 */
export async function storedSpendPicosBefore(
  db: TDb,
  accountId: string,
  period: string,
  keyId: string | undefined,
  createdBefore: Date,
): Promise<{ picos: bigint; before: bigint }> {
  const result = (await db.execute(sql`
    select coalesce(sum(cost_picos), 0)::text as spend,
      coalesce(sum(cost_picos) filter (where created_at < ${createdBefore.toISOString()}::timestamptz), 0)::text
        as before
    from usage_events
    where caller_account_id = ${accountId} and cost_picos is not null
      ${keyId === undefined ? sql`` : sql`and key_id = ${keyId}`}
      and created_at >= ${periodStart(period).toISOString()}::timestamptz`)) as {
    rows: { spend: string; before: string }[];
  };
  return { picos: BigInt(result.rows[0]?.spend ?? '0'), before: BigInt(result.rows[0]?.before ?? '0') };
}

/**
 * A caller account's (or one of its keys') exact marketplace spend in picos since the period
 * began, as the database's integer sum (text: any size, never rounded): what the gateway seeds its
 * spend counters from, and what the usage report rounds once (modules/money).
 */
export async function storedSpendPicos(
  db: TDb,
  accountId: string,
  period: string,
  keyId?: string,
): Promise<bigint> {
  const result = (await db.execute(sql`
    select coalesce(sum(cost_picos), 0)::text as spend from usage_events
    where caller_account_id = ${accountId} and cost_picos is not null
      ${keyId === undefined ? sql`` : sql`and key_id = ${keyId}`}
      and created_at >= ${periodStart(period).toISOString()}::timestamptz`)) as {
    rows: { spend: string }[];
  };
  return BigInt(result.rows[0]?.spend ?? '0');
}

/**
 * The prompt plus completion tokens stored for one key since an instant: what the gateway seeds a
 * minute's token window from after a restart (decision 049). Read through the caller's index.
 */
export async function storedTokens(db: TDb, accountId: string, keyId: string, since: Date): Promise<number> {
  const result = (await db.execute(sql`
    select coalesce(sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)), 0)::text as tokens
    from usage_events
    where caller_account_id = ${accountId} and key_id = ${keyId}
      and created_at >= ${since.toISOString()}::timestamptz`)) as { rows: { tokens: string }[] };
  return Number(result.rows[0]?.tokens ?? '0');
}

/**
 * The gateway's in-memory parts that usage reports on: its quota counter, the plan limits it
 * enforces and its pending usage rows. The gateway hands them over when it starts
 * (`reportGatewayTo`); usage does not import the gateway, which sits above the modules.
 */
interface TQuota {
  planId: string;
  quotaCallsMonth: number;
  spendLimitMinor: number | null;
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
  return { calls, quota: limits?.quotaCallsMonth ?? free?.quota_calls_month ?? null, limits };
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
  const { calls, quota, limits } = await monthCalls(app, gateway, accountId);
  await flushUsage(gateway);
  const spendPicos = await storedSpendPicos(app.db, accountId, period);
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
      .where(
        and(
          eq(usageEvents.callerAccountId, accountId),
          gte(usageEvents.createdAt, start),
          isNotNull(usageEvents.endpointId),
        ),
      );
    total = Number(made?.total ?? 0);
  }
  const plan =
    app.plans.find((p) => p.id === limits?.planId) ?? app.plans.find((p) => p.price > 0) ?? app.plans[0];
  return [
    { label: 'calls', total, quota, ...bounds },
    { label: 'served', total: Number(served?.total ?? 0), quota: null, ...bounds },
    {
      label: 'spend',
      total: picosToMinor(spendPicos),
      quota: limits?.spendLimitMinor ?? null,
      ...bounds,
      currency: plan?.currency ?? 'usd',
      currency_symbol: plan?.currency_symbol ?? '$',
    },
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
    quota: quotaState(calls, quota, now),
  };
}

/**
 * The dashboard (`GET /api/account/overview`): the roll-up's figures after the pending batch is
 * written (a call made a moment ago counts), this month against the quota as the gateway counts
 * it, the endpoints' circuits and the request log's newest calls.
 */
export async function overview(
  app: TServices,
  gateway: TGatewayView,
  server: object,
  accountId: string,
): Promise<TAccountOverview> {
  const month = await monthCalls(app, gateway, accountId);
  await flushUsage(gateway);
  const latest = await requestLog(app.db, accountId, { limit: OVERVIEW_LATEST_CALLS });
  return accountOverview(app, accountId, { month, server, latestCalls: latest.items });
}

/**
 * `GET /api/key`: the account's keys, each with its use this period against its cap (issue 38
 * item 2), after the gateway's pending rows are written (a call made a moment ago counts). One
 * grouped query for all the keys.
 */
export async function keysWithUsage(
  app: TServices,
  gateway: TGatewayView,
  accountId: string,
  /** The account's billing currency, what the keys' spend is in. */
  currency: string,
): Promise<TListedApiKey[]> {
  await flushUsage(gateway);
  const [keys, use] = await Promise.all([
    listKeys(app, accountId),
    keysPeriodUse(app.db, accountId, periodOf(Date.now()), currency),
  ]);
  return keys.map((key) => ({ ...key, usage: keyPeriodUsage(key, use) }));
}

/**
 * `GET /api/account/usage/limits`: the limits reached this period (plan quota, spend limit, each
 * key's cap) and the calls refused for a limit, for the console's "limit reached" state.
 */
export async function limitsState(
  app: TServices,
  gateway: TGatewayView,
  accountId: string,
  currency: string,
): Promise<TLimitsState> {
  const totals = await accountUsage(app, gateway, accountId);
  const [keys, use] = await Promise.all([
    listKeys(app, accountId),
    keysPeriodUse(app.db, accountId, totals[0]?.period ?? periodOf(Date.now()), currency),
  ]);
  return limitsReached(totals, keys, use);
}

/** One route at one price of a caller's priced calls not billed yet, taken for a charge. */
export interface TBilledCalls {
  chargeId: string;
  endpointId: string;
  providerAccountId: string;
  routeName: string | null;
  pricePerCall: number;
  pricePer1mInput: number;
  pricePer1mOutput: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** The exact cost (picos) rounded once, half up, to the minor unit (modules/money). */
  amount: number;
}

/**
 * Takes the caller's priced calls metered before `cutoff` and not billed yet, grouped by route and
 * price, and marks each with its group's new charge id, in the caller's transaction (the renewal's):
 * a call is billed once, and one metered late (a replayed journal) is billed at the next renewal.
 */
export async function takeUnbilledCalls(
  db: TDb | TTx,
  accountId: string,
  cutoff: Date,
): Promise<TBilledCalls[]> {
  const routes = endpointRoutes(db as TDb, 'r');
  const result = (await db.execute(sql`
    with groups as (
      select gen_random_uuid() as charge_id, g.* from (
        select endpoint_id, provider_account_id, price_per_call, price_per_1m_input, price_per_1m_output,
          count(*)::int as calls, coalesce(sum(prompt_tokens), 0)::bigint as prompt_tokens,
          coalesce(sum(completion_tokens), 0)::bigint as completion_tokens,
          coalesce(sum(cost_picos), 0)::text as picos
        from usage_events
        where caller_account_id = ${accountId} and cost_picos is not null and charge_id is null
          and created_at < ${cutoff.toISOString()}::timestamptz
        group by 1, 2, 3, 4, 5
      ) g
    ), marked as (
      update usage_events u set charge_id = g.charge_id from groups g
      where u.caller_account_id = ${accountId} and u.cost_picos is not null and u.charge_id is null
        and u.created_at < ${cutoff.toISOString()}::timestamptz
        and u.endpoint_id = g.endpoint_id and u.provider_account_id = g.provider_account_id
        and u.price_per_call = g.price_per_call and u.price_per_1m_input = g.price_per_1m_input
        and u.price_per_1m_output = g.price_per_1m_output
      returning 1
    )
    select g.charge_id::text as "chargeId", g.endpoint_id::text as "endpointId",
      g.provider_account_id::text as "providerAccountId", r.route_name as "routeName",
      g.price_per_call as "pricePerCall", g.price_per_1m_input as "pricePer1mInput",
      g.price_per_1m_output as "pricePer1mOutput", g.calls, g.prompt_tokens::float8 as "promptTokens",
      g.completion_tokens::float8 as "completionTokens", g.picos,
      (select count(*) from marked)::int as marked
    from groups g left join ${routes} on r.id = g.endpoint_id
    order by r.route_name, g.price_per_call`)) as {
    rows: (Omit<TBilledCalls, 'amount'> & { picos: string; marked: number })[];
  };
  return result.rows.map(({ marked: _marked, picos, ...row }) => ({
    ...row,
    // The group's exact sum, rounded once here (never in SQL).
    amount: picosToMinor(picos),
    calls: Number(row.calls),
    promptTokens: Number(row.promptTokens),
    completionTokens: Number(row.completionTokens),
    pricePerCall: Number(row.pricePerCall),
    pricePer1mInput: Number(row.pricePer1mInput),
    pricePer1mOutput: Number(row.pricePer1mOutput),
  }));
}

/**
 * The caller's marketplace spend not billed yet (metered before `before`, default all), in minor
 * units rounded once, half up.
 */
export async function unbilledSpendBefore(db: TDb, accountId: string, before?: Date): Promise<number> {
  const result = (await db.execute(sql`
    select coalesce(sum(cost_picos), 0)::text as spend from usage_events
    where caller_account_id = ${accountId} and cost_picos is not null and charge_id is null
      ${before ? sql`and created_at < ${before.toISOString()}::timestamptz` : sql``}`)) as {
    rows: { spend: string }[];
  };
  return picosToMinor(result.rows[0]?.spend ?? '0');
}

/**
 * What a provider's priced endpoints have earned gross and not yet been invoiced to their callers
 * (calls since the callers' last renewals), in minor units rounded once, half up.
 */
export async function unbilledEarningsOf(db: TDb, providerAccountId: string): Promise<number> {
  const result = (await db.execute(sql`
    select coalesce(sum(cost_picos), 0)::text as picos from usage_events
    where provider_account_id = ${providerAccountId} and cost_picos is not null and charge_id is null`)) as {
    rows: { picos: string }[];
  };
  return picosToMinor(result.rows[0]?.picos ?? '0');
}
