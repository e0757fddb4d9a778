import type { TPaymentResult } from '@air/shared/schemas/billing';
import { t, type TLocale } from '../../i18n';
import { attach, chargeKey, chargeOnSession, publish, storeCard, type TBillingOutcome } from './charge';
import type { TBilling } from './context';
import { invoiceMetadata } from './intent';
import { applyConfirmedInvoice, applyInvoicePayment } from './invoice-payment';
import { withBillingLock } from './lock';
import { mailOwners } from './mails';
import { loadCard, loadSubscription, openInvoice } from './records';

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
  const done: TBillingOutcome = { kind: 'done', message: t(locale, 'billing.card_saved') };
  return withBillingLock(b.db, accountId, async () => {
    if (input.payment) {
      const action = await applyConfirmedInvoice(b, accountId, input.payment.payment_intent, locale);
      if (action) return action;
      await mailCardUpdated(b, accountId);
      return done;
    }
    const { customerRef, paymentMethodRef, card } = await attach(b, accountId, input.token);
    const onCard = { ref: paymentMethodRef, card };
    const sub = await loadSubscription(b.db, accountId);
    const unpaid = sub && (sub.status === 'requires_payment_method' || sub.status === 'requires_action');
    const invoice = unpaid ? await openInvoice(b.db, accountId) : null;
    const previous = await loadCard(b.db, accountId);
    const intent = invoice ? { accountId, invoiceId: invoice.id, onCard, actorUserId } : null;
    if (invoice && intent && invoice.total > 0) {
      const charged = await chargeOnSession(
        b,
        {
          customerRef,
          paymentMethodRef,
          amount: invoice.total,
          currency: invoice.currency,
          description: `Invoice ${invoice.number}`,
          idempotencyKey: chargeKey(['invoice', invoice.id, input.token], accountId, input.idempotencyKey),
          metadata: invoiceMetadata(intent),
        },
        locale,
      );
      if ('action' in charged) return charged.action;
      await applyInvoicePayment(b, intent, charged.payment);
    } else {
      // A zero-total open invoice is paid with the card stored in the same transaction.
      const paid = intent ? await applyInvoicePayment(b, intent, null) : false;
      if (!paid) await b.db.transaction((tx) => storeCard(tx, accountId, actorUserId, onCard));
    }
    if (previous?.providerRef && previous.providerRef !== paymentMethodRef) {
      await b.provider.detachCard(previous.providerRef).catch((error: unknown) => {
        b.log.error({ err: error }, 'detaching the previous card failed');
      });
    }
    // The gateway re-reads the account (a card on file opens priced marketplace routes).
    await publish(b, accountId);
    await mailCardUpdated(b, accountId);
    return done;
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
