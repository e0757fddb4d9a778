import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { invoices, type TInvoiceLine } from '../../db/schema/invoices';
import { subscriptions } from '../../db/schema/subscriptions';
import { AppError } from '../../lib/app-error';
import { memberCount, setAccountPlan } from '../membership/service';
import { takeUnbilledCalls } from '../usage/service';
import { addInterval, billingNow } from './clock';
import type { TBilling } from './context';
import { money } from './charge';
import { invoiceMetadata } from './intent';
import { applyInvoicePayment, applyPaidInvoice } from './invoice-payment';
import { withBillingLock } from './lock';
import { mailOwners } from './mails';
import {
  closeProcessorInvoice,
  hasUnbilledCalls,
  marketplaceLine,
  recordCharges,
  withMarketplaceLines,
} from './marketplace-charges';
import { releaseHeldPayment } from './held-payments';
import { CardError, type TPayment } from './provider';
import {
  customerFor,
  insertInvoice,
  loadCard,
  planById,
  seatsFor,
  type TInvoiceRow,
  type TSubscriptionRow,
} from './records';

const CLAIM_MS = 5 * 60_000;
const BATCH = 20;
/** Dunning: the first retry 1 day after the failed renewal, the second 3 days after it, then cancel. */
const RETRY_AFTER_DAYS = [1, 3];
const MAX_FAILURES = RETRY_AFTER_DAYS.length + 1;
/**
 * A renewal that was not paid: the card was refused (`requires_payment_method`), or the bank wants
 * the card holder to authenticate the payment (`requires_action`, 3-D Secure off session). Both
 * are retried on the dunning schedule; the card holder can pay at once from the console.
 */
const UNPAID: ('requires_payment_method' | 'requires_action')[] = [
  'requires_payment_method',
  'requires_action',
];

/**
 * Claims due subscriptions for this instance: `FOR UPDATE SKIP LOCKED` picks rows no other
 * instance is claiming, and the claim (a lease in real time) keeps them while the charge runs
 * outside any transaction. The charge's idempotency key (invoice + attempt) guards the rest.
 */
async function claimDue(db: TDb, now: Date): Promise<TSubscriptionRow[]> {
  const due = db
    .select({ accountId: subscriptions.accountId })
    .from(subscriptions)
    .where(
      and(
        or(
          and(
            inArray(subscriptions.status, ['active', 'trialing']),
            lte(subscriptions.currentPeriodEnd, now),
          ),
          and(inArray(subscriptions.status, UNPAID), lte(subscriptions.nextAttemptAt, now)),
        ),
        or(isNull(subscriptions.claimedUntil), lt(subscriptions.claimedUntil, sql`now()`)),
      ),
    )
    .orderBy(subscriptions.currentPeriodEnd)
    .limit(BATCH)
    .for('update', { skipLocked: true });
  return db
    .update(subscriptions)
    .set({ claimedUntil: new Date(Date.now() + CLAIM_MS) })
    .where(
      and(
        inArray(subscriptions.accountId, due),
        or(isNull(subscriptions.claimedUntil), lt(subscriptions.claimedUntil, sql`now()`)),
      ),
    )
    .returning();
}

/** Runs every due renewal and retry; answers how many subscriptions were worked. Safe on many instances at once. */
export async function runDueRenewals(b: TBilling): Promise<number> {
  let worked = 0;
  for (;;) {
    const now = await billingNow(b.db);
    const claimed = await claimDue(b.db, now);
    if (claimed.length === 0) return worked;
    for (const sub of claimed) {
      try {
        await withBillingLock(b.db, sub.accountId, () => renewOne(b, sub, now));
        worked++;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'conflict')) {
          b.log.error({ err: error, accountId: sub.accountId }, 'renewal failed');
        }
      } finally {
        await b.db
          .update(subscriptions)
          .set({ claimedUntil: null })
          .where(eq(subscriptions.accountId, sub.accountId));
      }
    }
    if (claimed.length < BATCH) return worked;
  }
}

async function renewOne(b: TBilling, claimed: TSubscriptionRow, now: Date): Promise<void> {
  // Re-read under the account's billing lock: a plan change may have run since the claim.
  const [sub] = await b.db.select().from(subscriptions).where(eq(subscriptions.accountId, claimed.accountId));
  if (!sub) return;
  if (sub.status === 'requires_payment_method' || sub.status === 'requires_action') {
    if (!sub.nextAttemptAt || sub.nextAttemptAt > now) return;
    const [invoice] = await b.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.accountId, sub.accountId), eq(invoices.status, 'open')))
      .orderBy(desc(invoices.date))
      .limit(1);
    if (invoice) await attemptInvoice(b, sub, invoice);
    return;
  }
  if (!(sub.status === 'active' || sub.status === 'trialing') || sub.currentPeriodEnd > now) return;

  const plan = await planById(b.db, b.plans, sub.planId);
  const free = b.plans.find((p) => p.id === 'free');
  if (!plan) return;
  if (sub.cancelAtPeriodEnd && free) {
    await moveTo(b.db, sub.accountId, free.id, {
      status: 'active',
      cancelAtPeriodEnd: false,
      seats: 1,
      seatPrice: 0,
      currencySymbol: free.currency_symbol,
      interval: free.interval,
      ...periodCovering(sub.currentPeriodEnd, free.interval, now),
      prorationBalance: 0,
    });
    await b.changes.publish({ kind: 'account', accountId: sub.accountId });
    await mailOwners(b, sub.accountId, {
      template: 'plan_updated',
      params: { plan: free.name, detail: `${plan.name} → ${free.name}` },
    });
    return;
  }
  // A free plan renews without an invoice, unless the period's marketplace calls are to be paid.
  if (plan.price === 0 && !(await hasUnbilledCalls(b, sub.accountId, sub.currentPeriodEnd))) {
    await b.db
      .update(subscriptions)
      .set({ ...periodCovering(sub.currentPeriodEnd, plan.interval, now), updatedAt: new Date() })
      .where(eq(subscriptions.accountId, sub.accountId));
    return;
  }

  // A paid renewal: the invoice of the new period (seats as they are now, plus the prorations
  // carried from the last period, plus the last period's priced marketplace calls), then the charge.
  const seats = plan.price === 0 ? 0 : seatsFor(plan, await memberCount(b.db, sub.accountId));
  const lines: TInvoiceLine[] =
    plan.price === 0
      ? []
      : [
          {
            description: plan.type === 'tiered' ? `${plan.name} plan, per seat` : `${plan.name} plan`,
            quantity: seats,
            unitAmount: plan.price,
            amount: plan.price * seats,
            seats,
          },
        ];
  const base = plan.price * seats;
  const adjustment = Math.max(sub.prorationBalance, -base);
  if (adjustment !== 0) {
    lines.push({
      description: 'Prorated changes of the last period',
      quantity: 1,
      unitAmount: adjustment,
      amount: adjustment,
    });
  }
  const start = sub.currentPeriodEnd;
  const invoice = await b.db.transaction(async (tx) => {
    const db = tx;
    // The last period's priced calls, one line per route and price, taken in this transaction.
    const marketplace = await takeUnbilledCalls(db, sub.accountId, sub.currentPeriodEnd);
    for (const group of marketplace) lines.push(marketplaceLine(plan, group));
    const row = await insertInvoice(db, {
      accountId: sub.accountId,
      status: 'open',
      lines,
      plan,
      date: now,
      providerRef: null,
    });
    await recordCharges(db, { sub, plan, invoiceId: row!.id, feePercent: b.platformFeePercent }, marketplace);
    await db
      .update(subscriptions)
      .set({
        seats,
        seatPrice: plan.price,
        currentPeriodStart: start,
        currentPeriodEnd: addInterval(start, plan.interval),
        prorationBalance: sub.prorationBalance - adjustment,
        failedAttempts: 0,
        version: sql`${subscriptions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(subscriptions.accountId, sub.accountId));
    return row!;
  });
  await attemptInvoice(b, { ...sub, failedAttempts: 0 }, invoice);
}

function periodCovering(from: Date, interval: string, now: Date) {
  let start = from;
  let end = addInterval(start, interval);
  while (end <= now) {
    start = end;
    end = addInterval(start, interval);
  }
  return { currentPeriodStart: start, currentPeriodEnd: end };
}

async function moveTo(
  db: TDb,
  accountId: string,
  planId: string,
  values: Partial<typeof subscriptions.$inferInsert>,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(subscriptions)
      .set({
        ...values,
        planId,
        nextAttemptAt: null,
        failedAttempts: 0,
        version: sql`${subscriptions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(subscriptions.accountId, accountId));
    await setAccountPlan(tx, accountId, planId);
  });
}

/** Charges an open invoice off session; a failure schedules the next dunning step or cancels. */
async function attemptInvoice(b: TBilling, sub: TSubscriptionRow, invoice: TInvoiceRow): Promise<void> {
  const plan = (await planById(b.db, b.plans, sub.planId))!;
  const amount = money(plan, invoice.total);
  const invoiceIntent = { accountId: sub.accountId, invoiceId: invoice.id, onCard: null, actorUserId: null };
  if (invoice.total <= 0) {
    await applyInvoicePayment(b, invoiceIntent, null);
    return;
  }
  const renewed = async (payment: TPayment) => {
    await applyPaidInvoice(b, payment);
    await mailOwners(b, sub.accountId, {
      template: 'billing_status',
      params: { kind: 'renewed', plan: plan.name, amount },
    });
  };
  if (invoice.providerRef) {
    // A payment held for authentication may have been completed in the browser since; if not, it
    // is cancelled before a new charge replaces it, so the card holder cannot complete both.
    const pending = await b.provider.retrievePayment(invoice.providerRef).catch(() => null);
    const paid =
      pending?.status === 'succeeded'
        ? pending
        : await releaseHeldPayment(b, sub.accountId, invoice.providerRef);
    if (paid) return renewed(paid);
  }
  const card = await loadCard(b.db, sub.accountId);
  let failure: unknown = null;
  // The payment the bank holds for the card holder's authentication (3-D Secure off session).
  let needsAction: string | null = null;
  if (card?.providerRef) {
    try {
      const customerRef = await customerFor(b, sub.accountId);
      const charge = {
        customerRef,
        paymentMethodRef: card.providerRef,
        amount: invoice.total,
        currency: invoice.currency,
        description: `Invoice ${invoice.number}`,
        idempotencyKey: `invoice_${invoice.id}_${sub.failedAttempts}`,
        offSession: true,
        metadata: invoiceMetadata(invoiceIntent),
      };
      // With marketplace lines, a processor that keeps invoices (Stripe) gets them as invoice
      // items of its own invoice for this one, charged together; otherwise the total is charged.
      const lines = (await withMarketplaceLines(b, invoice)) ? invoice.lines : null;
      const payment =
        lines && b.provider.chargeInvoice
          ? await b.provider.chargeInvoice({
              ...charge,
              invoiceId: invoice.id,
              lines: lines.map((line) => ({ description: line.description, amount: line.amount })),
            })
          : await b.provider.charge(charge);
      if (payment.status === 'succeeded') return renewed(payment);
      if (payment.status === 'requires_action') needsAction = payment.id;
      failure = new Error(`payment ${payment.status}`);
    } catch (error) {
      if (!(error instanceof CardError)) {
        // The processor failed (not the card): try again on the next run, no dunning step taken.
        b.log.error({ err: error, accountId: sub.accountId }, 'renewal charge failed at the processor');
        if (!UNPAID.includes(sub.status as (typeof UNPAID)[number])) {
          await b.db
            .update(subscriptions)
            .set({
              status: 'requires_payment_method',
              nextAttemptAt: new Date((await billingNow(b.db)).getTime() + 3_600_000),
            })
            .where(eq(subscriptions.accountId, sub.accountId));
          await b.changes.publish({ kind: 'account', accountId: sub.accountId });
        }
        return;
      }
      // Off session, a card that needs authentication is refused with the payment kept for it.
      if (error.code === 'payment_intent_authentication_failure' && error.paymentId)
        needsAction = error.paymentId;
      failure = error;
    }
  }
  b.log.info(
    { accountId: sub.accountId, reason: (failure as Error | null)?.message ?? 'no card' },
    'renewal charge refused',
  );
  const failures = sub.failedAttempts + 1;
  await b.webhooks?.emit(sub.accountId, 'invoice.payment_failed', {
    invoice_id: invoice.id,
    attempt: failures,
    requires_action: needsAction !== null,
  });
  if (failures >= MAX_FAILURES) {
    // The subscription ends: the payment held for authentication must not be completable later.
    const paid = needsAction ? await releaseHeldPayment(b, sub.accountId, needsAction) : null;
    if (paid) return renewed(paid);
    await b.db.transaction(async (tx) => {
      await tx
        .update(subscriptions)
        .set({
          status: 'canceled',
          nextAttemptAt: null,
          failedAttempts: failures,
          version: sql`${subscriptions.version} + 1`,
          updatedAt: new Date(),
        })
        .where(eq(subscriptions.accountId, sub.accountId));
      await tx
        .update(invoices)
        .set({ status: 'uncollectible', providerRef: null, updatedAt: new Date() })
        .where(eq(invoices.id, invoice.id));
    });
    await b.changes.publish({ kind: 'account', accountId: sub.accountId });
    await closeProcessorInvoice(b, sub.accountId, invoice.id, null);
    await mailOwners(b, sub.accountId, {
      template: 'billing_status',
      params: { kind: 'canceled', plan: plan.name, amount },
    });
    return;
  }
  const next = new Date(invoice.date.getTime() + RETRY_AFTER_DAYS[failures - 1]! * 86_400_000);
  await b.db.transaction(async (tx) => {
    await tx
      .update(subscriptions)
      .set({
        status: needsAction ? 'requires_action' : 'requires_payment_method',
        failedAttempts: failures,
        nextAttemptAt: next,
        version: sql`${subscriptions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(subscriptions.accountId, sub.accountId));
    // The open invoice remembers the payment waiting for authentication: the console completes
    // it (`POST /api/account/subscription/authorize`), a webhook may report it paid.
    await tx
      .update(invoices)
      .set({ providerRef: needsAction, updatedAt: new Date() })
      .where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'open')));
  });
  await b.changes.publish({ kind: 'account', accountId: sub.accountId });
  await mailOwners(b, sub.accountId, {
    template: 'billing_status',
    params: { kind: needsAction ? 'action_required' : 'payment_failed', plan: plan.name, amount },
  });
}
