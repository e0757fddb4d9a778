import type { TPlanPreview } from '@air/shared/schemas/billing';
import { AppError } from '../../lib/app-error';
import { memberCount } from '../membership/service';
import { billingNow } from './clock';
import type { TBilling } from './context';
import { quotePlanChange } from './plan-quote';
import { loadSubscription, planById } from './records';

/**
 * `GET /api/account/plan/preview?plan=`: the plan change's figures without changing anything,
 * from the same `quotePlanChange` the change charges with, at the billing clock's now.
 */
export async function previewPlanChange(
  b: TBilling,
  accountId: string,
  planId: string,
): Promise<TPlanPreview> {
  const plan = b.plans.find((p) => p.id === planId);
  if (!plan) throw new AppError('validation', { messageKey: 'error.plan_unknown', inputError: 'plan' });
  const [now, sub, members] = await Promise.all([
    billingNow(b.db),
    loadSubscription(b.db, accountId),
    memberCount(b.db, accountId),
  ]);
  const current = sub ? await planById(b.db, b.plans, sub.planId) : null;
  const quote = quotePlanChange({ plan, sub, current, members, now });
  const charged = quote.mode === 'new' || quote.mode === 'prorate';
  return {
    plan: plan.id,
    plan_name: plan.name,
    mode: quote.mode,
    seats: quote.seats,
    seat_price: plan.price,
    proration: quote.mode === 'prorate' ? quote.amount : 0,
    amount_due: charged ? Math.max(0, quote.amount) : 0,
    credit: charged ? Math.max(0, -quote.amount) : 0,
    renewal_amount: plan.price * quote.seats,
    currency: plan.currency,
    currency_symbol: plan.currency_symbol,
    interval: plan.interval,
    period_end: sub && current && current.price > 0 ? sub.currentPeriodEnd.toISOString() : null,
  };
}
