import { and, eq, sql } from 'drizzle-orm';
import type { TPaymentResult } from '@air/shared/schemas/billing';
import { invoices } from '../../db/schema/invoices';
import { subscriptions } from '../../db/schema/subscriptions';
import { t, type TLocale } from '../../i18n';
import { AppError } from '../../lib/app-error';
import { actionOutcome, confirmPayment, publish, storeCard, type TBillingOutcome } from './charge';
import type { TBilling } from './context';
import { cardAppError, processorCall } from './errors';
import { intentOf, invoiceMetadata, type TInvoiceIntent } from './intent';
import { withBillingLock } from './lock';
import { billingNow } from './clock';
import { recordEarnings } from './payouts/ledger';
import { closeProcessorInvoice } from './marketplace-charges';
import { CardError, type TPayment } from './provider';
import { customerFor, loadCard, loadSubscription, openInvoice } from './records';

/**
 * Marks an open invoice paid by `payment` (null: a zero total) and the subscription active again,
 * storing the card the payment was made with, once per payment. True when this call applied it.
 */
export async function applyInvoicePayment(
  b: TBilling,
  intent: TInvoiceIntent,
  payment: TPayment | null,
): Promise<boolean> {
  const { accountId } = intent;
  const applied = await b.db.transaction(async (tx) => {
    const paid = await tx
      .update(invoices)
      .set({ status: 'paid', providerRef: payment?.id ?? null, updatedAt: new Date() })
      .where(
        and(
          eq(invoices.id, intent.invoiceId),
          eq(invoices.accountId, accountId),
          eq(invoices.status, 'open'),
        ),
      )
      .returning({ id: invoices.id });
    if (paid.length === 0) return false;
    // Its marketplace charges are collected: they become the providers' earnings.
    await recordEarnings(tx, intent.invoiceId, await billingNow(tx));
    await tx
      .update(subscriptions)
      .set({
        status: 'active',
        failedAttempts: 0,
        nextAttemptAt: null,
        version: sql`${subscriptions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(subscriptions.accountId, accountId), sql`${subscriptions.status} <> 'canceled'`));
    if (intent.onCard) await storeCard(tx, accountId, intent.actorUserId, intent.onCard);
    return true;
  });
  if (applied) {
    await publish(b, accountId);
    if (payment) await closeProcessorInvoice(b, accountId, intent.invoiceId, payment.id);
    await b.webhooks?.emit(accountId, 'invoice.paid', { invoice_id: intent.invoiceId });
  }
  return applied;
}

/** Applies a succeeded payment of an invoice, read from its metadata (false when it is not one). */
export async function applyPaidInvoice(b: TBilling, payment: TPayment): Promise<boolean> {
  const read = intentOf(payment.metadata);
  if (read?.action !== 'invoice') return false;
  return applyInvoicePayment(b, read.intent, payment);
}

/**
 * The repeated request after 3-D Secure on an invoice's payment (a new card, an authorized
 * renewal): applies the confirmed payment, or answers the step still to complete.
 */
export async function applyConfirmedInvoice(
  b: TBilling,
  accountId: string,
  paymentId: string,
  locale: TLocale,
): Promise<TBillingOutcome | null> {
  const confirmed = await confirmPayment(b, accountId, paymentId, { action: 'invoice' }, locale);
  if (confirmed.kind === 'action') return confirmed.outcome;
  if (confirmed.kind === 'invoice') await applyInvoicePayment(b, confirmed.intent, confirmed.payment);
  return null;
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
  const done: TBillingOutcome = { kind: 'done', message: t(locale, 'billing.payment_authorized') };
  return withBillingLock(b.db, accountId, async () => {
    if (input.payment) {
      const action = await applyConfirmedInvoice(b, accountId, input.payment.payment_intent, locale);
      if (action) return action;
      return done;
    }
    const sub = await loadSubscription(b.db, accountId);
    const invoice = sub?.status === 'requires_action' ? await openInvoice(b.db, accountId) : null;
    if (!invoice) throw new AppError('conflict', { messageKey: 'billing.nothing_to_authorize' });
    // The renewal's own payment, while the processor still holds it for authentication.
    const held = invoice.providerRef
      ? await processorCall(() => b.provider.retrievePayment(invoice.providerRef!))
      : null;
    if (held?.status === 'succeeded') {
      await applyPaidInvoice(b, held);
      return done;
    }
    if (held?.status === 'requires_action' && held.clientSecret)
      return actionOutcome(held.clientSecret, locale);
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
          metadata: invoiceMetadata({ accountId, invoiceId: invoice.id, onCard: null, actorUserId: null }),
        })
        .catch((error: unknown) => {
          // No card field on this call: the refusal is reported on the payment.
          throw error instanceof CardError ? cardAppError(error, 'payment') : error;
        }),
    );
    if (payment.status === 'succeeded') {
      await applyPaidInvoice(b, payment);
      return done;
    }
    if (payment.status === 'requires_action' && payment.clientSecret) {
      await b.db
        .update(invoices)
        .set({ providerRef: payment.id, updatedAt: new Date() })
        .where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'open')));
      return actionOutcome(payment.clientSecret, locale);
    }
    throw new AppError('service_unavailable', { messageKey: 'billing.processor_unavailable' });
  });
}
