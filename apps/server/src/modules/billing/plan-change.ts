import { and, eq, sql } from 'drizzle-orm';
import type { TPaymentResult } from '@air/shared/schemas/billing';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { invoices } from '../../db/schema/invoices';
import { subscriptions } from '../../db/schema/subscriptions';
import { t, type TLocale } from '../../i18n';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../activity/service';
import { memberCount, setAccountPlan } from '../membership/service';
import {
  attach,
  chargeKey,
  chargeOnSession,
  confirmPayment,
  publish,
  storeCard,
  type TBillingOutcome,
} from './charge';
import { addInterval, billingNow } from './clock';
import type { TBilling } from './context';
import { processorCall } from './errors';
import { planMetadata, type TPlanIntent } from './intent';
import { withBillingLock } from './lock';
import { mailOwners } from './mails';
import type { TCardDetails, TPayment } from './provider';
import { customerFor, insertInvoice, loadCard, loadSubscription, planById } from './records';
import { isPaying, quotePlanChange } from './plan-quote';

/**
 * Plan changes (server contract section 7, decision 007). A paid change is charged before anything
 * changes, as a `TPlanIntent` in the payment's metadata; applying it writes the plan and its
 * invoice in one transaction keyed by the payment id, so a payment is applied once however often
 * its request (or Stripe's webhook) is repeated.
 */

/** The console's day ("Dec 1, 2026", "1 dic 2026": apps/web/src/lib/format-date.ts), in UTC. */
function dateText(date: Date, locale: TLocale): string {
  return date.toLocaleDateString(locale === 'es' ? 'es-ES' : 'en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

function findPlan(b: TBilling, planId: string): TPlan {
  const plan = b.plans.find((p) => p.id === planId);
  if (!plan) throw new AppError('validation', { messageKey: 'error.plan_unknown', inputError: 'plan' });
  return plan;
}

/** The activity log's entry for a plan change, written in the change's own transaction. */
async function logPlanChange(db: TDb, accountId: string, actorUserId: string | null, plan: TPlan) {
  await recordActivity(db, { accountId, actorUserId, type: 'plan.changed', data: { plan: plan.name } });
}

async function mailPlanSaved(b: TBilling, accountId: string, planName: string, locale: TLocale) {
  await mailOwners(b, accountId, {
    template: 'plan_updated',
    params: { plan: planName, detail: t(locale, 'billing.plan_saved') },
  });
}

/** The free plan, now (sign-up, or after a cancelled subscription). */
async function startFree(
  db: TDb,
  accountId: string,
  plan: TPlan,
  start: Date,
  actorUserId: string | null,
  changed: boolean,
) {
  const values = {
    planId: plan.id,
    status: 'active' as const,
    cancelAtPeriodEnd: false,
    seats: 1,
    seatPrice: 0,
    currencySymbol: plan.currency_symbol,
    interval: plan.interval,
    currentPeriodStart: start,
    currentPeriodEnd: addInterval(start, plan.interval),
    prorationBalance: 0,
    failedAttempts: 0,
    nextAttemptAt: null,
  };
  await db.transaction(async (tx) => {
    await setAccountPlan(tx, accountId, plan.id);
    await tx
      .insert(subscriptions)
      .values({ accountId, ...values })
      .onConflictDoUpdate({
        target: subscriptions.accountId,
        set: { ...values, version: sql`${subscriptions.version} + 1`, updatedAt: new Date() },
      });
    // A cancelled subscription's unpaid invoice is void once the account starts over.
    await tx
      .update(invoices)
      .set({ status: 'void', updatedAt: new Date() })
      .where(and(eq(invoices.accountId, accountId), eq(invoices.status, 'open')));
    if (changed) await logPlanChange(tx, accountId, actorUserId, plan);
  });
}

/** Sets or clears the switch to the free plan at the period's end, logged as a plan change. */
async function setCancelAtPeriodEnd(
  db: TDb,
  accountId: string,
  cancel: boolean,
  actorUserId: string | null,
  plan: TPlan,
) {
  await db
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: cancel, version: sql`${subscriptions.version} + 1`, updatedAt: new Date() })
    .where(eq(subscriptions.accountId, accountId));
  await logPlanChange(db, accountId, actorUserId, plan);
}

export interface TPlanChangeInput {
  accountId: string;
  /** The user asking (the activity log's actor); null for the system. */
  actorUserId: string | null;
  planId: string;
  token?: string | undefined;
  payment?: TPaymentResult | undefined;
  idempotencyKey?: string | undefined;
  locale: TLocale;
}

/** `POST/PATCH /api/account/plan`, `POST /api/account/upgrade`. */
export async function changePlan(b: TBilling, input: TPlanChangeInput): Promise<TBillingOutcome> {
  const plan = findPlan(b, input.planId);
  const { accountId, locale, actorUserId } = input;
  const saved: TBillingOutcome = { kind: 'done', message: t(locale, 'billing.plan_saved') };
  return withBillingLock(b.db, accountId, async () => {
    if (input.payment) {
      const confirmed = await confirmPayment(
        b,
        accountId,
        input.payment.payment_intent,
        { action: 'plan', planId: plan.id },
        locale,
      );
      if (confirmed.kind === 'action') return confirmed.outcome;
      if (confirmed.kind === 'plan')
        await applyPlan(b, confirmed.intent, confirmed.payment, confirmed.payment.amount);
      await mailPlanSaved(b, accountId, plan.name, locale);
      return saved;
    }
    const now = await billingNow(b.db);
    const sub = await loadSubscription(b.db, accountId);
    const current = sub ? await planById(b.db, b.plans, sub.planId) : null;
    const paying = !!sub && !!current && isPaying(sub, current);

    if (plan.price === 0) {
      if (paying) {
        const detail = t(locale, 'billing.plan_cancel_at_period_end', {
          date: dateText(sub.currentPeriodEnd, locale),
        });
        if (!sub.cancelAtPeriodEnd) {
          await b.db.transaction((tx) => setCancelAtPeriodEnd(tx, accountId, true, actorUserId, plan));
          await publish(b, accountId);
          await mailOwners(b, accountId, {
            template: 'plan_updated',
            params: { plan: current.name, detail },
          });
        }
        return { kind: 'done', message: detail };
      }
      await startFree(b.db, accountId, plan, now, actorUserId, current?.id !== plan.id);
      await publish(b, accountId);
      if (sub && current && current.id !== plan.id) await mailPlanSaved(b, accountId, plan.name, locale);
      return saved;
    }

    // A paid plan the account already pays for: no charge (a card given is saved as the new card).
    if (paying && sub.planId === plan.id) {
      const attached = input.token ? await attach(b, accountId, input.token) : null;
      await b.db.transaction(async (tx) => {
        if (attached)
          await storeCard(tx, accountId, actorUserId, {
            ref: attached.paymentMethodRef,
            card: attached.card,
          });
        // The switch to free at the period's end is called off: the plan is kept.
        if (sub.cancelAtPeriodEnd) await setCancelAtPeriodEnd(tx, accountId, false, actorUserId, plan);
      });
      if (sub.cancelAtPeriodEnd) await publish(b, accountId);
      return saved;
    }

    // The same arithmetic as the preview the console shows before the button.
    const { seats, lines, amount } = quotePlanChange({
      plan,
      sub,
      current,
      members: await memberCount(b.db, accountId),
      now,
    });
    let customerRef: string;
    let paymentMethodRef: string;
    let card: TCardDetails;
    if (input.token) {
      ({ customerRef, paymentMethodRef, card } = await attach(b, accountId, input.token));
    } else {
      const onFile = await loadCard(b.db, accountId);
      if (!onFile?.providerRef) {
        throw new AppError('validation', { messageKey: 'validation.card_required', inputError: 'token' });
      }
      customerRef = await processorCall(() => customerFor(b, accountId));
      paymentMethodRef = onFile.providerRef;
      card = { brand: onFile.brand, last4: onFile.last4, expMonth: onFile.expMonth, expYear: onFile.expYear };
    }

    const intent: TPlanIntent = {
      accountId,
      planId: plan.id,
      mode: paying ? 'prorate' : 'new',
      seats,
      lines,
      // No time here: a repeated request with the same idempotency key must send the processor
      // the same parameters (Stripe refuses a key reused with others). A new period starts when
      // the payment is applied.
      periodStart: null,
      onCard: { ref: paymentMethodRef, card },
      actorUserId,
    };
    if (amount <= 0) {
      await applyPlan(b, intent, null, amount);
    } else {
      const charged = await chargeOnSession(
        b,
        {
          customerRef,
          paymentMethodRef,
          amount,
          currency: plan.currency,
          description: `${plan.name} plan`,
          idempotencyKey: chargeKey(
            ['plan', accountId, plan.id, sub?.version ?? -1, input.token ?? paymentMethodRef, amount],
            accountId,
            input.idempotencyKey,
          ),
          metadata: planMetadata(intent),
        },
        locale,
      );
      if ('action' in charged) return charged.action;
      await applyPlan(b, intent, charged.payment, charged.payment.amount);
    }
    await mailPlanSaved(b, accountId, plan.name, locale);
    return saved;
  });
}

/**
 * Applies a paid (or free-of-charge) plan change, in one transaction. With a payment, its invoice
 * is written first, keyed by the payment id: when it exists already, the payment was applied and
 * nothing happens.
 */
export async function applyPlan(
  b: TBilling,
  intent: TPlanIntent,
  payment: TPayment | null,
  amount: number,
): Promise<void> {
  const { accountId, seats, lines, onCard, actorUserId } = intent;
  const plan = await planById(b.db, b.plans, intent.planId);
  if (!plan)
    throw new AppError('bad_request', { messageKey: 'billing.payment_unknown', inputError: 'payment' });
  const start = intent.periodStart ?? (await billingNow(b.db));
  let paidInvoice: string | null = null;
  const applied = await b.db.transaction(async (tx) => {
    if (payment) {
      const invoice = await insertInvoice(tx, {
        accountId,
        status: 'paid',
        lines,
        plan,
        date: await billingNow(tx),
        providerRef: payment.id,
      });
      if (!invoice) return false;
      paidInvoice = invoice.id;
    }
    const base = {
      planId: plan.id,
      status: 'active' as const,
      cancelAtPeriodEnd: false,
      seats,
      seatPrice: plan.price,
      currencySymbol: plan.currency_symbol,
      interval: plan.interval,
      failedAttempts: 0,
      nextAttemptAt: null,
      updatedAt: new Date(),
    };
    if (intent.mode === 'new') {
      const period = {
        currentPeriodStart: start,
        currentPeriodEnd: addInterval(start, plan.interval),
        prorationBalance: 0,
      };
      await tx
        .insert(subscriptions)
        .values({ accountId, ...base, ...period })
        .onConflictDoUpdate({
          target: subscriptions.accountId,
          set: { ...base, ...period, version: sql`${subscriptions.version} + 1` },
        });
      await tx
        .update(invoices)
        .set({ status: 'void', updatedAt: new Date() })
        .where(and(eq(invoices.accountId, accountId), eq(invoices.status, 'open')));
    } else {
      await tx
        .update(subscriptions)
        .set({
          ...base,
          // A downgrade's negative difference is credited on the next invoice.
          prorationBalance: sql`${subscriptions.prorationBalance} + ${Math.min(0, amount)}`,
          version: sql`${subscriptions.version} + 1`,
        })
        .where(eq(subscriptions.accountId, accountId));
    }
    await setAccountPlan(tx, accountId, plan.id);
    if (onCard) await storeCard(tx, accountId, actorUserId, onCard);
    await logPlanChange(tx, accountId, actorUserId, plan);
    return true;
  });
  if (applied) await publish(b, accountId);
  if (applied && paidInvoice) await b.webhooks?.emit(accountId, 'invoice.paid', { invoice_id: paidInvoice });
}
