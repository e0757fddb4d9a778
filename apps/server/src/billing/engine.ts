import { and, eq, sql } from 'drizzle-orm';
import type { TPaymentResult } from '@air/shared/schemas/billing';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../db/client';
import { invoices, type TInvoiceLine } from '../db/schema/invoices';
import { subscriptions } from '../db/schema/subscriptions';
import { t, type TLocale } from '../i18n';
import { AppError } from '../lib/app-error';
import { sha256 } from '../lib/crypto';
import { addInterval, billingNow } from './clock';
import type { TBilling } from './context';
import { cardAppError, processorCall } from './errors';
import { withBillingLock } from './lock';
import { mailOwners } from './mails';
import { recordActivity } from '../modules/activity/service';
import { memberCount, setAccountPlan } from '../modules/membership/service';
import { CardError, type TCardDetails, type TChargeInput, type TPayment } from './provider';
import {
  cardFromMetadata,
  cardMetadata,
  customerFor,
  insertInvoice,
  loadCard,
  loadSubscription,
  openInvoice,
  planById,
  saveCard,
  seatsFor,
  type TSubscriptionRow,
} from './records';

/**
 * Plan changes and card updates (server contract section 7, decision 007). A charge is made
 * before anything changes; the change and its invoice are written in one transaction keyed by the
 * payment id, so a payment is applied once however often its request is repeated.
 */

export type TBillingOutcome =
  { kind: 'done'; message: string } | { kind: 'action'; clientSecret: string; message: string };

const PAYING = new Set(['active', 'trialing']);

function money(plan: Pick<TPlan, 'currency_symbol'>, minor: number): string {
  return `${plan.currency_symbol}${(minor / 100).toFixed(2)}`;
}

function dateText(date: Date, locale: TLocale): string {
  return date.toLocaleDateString(locale === 'es' ? 'es-ES' : 'en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

async function findPlan(b: TBilling, planId: string): Promise<TPlan> {
  const plan = b.plans.find((p) => p.id === planId);
  if (!plan) throw new AppError('validation', { messageKey: 'error.plan_unknown', inputError: 'plan' });
  return plan;
}

function chargeKey(parts: (string | number)[], accountId: string, clientKey?: string): string {
  return clientKey ? `acct_${accountId}_${clientKey}` : sha256(parts.join('|'));
}

/** Attaches a card token to the account's customer (a refusal is 400 on the card field). */
async function attach(b: TBilling, accountId: string, token: string) {
  const customerRef = await processorCall(() => customerFor(b, accountId));
  const attached = await processorCall(() => b.provider.attachCard(customerRef, token));
  return { customerRef, ...attached };
}

/**
 * Charges with the customer present: the payment that succeeded, or the 3-D Secure step for the
 * console to complete (then the same request comes again with the payment). Anything else is the
 * processor failing: 503, nothing changed.
 */
async function chargeOnSession(
  b: TBilling,
  charge: Omit<TChargeInput, 'offSession'>,
  locale: TLocale,
): Promise<{ payment: TPayment } | { action: TBillingOutcome }> {
  const payment = await processorCall(() => b.provider.charge({ ...charge, offSession: false }));
  if (payment.status === 'requires_action' && payment.clientSecret) {
    return {
      action: {
        kind: 'action',
        clientSecret: payment.clientSecret,
        message: t(locale, 'billing.action_required'),
      },
    };
  }
  if (payment.status !== 'succeeded')
    throw new AppError('service_unavailable', { messageKey: 'billing.processor_unavailable' });
  return { payment };
}

async function publish(b: TBilling, accountId: string) {
  await b.changes.publish({ kind: 'account', accountId });
}

/** Who asked for a change, carried in a payment's metadata so a confirmed payment knows it too. */
function actorMetadata(actorUserId: string | null): Record<string, string> {
  return actorUserId ? { actor: actorUserId } : {};
}

/** The activity log's entry for a plan change, written in the change's own transaction. */
async function logPlanChange(db: TDb, accountId: string, actorUserId: string | null, plan: TPlan) {
  await recordActivity(db, { accountId, actorUserId, type: 'plan.changed', data: { plan: plan.name } });
}

/** Stores a card and, when it is another card than the one on file, logs the change (same transaction). */
async function storeCard(
  db: TDb,
  accountId: string,
  actorUserId: string | null,
  onCard: { ref: string; card: TCardDetails },
) {
  const previous = await loadCard(db, accountId);
  await saveCard(db, accountId, onCard.ref, onCard.card);
  if (previous?.providerRef === onCard.ref) return;
  await recordActivity(db, {
    accountId,
    actorUserId,
    type: 'card.changed',
    data: { brand: onCard.card.brand, last4: onCard.card.last4 },
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
    if (changed) await logPlanChange(tx as unknown as TDb, accountId, actorUserId, plan);
  });
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
  const plan = await findPlan(b, input.planId);
  const { accountId, locale, actorUserId } = input;
  return withBillingLock(b.db, accountId, async () => {
    if (input.payment)
      return completePayment(
        b,
        accountId,
        input.payment.payment_intent,
        { action: 'plan', plan: plan.id },
        locale,
      );
    const now = await billingNow(b.db);
    const sub = await loadSubscription(b.db, accountId);
    const current = sub ? await planById(b.db, b.plans, sub.planId) : null;
    const paying = !!sub && !!current && current.price > 0 && PAYING.has(sub.status);

    if (plan.price === 0) {
      if (paying) {
        if (!sub.cancelAtPeriodEnd) {
          await b.db.transaction(async (tx) => {
            await tx
              .update(subscriptions)
              .set({
                cancelAtPeriodEnd: true,
                version: sql`${subscriptions.version} + 1`,
                updatedAt: new Date(),
              })
              .where(eq(subscriptions.accountId, accountId));
            await logPlanChange(tx as unknown as TDb, accountId, actorUserId, plan);
          });
          await publish(b, accountId);
          await mailOwners(b, accountId, {
            template: 'plan_updated',
            params: {
              plan: current.name,
              detail: t(locale, 'billing.plan_cancel_at_period_end', {
                date: dateText(sub.currentPeriodEnd, locale),
              }),
            },
          });
        }
        return {
          kind: 'done',
          message: t(locale, 'billing.plan_cancel_at_period_end', {
            date: dateText(sub.currentPeriodEnd, locale),
          }),
        };
      }
      await startFree(b.db, accountId, plan, now, actorUserId, current?.id !== plan.id);
      await publish(b, accountId);
      if (sub && current && current.id !== plan.id)
        await mailOwners(b, accountId, {
          template: 'plan_updated',
          params: { plan: plan.name, detail: t(locale, 'billing.plan_saved') },
        });
      return { kind: 'done', message: t(locale, 'billing.plan_saved') };
    }

    // A paid plan the account already pays for: no charge (a card given is saved as the new card).
    if (paying && sub.planId === plan.id) {
      const attached = input.token ? await attach(b, accountId, input.token) : null;
      await b.db.transaction(async (tx) => {
        const db = tx as unknown as TDb;
        if (attached)
          await storeCard(db, accountId, actorUserId, {
            ref: attached.paymentMethodRef,
            card: attached.card,
          });
        if (sub.cancelAtPeriodEnd) {
          // The switch to free at the period's end is called off: the plan is kept.
          await db
            .update(subscriptions)
            .set({
              cancelAtPeriodEnd: false,
              version: sql`${subscriptions.version} + 1`,
              updatedAt: new Date(),
            })
            .where(eq(subscriptions.accountId, accountId));
          await logPlanChange(db, accountId, actorUserId, plan);
        }
      });
      if (sub.cancelAtPeriodEnd) await publish(b, accountId);
      return { kind: 'done', message: t(locale, 'billing.plan_saved') };
    }

    const seats = seatsFor(plan, await memberCount(b.db, accountId));
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

    let mode: 'new' | 'prorate';
    let lines: TInvoiceLine[];
    if (paying) {
      // An upgrade charges the difference for the rest of the period now; a downgrade between
      // paid plans is a credit on the next invoice.
      mode = 'prorate';
      const length = sub.currentPeriodEnd.getTime() - sub.currentPeriodStart.getTime();
      const left = Math.max(0, sub.currentPeriodEnd.getTime() - now.getTime());
      const difference = plan.price * seats - sub.seatPrice * sub.seats;
      const amount = Math.round((difference * left) / Math.max(1, length));
      lines = [
        {
          description: `${plan.name} (prorated change from ${current.name})`,
          quantity: 1,
          unitAmount: amount,
          amount,
        },
      ];
    } else {
      mode = 'new';
      lines = [
        {
          description: `${plan.name} plan`,
          quantity: seats,
          unitAmount: plan.price,
          amount: plan.price * seats,
        },
      ];
    }
    const amount = lines.reduce((sum, line) => sum + line.amount, 0);
    const metadata: Record<string, string> = {
      account_id: accountId,
      action: 'plan',
      plan: plan.id,
      mode,
      seats: String(seats),
      // No time here: a repeated request with the same idempotency key must send the processor
      // the same parameters (Stripe refuses a key reused with others). A new period starts when
      // the payment is applied.
      lines: JSON.stringify(lines),
      ...cardMetadata(paymentMethodRef, card),
      ...actorMetadata(actorUserId),
    };
    if (amount <= 0) {
      await applyPlan(b, metadata, null, amount);
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
          metadata,
        },
        locale,
      );
      if ('action' in charged) return charged.action;
      await applyPlan(b, charged.payment.metadata, charged.payment, charged.payment.amount);
    }
    await mailOwners(b, accountId, {
      template: 'plan_updated',
      params: { plan: plan.name, detail: t(locale, 'billing.plan_saved') },
    });
    return { kind: 'done', message: t(locale, 'billing.plan_saved') };
  });
}

/**
 * Applies a paid (or free-of-charge) plan change described by a payment's metadata, in one
 * transaction. With a payment, its invoice is written first, keyed by the payment id: when it
 * exists already, the payment was applied and nothing happens.
 */
export async function applyPlan(
  b: TBilling,
  meta: Record<string, string>,
  payment: TPayment | null,
  amount: number,
): Promise<void> {
  const accountId = meta.account_id!;
  const plan = await planById(b.db, b.plans, meta.plan!);
  if (!plan)
    throw new AppError('bad_request', { messageKey: 'billing.payment_unknown', inputError: 'payment' });
  const seats = Number(meta.seats);
  // Payments made before the period start left the metadata carry it.
  const start = meta.period_start ? new Date(meta.period_start) : await billingNow(b.db);
  const lines = JSON.parse(meta.lines ?? '[]') as TInvoiceLine[];
  const onCard = cardFromMetadata(meta);
  const applied = await b.db.transaction(async (tx) => {
    const db = tx as unknown as TDb;
    if (payment) {
      const invoice = await insertInvoice(db, {
        accountId,
        status: 'paid',
        lines,
        plan,
        date: await billingNow(db),
        providerRef: payment.id,
      });
      if (!invoice) return false;
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
    if (meta.mode === 'new') {
      const period = {
        currentPeriodStart: start,
        currentPeriodEnd: addInterval(start, plan.interval),
        prorationBalance: 0,
      };
      await db
        .insert(subscriptions)
        .values({ accountId, ...base, ...period })
        .onConflictDoUpdate({
          target: subscriptions.accountId,
          set: { ...base, ...period, version: sql`${subscriptions.version} + 1` },
        });
      await db
        .update(invoices)
        .set({ status: 'void', updatedAt: new Date() })
        .where(and(eq(invoices.accountId, accountId), eq(invoices.status, 'open')));
    } else {
      await db
        .update(subscriptions)
        .set({
          ...base,
          // A downgrade's negative difference is credited on the next invoice.
          prorationBalance: sql`${subscriptions.prorationBalance} + ${Math.min(0, amount)}`,
          version: sql`${subscriptions.version} + 1`,
        })
        .where(eq(subscriptions.accountId, accountId));
    }
    await setAccountPlan(db, accountId, plan.id);
    const actorUserId = meta.actor ?? null;
    if (onCard) await storeCard(db, accountId, actorUserId, onCard);
    await logPlanChange(db, accountId, actorUserId, plan);
    return true;
  });
  if (applied) await publish(b, accountId);
}

/**
 * The repeated request after 3-D Secure: the payment is read from the processor (the client's word
 * is not trusted), must belong to the account and to this action, and must have succeeded.
 */
async function completePayment(
  b: TBilling,
  accountId: string,
  paymentId: string,
  expect: { action: 'plan'; plan: string } | { action: 'invoice' },
  locale: TLocale,
): Promise<TBillingOutcome> {
  const payment = await processorCall(() => b.provider.retrievePayment(paymentId));
  const meta = payment?.metadata ?? {};
  const matches =
    payment !== null &&
    meta.account_id === accountId &&
    meta.action === expect.action &&
    (expect.action !== 'plan' || meta.plan === expect.plan);
  if (!matches)
    throw new AppError('bad_request', { messageKey: 'billing.payment_unknown', inputError: 'payment' });
  if (payment.status === 'requires_action' && payment.clientSecret) {
    return {
      kind: 'action',
      clientSecret: payment.clientSecret,
      message: t(locale, 'billing.action_required'),
    };
  }
  if (payment.status !== 'succeeded') {
    throw cardAppError(
      new CardError(
        (payment.errorCode as 'card_declined' | null) ?? 'payment_intent_authentication_failure',
        'payment failed',
        payment.id,
      ),
    );
  }
  if (expect.action === 'plan') {
    await applyPlan(b, meta, payment, payment.amount);
    const plan = await planById(b.db, b.plans, meta.plan!);
    await mailOwners(b, accountId, {
      template: 'plan_updated',
      params: { plan: plan?.name ?? meta.plan!, detail: t(locale, 'billing.plan_saved') },
    });
    return { kind: 'done', message: t(locale, 'billing.plan_saved') };
  }
  await applyInvoicePayment(b, meta, payment);
  return { kind: 'done', message: t(locale, 'billing.card_saved') };
}

/** Marks an open invoice paid by `payment` and the subscription active again (once per payment). */
export async function applyInvoicePayment(
  b: TBilling,
  meta: Record<string, string>,
  payment: TPayment | null,
) {
  const accountId = meta.account_id!;
  const onCard = cardFromMetadata(meta);
  const applied = await b.db.transaction(async (tx) => {
    const db = tx as unknown as TDb;
    const paid = await db
      .update(invoices)
      .set({ status: 'paid', providerRef: payment?.id ?? null, updatedAt: new Date() })
      .where(
        and(
          eq(invoices.id, meta.invoice_id!),
          eq(invoices.accountId, accountId),
          eq(invoices.status, 'open'),
        ),
      )
      .returning({ id: invoices.id });
    if (paid.length === 0) return false;
    await db
      .update(subscriptions)
      .set({
        status: 'active',
        failedAttempts: 0,
        nextAttemptAt: null,
        version: sql`${subscriptions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(subscriptions.accountId, accountId), sql`${subscriptions.status} <> 'canceled'`));
    if (onCard) await storeCard(db, accountId, meta.actor ?? null, onCard);
    return true;
  });
  if (applied) await publish(b, accountId);
  return applied;
}

export interface TCardUpdateInput {
  accountId: string;
  /** The user asking (the activity log's actor). */
  actorUserId: string | null;
  token: string;
  payment?: TPaymentResult | undefined;
  idempotencyKey?: string | undefined;
  locale: TLocale;
}

/**
 * `PATCH /api/account/card`: attaches the new card; when a renewal is unpaid, charges the open
 * invoice on it at once (a refusal keeps the old card and changes nothing).
 */
export async function updateCard(b: TBilling, input: TCardUpdateInput): Promise<TBillingOutcome> {
  const { accountId, locale, actorUserId } = input;
  return withBillingLock(b.db, accountId, async () => {
    if (input.payment) {
      const outcome = await completePayment(
        b,
        accountId,
        input.payment.payment_intent,
        { action: 'invoice' },
        locale,
      );
      if (outcome.kind === 'done') await mailCardUpdated(b, accountId);
      return outcome;
    }
    const { customerRef, paymentMethodRef, card } = await attach(b, accountId, input.token);
    const sub = await loadSubscription(b.db, accountId);
    const unpaid = sub && (sub.status === 'requires_payment_method' || sub.status === 'requires_action');
    const invoice = unpaid ? await openInvoice(b.db, accountId) : null;
    const previous = await loadCard(b.db, accountId);
    if (invoice && invoice.total > 0) {
      const metadata = {
        account_id: accountId,
        action: 'invoice',
        invoice_id: invoice.id,
        ...cardMetadata(paymentMethodRef, card),
        ...actorMetadata(actorUserId),
      };
      const charged = await chargeOnSession(
        b,
        {
          customerRef,
          paymentMethodRef,
          amount: invoice.total,
          currency: invoice.currency,
          description: `Invoice ${invoice.number}`,
          idempotencyKey: chargeKey(['invoice', invoice.id, input.token], accountId, input.idempotencyKey),
          metadata,
        },
        locale,
      );
      if ('action' in charged) return charged.action;
      await applyInvoicePayment(b, charged.payment.metadata, charged.payment);
    } else {
      // A zero-total open invoice is paid with the card stored in the same transaction.
      const paid = invoice
        ? await applyInvoicePayment(
            b,
            {
              account_id: accountId,
              invoice_id: invoice.id,
              ...cardMetadata(paymentMethodRef, card),
              ...actorMetadata(actorUserId),
            },
            null,
          )
        : false;
      if (!paid) {
        await b.db.transaction((tx) =>
          storeCard(tx as unknown as TDb, accountId, actorUserId, { ref: paymentMethodRef, card }),
        );
      }
    }
    if (previous?.providerRef && previous.providerRef !== paymentMethodRef) {
      await b.provider.detachCard(previous.providerRef).catch((error: unknown) => {
        b.log.error({ err: error }, 'detaching the previous card failed');
      });
    }
    await mailCardUpdated(b, accountId);
    return { kind: 'done', message: t(locale, 'billing.card_saved') };
  });
}

export interface TAuthorizeInput {
  accountId: string;
  payment?: TPaymentResult | undefined;
  locale: TLocale;
}

/**
 * `POST /api/account/subscription/authorize`: a renewal the bank holds for the card holder's
 * authentication (`requires_action`) is paid with the card on file, on session. The first call
 * answers the payment's client secret (the console's 3-D Secure step); the repeated call with the
 * confirmed payment applies it: the invoice is paid and the subscription is active again.
 */
export async function authorizeInvoice(b: TBilling, input: TAuthorizeInput): Promise<TBillingOutcome> {
  const { accountId, locale } = input;
  return withBillingLock(b.db, accountId, async () => {
    if (input.payment) {
      const outcome = await completePayment(
        b,
        accountId,
        input.payment.payment_intent,
        { action: 'invoice' },
        locale,
      );
      return outcome.kind === 'done'
        ? { kind: 'done', message: t(locale, 'billing.payment_authorized') }
        : outcome;
    }
    const sub = await loadSubscription(b.db, accountId);
    const invoice = sub?.status === 'requires_action' ? await openInvoice(b.db, accountId) : null;
    if (!invoice) throw new AppError('conflict', { messageKey: 'billing.nothing_to_authorize' });
    const done: TBillingOutcome = { kind: 'done', message: t(locale, 'billing.payment_authorized') };
    // The renewal's own payment, while the processor still holds it for authentication.
    const held = invoice.providerRef
      ? await processorCall(() => b.provider.retrievePayment(invoice.providerRef!))
      : null;
    if (held?.status === 'succeeded') {
      await applyInvoicePayment(b, held.metadata, held);
      return done;
    }
    if (held?.status === 'requires_action' && held.clientSecret)
      return {
        kind: 'action',
        clientSecret: held.clientSecret,
        message: t(locale, 'billing.action_required'),
      };
    // Otherwise (an off-session refusal, or an authentication that failed) a new payment of the
    // invoice with the card holder present; its key names the payment it replaces, so a repeated
    // call answers the same one.
    const paymentMethodRef = (await loadCard(b.db, accountId))?.providerRef;
    if (!paymentMethodRef)
      throw new AppError('validation', { messageKey: 'validation.card_required', inputError: 'token' });
    const customerRef = await processorCall(() => customerFor(b, accountId));
    const payment = await processorCall(() =>
      b.provider
        .charge({
          customerRef,
          paymentMethodRef,
          amount: invoice.total,
          currency: invoice.currency,
          description: `Invoice ${invoice.number}`,
          idempotencyKey: `invoice_${invoice.id}_session_${invoice.providerRef ?? sub!.failedAttempts}`,
          offSession: false,
          metadata: { account_id: accountId, action: 'invoice', invoice_id: invoice.id },
        })
        .catch((error: unknown) => {
          // No card field on this call: the refusal is reported on the payment.
          throw error instanceof CardError ? cardAppError(error, 'payment') : error;
        }),
    );
    if (payment.status === 'succeeded') {
      await applyInvoicePayment(b, payment.metadata, payment);
      return done;
    }
    if (payment.status === 'requires_action' && payment.clientSecret) {
      await b.db
        .update(invoices)
        .set({ providerRef: payment.id, updatedAt: new Date() })
        .where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'open')));
      return {
        kind: 'action',
        clientSecret: payment.clientSecret,
        message: t(locale, 'billing.action_required'),
      };
    }
    throw new AppError('service_unavailable', { messageKey: 'billing.processor_unavailable' });
  });
}

async function mailCardUpdated(b: TBilling, accountId: string) {
  const card = await loadCard(b.db, accountId);
  if (card)
    await mailOwners(b, accountId, {
      template: 'card_updated',
      params: { brand: card.brand, last4: card.last4 },
    });
}

export type { TSubscriptionRow };
export { money };
