import type { TPlansAnswer } from '@air/shared/schemas/account';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { accountPlanId, accountSummary } from '../membership/service';
import type { TServices } from '../../core/services';

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
    tokens_per_minute: plan.tokens_per_minute,
  };
}

/** The account's name and plan id, or null when there is no such account. */
export async function accountHeader(
  db: TDb,
  accountId: string,
): Promise<{ name: string; planId: string | null } | null> {
  const account = await accountSummary(db, accountId);
  return account ? { name: account.name, planId: account.planId } : null;
}

export async function plansAnswer(app: TServices, accountId: string): Promise<TPlansAnswer> {
  return {
    plans: app.plans.map(planOption),
    active: await accountPlanId(app.db, accountId),
    options: app.plans.map((plan) => ({ value: plan.id, label: plan.name })),
  };
}
