import { eq } from 'drizzle-orm';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../db/client';
import { accounts } from '../db/schema/accounts';
import { subscriptions } from '../db/schema/subscriptions';
import { planById } from './records';

export interface TEntitlements {
  planId: string;
  quotaCallsMonth: number;
  rateLimitPerMinute: number;
}

/**
 * The one place that says what an account may use: the limits of the plan of its subscription
 * while it is active or trialing; the free plan's limits while it is unpaid
 * (`requires_payment_method`, `requires_action`) or cancelled, and before any plan is chosen.
 * The gateway caches the answer per account and drops it on every billing change (the change bus).
 */
export async function entitlementsFor(db: TDb, offered: TPlan[], accountId: string): Promise<TEntitlements> {
  const [row] = await db
    .select({ accountPlan: accounts.planId, subPlan: subscriptions.planId, status: subscriptions.status })
    .from(accounts)
    .leftJoin(subscriptions, eq(subscriptions.accountId, accounts.id))
    .where(eq(accounts.id, accountId))
    .limit(1);
  let planId = 'free';
  if (row?.subPlan) {
    if (row.status === 'active' || row.status === 'trialing') planId = row.subPlan;
  } else if (row?.accountPlan) {
    planId = row.accountPlan;
  }
  const plan = (await planById(db, offered, planId)) ?? offered.find((p) => p.id === 'free')!;
  return {
    planId: plan.id,
    quotaCallsMonth: plan.quota_calls_month,
    rateLimitPerMinute: plan.rate_limit_per_minute,
  };
}
