import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { t, type TLocale } from '../../i18n';
import { AppError } from '../../lib/app-error';
import { sha256 } from '../../lib/crypto';
import { recordActivity } from '../activity/service';
import type { TBilling } from './context';
import { cardAppError, processorCall } from './errors';
import { intentOf, type TInvoiceIntent, type TOnCard, type TPlanIntent } from './intent';
import { CardError, type TChargeInput, type TPayment } from './provider';
import { customerFor, loadCard, saveCard } from './records';

/*
 * The steps every billing write shares (server contract section 7, decision 007): attaching a
 * card, charging with the card holder present, reading back a payment confirmed after 3-D
 * Secure, storing the card a payment was made with. A charge is made before anything changes; the
 * change is written in one transaction keyed by the payment id (plan-change.ts, invoice-payment.ts).
 */

export type TBillingOutcome =
  { kind: 'done'; message: string } | { kind: 'action'; clientSecret: string; message: string };

export function money(plan: Pick<TPlan, 'currency_symbol'>, minor: number): string {
  return `${plan.currency_symbol}${(minor / 100).toFixed(2)}`;
}

export function actionOutcome(clientSecret: string, locale: TLocale): TBillingOutcome {
  return { kind: 'action', clientSecret, message: t(locale, 'billing.action_required') };
}

/** The client's idempotency key scoped to its account, else a digest of what is charged. */
export function chargeKey(parts: (string | number)[], accountId: string, clientKey?: string): string {
  return clientKey ? `acct_${accountId}_${clientKey}` : sha256(parts.join('|'));
}

/** Attaches a card token to the account's customer (a refusal is 400 on the card field). */
export async function attach(b: TBilling, accountId: string, token: string) {
  const customerRef = await processorCall(() => customerFor(b, accountId));
  const attached = await processorCall(() => b.provider.attachCard(customerRef, token, accountId));
  return { customerRef, ...attached };
}

/**
 * Charges with the customer present: the payment that succeeded, or the 3-D Secure step for the
 * console to complete (then the same request comes again with the payment). Anything else is the
 * processor failing: 503, nothing changed.
 */
export async function chargeOnSession(
  b: TBilling,
  charge: Omit<TChargeInput, 'offSession'>,
  locale: TLocale,
): Promise<{ payment: TPayment } | { action: TBillingOutcome }> {
  const payment = await processorCall(() => b.provider.charge({ ...charge, offSession: false }));
  if (payment.status === 'requires_action' && payment.clientSecret) {
    return { action: actionOutcome(payment.clientSecret, locale) };
  }
  if (payment.status !== 'succeeded')
    throw new AppError('service_unavailable', { messageKey: 'billing.processor_unavailable' });
  return { payment };
}

export async function publish(b: TBilling, accountId: string) {
  await b.changes.publish({ kind: 'account', accountId });
}

/** Stores a card and, when it is another card than the one on file, logs the change (same transaction). */
export async function storeCard(db: TDb, accountId: string, actorUserId: string | null, onCard: TOnCard) {
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

export type TConfirmed =
  | { kind: 'action'; outcome: TBillingOutcome }
  | { kind: 'plan'; payment: TPayment; intent: TPlanIntent }
  | { kind: 'invoice'; payment: TPayment; intent: TInvoiceIntent };

/**
 * The repeated request after 3-D Secure: the payment is read from the processor (the client's word
 * is not trusted), must belong to the account and to this action, and must have succeeded. The
 * caller applies what it was for.
 */
export async function confirmPayment(
  b: TBilling,
  accountId: string,
  paymentId: string,
  expect: { action: 'plan'; planId: string } | { action: 'invoice' },
  locale: TLocale,
): Promise<TConfirmed> {
  const payment = await processorCall(() => b.provider.retrievePayment(paymentId));
  const read = payment ? intentOf(payment.metadata) : null;
  const matches =
    read !== null &&
    read.intent.accountId === accountId &&
    read.action === expect.action &&
    (expect.action !== 'plan' || (read.action === 'plan' && read.intent.planId === expect.planId));
  if (!payment || !read || !matches)
    throw new AppError('bad_request', { messageKey: 'billing.payment_unknown', inputError: 'payment' });
  if (payment.status === 'requires_action' && payment.clientSecret) {
    return { kind: 'action', outcome: actionOutcome(payment.clientSecret, locale) };
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
  return read.action === 'plan'
    ? { kind: 'plan', payment, intent: read.intent }
    : { kind: 'invoice', payment, intent: read.intent };
}
