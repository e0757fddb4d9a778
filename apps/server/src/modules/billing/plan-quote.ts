import type { TPlan } from '@air/shared/schemas/plan';
import type { TInvoiceLine } from '../../db/schema/invoices';
import { seatsFor, type TSubscriptionRow } from './records';

const PAYING = new Set(['active', 'trialing']);

/**
 * What a plan change does to the money, computed once for the change itself and for its preview
 * (`GET /api/account/plan/preview`), so the figures shown before the button are the ones charged.
 * - `free_now`: the free plan starts at once (no paid plan to run out).
 * - `free_at_period_end`: a paid plan runs to its period's end, then the account is on free.
 * - `keep`: the plan already paid for; nothing is charged.
 * - `new`: a first paid period, charged in full now.
 * - `prorate`: a move between paid plans; the difference for the rest of the period is charged
 *   now (an upgrade) or credited on the next invoice (a downgrade, `amount` below zero).
 */
export type TPlanQuoteMode = 'free_now' | 'free_at_period_end' | 'keep' | 'new' | 'prorate';

export interface TPlanQuote {
  mode: TPlanQuoteMode;
  seats: number;
  /** The invoice lines of the charge (empty when nothing is charged). Minor units. */
  lines: TInvoiceLine[];
  /** The sum of the lines: charged now when above zero, credited on the next invoice when below. */
  amount: number;
}

/** Whether the subscription is a paid plan in good standing (what a change is prorated against). */
export function isPaying(sub: TSubscriptionRow | null, current: TPlan | null): boolean {
  return !!sub && !!current && current.price > 0 && PAYING.has(sub.status);
}

export function quotePlanChange(input: {
  plan: TPlan;
  sub: TSubscriptionRow | null;
  current: TPlan | null;
  members: number;
  now: Date;
}): TPlanQuote {
  const { plan, sub, current, now } = input;
  const paying = isPaying(sub, current);
  const seats = seatsFor(plan, input.members);
  if (plan.price === 0)
    return { mode: paying ? 'free_at_period_end' : 'free_now', seats: 1, lines: [], amount: 0 };
  if (paying && sub!.planId === plan.id) return { mode: 'keep', seats: sub!.seats, lines: [], amount: 0 };
  let lines: TInvoiceLine[];
  if (paying) {
    const length = sub!.currentPeriodEnd.getTime() - sub!.currentPeriodStart.getTime();
    const left = Math.max(0, sub!.currentPeriodEnd.getTime() - now.getTime());
    const difference = plan.price * seats - sub!.seatPrice * sub!.seats;
    const amount = Math.round((difference * left) / Math.max(1, length));
    lines = [
      {
        description: `${plan.name} (prorated change from ${current!.name})`,
        quantity: 1,
        unitAmount: amount,
        amount,
        seats,
      },
    ];
  } else {
    lines = [
      {
        description: `${plan.name} plan`,
        quantity: seats,
        unitAmount: plan.price,
        amount: plan.price * seats,
        seats,
      },
    ];
  }
  return {
    mode: paying ? 'prorate' : 'new',
    seats,
    lines,
    amount: lines.reduce((sum, line) => sum + line.amount, 0),
  };
}
