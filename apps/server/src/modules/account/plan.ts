import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TPlansAnswer } from '@air/shared/schemas/account';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { membersChanged } from '../../billing/seats';
import { accounts } from '../../db/schema/accounts';

export function planOption(plan: TPlan) {
  return {
    id: plan.id,
    name: plan.name,
    price: plan.price,
    currency: { code: plan.currency, symbol: plan.currency_symbol },
    interval: plan.interval,
    type: plan.type,
    quota_calls_month: plan.quota_calls_month,
    rate_limit_per_minute: plan.rate_limit_per_minute,
  };
}

/** The account's name and plan id, or null when there is no such account. */
export async function accountHeader(
  db: TDb,
  accountId: string,
): Promise<{ name: string; planId: string | null } | null> {
  const [row] = await db
    .select({ name: accounts.name, planId: accounts.planId })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row ?? null;
}

export async function currentPlanId(db: TDb, accountId: string): Promise<string | null> {
  const [row] = await db
    .select({ planId: accounts.planId })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row?.planId ?? null;
}

export async function plansAnswer(app: FastifyInstance, accountId: string): Promise<TPlansAnswer> {
  return {
    plans: app.plans.map(planOption),
    active: await currentPlanId(app.db, accountId),
    options: app.plans.map((plan) => ({ value: plan.id, label: plan.name })),
  };
}

/**
 * Keeps the subscription's seat count equal to the account's member count (per-seat plans),
 * prorated onto the next invoice: the billing module's seats service.
 */
export async function syncSeats(db: TDb, accountId: string): Promise<void> {
  await membersChanged(db, accountId);
}
