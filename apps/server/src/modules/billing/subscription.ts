import type { TSubscription } from '@air/shared/schemas/billing';
import type { TBilling } from './context';
import { loadSubscription, planById } from './records';

/** `GET /api/account/subscription`: the spec's Subscription entity plus plan id and name. */
export async function subscriptionWire(b: TBilling, accountId: string): Promise<TSubscription | null> {
  const sub = await loadSubscription(b.db, accountId);
  if (!sub) return null;
  const plan = await planById(b.db, b.plans, sub.planId);
  return {
    plan: sub.planId,
    plan_name: plan?.name ?? sub.planId,
    status: sub.status,
    cancel_at_period_end: sub.cancelAtPeriodEnd,
    seats: sub.seats,
    seat_price: sub.seatPrice,
    currency_symbol: sub.currencySymbol,
    interval: sub.interval,
    current_period_start: sub.currentPeriodStart.toISOString(),
    current_period_end: sub.currentPeriodEnd.toISOString(),
    next_attempt_at:
      sub.status === 'requires_payment_method' || sub.status === 'requires_action'
        ? (sub.nextAttemptAt?.toISOString() ?? null)
        : null,
  };
}
