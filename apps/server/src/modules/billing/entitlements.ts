import { eq, min, sql } from 'drizzle-orm';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { cards } from '../../db/schema/cards';
import { plans as plansTable } from '../../db/schema/plans';
import { spendLimits } from '../../db/schema/spend-limits';
import { subscriptions, type TSubscriptionStatus } from '../../db/schema/subscriptions';
import { accountPlans } from '../membership/service';
import { planOfRow } from './records';

export interface TEntitlements {
  planId: string;
  quotaCallsMonth: number;
  rateLimitPerMinute: number;
  /** Tokens per key and minute (contract 6e), or null for no token limit of the plan. */
  tokensPerMinute: number | null;
  /** A card is on file: the account may call priced marketplace routes (contract 5a). */
  hasCard: boolean;
  /** The account's cap on marketplace spend per period, in minor units; null for none. */
  spendLimitMinor: number | null;
  /**
   * When the limit was last saved (ms), null without one: the gateway's spend counter is named by
   * it, so each saved limit counts afresh from the stored spend.
   */
  spendLimitSetAt: number | null;
}

/**
 * The plan an account is entitled to: its subscription's plan while the subscription is active or
 * trialing; the free plan while it is unpaid (`requires_payment_method`, `requires_action`) or
 * cancelled; the account's own plan id when it has no subscription row, the free plan when neither.
 */
function entitledPlanId(
  row: { accountPlan: string | null; subPlan: string | null; status: TSubscriptionStatus | null } | undefined,
): string {
  if (row?.subPlan) return row.status === 'active' || row.status === 'trialing' ? row.subPlan : 'free';
  return row?.accountPlan ?? 'free';
}

function entitlementsOfPlan(
  plan: TPlan,
  row: { hasCard: boolean; spendLimit: number | null; spendLimitSetAt: Date | null } | undefined,
): TEntitlements {
  return {
    planId: plan.id,
    quotaCallsMonth: plan.quota_calls_month,
    rateLimitPerMinute: plan.rate_limit_per_minute,
    tokensPerMinute: plan.tokens_per_minute ?? null,
    hasCard: row?.hasCard ?? false,
    spendLimitMinor: row?.spendLimit ?? null,
    spendLimitSetAt: row?.spendLimit == null ? null : (row.spendLimitSetAt?.getTime() ?? 0),
  };
}

/**
 * The one place that says what accounts may use (many at once: two queries whatever the number).
 * Every account asked for is in the answer; an unknown one gets the free plan's limits. A plan is
 * looked up among the offered ones first, then in the plans table (a plan removed from the file
 * still binds its subscribers). Takes the database, never Fastify, so jobs and workers call it too.
 */
export async function entitlementsOf(
  db: TDb,
  offered: TPlan[],
  accountIds: readonly string[],
): Promise<Map<string, TEntitlements>> {
  const answer = new Map<string, TEntitlements>();
  if (accountIds.length === 0) return answer;
  const account = accountPlans(db);
  const rows = await db
    .select({
      accountId: account.id,
      accountPlan: account.planId,
      subPlan: subscriptions.planId,
      status: subscriptions.status,
      hasCard: sql<boolean>`${cards.accountId} is not null`,
      spendLimit: spendLimits.limitMinor,
      spendLimitSetAt: spendLimits.updatedAt,
    })
    .from(account)
    .leftJoin(subscriptions, eq(subscriptions.accountId, account.id))
    .leftJoin(cards, eq(cards.accountId, account.id))
    .leftJoin(spendLimits, eq(spendLimits.accountId, account.id))
    // One array parameter (a bare array would expand into one parameter per id).
    .where(sql`${account.id} = any(${sql.param([...new Set(accountIds)])}::uuid[])`);
  const byAccount = new Map(rows.map((row) => [row.accountId, row]));
  const planIds = new Map(accountIds.map((id) => [id, entitledPlanId(byAccount.get(id))]));

  const known = new Map(offered.map((plan) => [plan.id, plan]));
  const missing = [...new Set(planIds.values())].filter((id) => !known.has(id));
  if (missing.length > 0) {
    const stored = await db
      .select()
      .from(plansTable)
      .where(sql`${plansTable.id} = any(${sql.param(missing)}::text[])`);
    for (const row of stored) known.set(row.id, planOfRow(row));
  }
  const free = known.get('free')!;
  for (const [accountId, planId] of planIds) {
    answer.set(accountId, entitlementsOfPlan(known.get(planId) ?? free, byAccount.get(accountId)));
  }
  return answer;
}

/**
 * What one account may use (`entitlementsOf` for one). The gateway caches the answer per account
 * and drops it on every billing change (the change bus); the usage page and the quota-warning mails
 * read the same answer, so what they show is what the gateway enforces.
 */
export async function entitlementsFor(db: TDb, offered: TPlan[], accountId: string): Promise<TEntitlements> {
  return (await entitlementsOf(db, offered, [accountId])).get(accountId)!;
}

/**
 * The smallest monthly quota any account can be entitled to (offered plans and the plans table):
 * a floor a batch job can filter with in SQL before asking `entitlementsOf` for the accounts left.
 */
export async function lowestQuotaCallsMonth(db: TDb, offered: TPlan[]): Promise<number> {
  const [row] = await db.select({ quota: min(plansTable.quotaCallsMonth) }).from(plansTable);
  const quotas = offered.map((plan) => plan.quota_calls_month);
  if (row?.quota !== null && row?.quota !== undefined) quotas.push(Number(row.quota));
  return quotas.length > 0 ? Math.min(...quotas) : 0;
}
