import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TPlansAnswer } from '@air/shared/schemas/account';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { accounts, accountUsers, subscriptions } from '../../db/schema';
import { AppError } from '../../lib/app-error';

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

/** Keeps the subscription's seat count equal to the account's member count. */
export async function syncSeats(db: TDb, accountId: string): Promise<void> {
  const [row] = await db
    .select({ n: count() })
    .from(accountUsers)
    .where(eq(accountUsers.accountId, accountId));
  await db
    .update(subscriptions)
    .set({ seats: Math.max(1, row?.n ?? 1) })
    .where(eq(subscriptions.accountId, accountId));
}

function periodEnd(start: Date, interval: string): Date {
  const end = new Date(start);
  if (interval === 'year') end.setFullYear(end.getFullYear() + 1);
  else end.setMonth(end.getMonth() + 1);
  return end;
}

/**
 * Chooses the account's plan. The free plan completes at once (active subscription, one seat per
 * member). A paid plan needs card billing, which a later issue adds: until then 402 with the plan,
 * so the console sends the user to the upgrade page with a clear message.
 */
export async function choosePlan(app: FastifyInstance, accountId: string, planId: string): Promise<void> {
  const plan = app.plans.find((p) => p.id === planId);
  if (!plan) throw new AppError('validation', { messageKey: 'error.plan_unknown', inputError: 'plan' });
  if (plan.price > 0) {
    throw new AppError('payment_required', {
      messageKey: 'error.card_billing_unavailable',
      extra: { plan: plan.id },
    });
  }
  const start = new Date();
  const values = {
    planId: plan.id,
    status: 'active' as const,
    cancelAtPeriodEnd: false,
    seatPrice: plan.price,
    currencySymbol: plan.currency_symbol,
    interval: plan.interval,
    currentPeriodStart: start,
    currentPeriodEnd: periodEnd(start, plan.interval),
  };
  await app.db.transaction(async (tx) => {
    await tx.update(accounts).set({ planId: plan.id }).where(eq(accounts.id, accountId));
    await tx
      .insert(subscriptions)
      .values({ accountId, ...values })
      .onConflictDoUpdate({ target: subscriptions.accountId, set: { ...values, updatedAt: new Date() } });
    await syncSeats(tx as unknown as TDb, accountId);
  });
  await app.changes.publish({ kind: 'account', accountId });
}
