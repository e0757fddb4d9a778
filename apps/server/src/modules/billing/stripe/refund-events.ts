import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { payoutAccounts } from '../../../db/schema/payout-accounts';
import type { TBilling } from '../context';
import { applyRefund, invoiceOfPayment, RefundError } from '../payouts/refunds';
import type { StripeProvider } from './provider';

/*
 * Stripe's events that move providers' earnings (contract 5b): refunds (made by the refund command
 * or in Stripe's dashboard) and disputes of a caller's invoice payment, and a Connect account
 * becoming able to take transfers. Each object is read back from Stripe rather than trusted from
 * the event's body; each refund or dispute is applied once (its id is the refund row's key).
 */

function idOf(value: string | { id: string } | null | undefined): string | null {
  return typeof value === 'string' ? value : (value?.id ?? null);
}

/** Applies one movement, ignoring what is not an AIR invoice or no longer fits (logged). */
async function apply(
  b: TBilling,
  paymentRef: string | null,
  movement: { kind: 'refund' | 'chargeback'; amount: number; providerRef: string; reason: string },
): Promise<void> {
  const invoiceId = paymentRef ? await invoiceOfPayment(b.db, paymentRef) : null;
  if (!invoiceId) return;
  try {
    await applyRefund(b, { invoiceId, ...movement });
  } catch (error) {
    if (!(error instanceof RefundError)) throw error;
    b.log.info({ invoiceId, providerRef: movement.providerRef, reason: error.message }, 'refund not applied');
  }
}

/** Every refund of the payment as Stripe has it now: succeeded or pending ones reverse earnings; a failed one gives them back. */
async function applyRefundsOf(b: TBilling, provider: StripeProvider, paymentRef: string): Promise<void> {
  const refunds = await provider.stripe.refunds.list({ payment_intent: paymentRef, limit: 100 });
  for (const refund of refunds.data) {
    const reason = refund.reason ?? 'refunded in Stripe';
    await apply(b, paymentRef, { kind: 'refund', amount: refund.amount, providerRef: refund.id, reason });
    if (refund.status === 'failed' || refund.status === 'canceled')
      await apply(b, paymentRef, {
        kind: 'refund',
        amount: -refund.amount,
        providerRef: `${refund.id}_failed`,
        reason,
      });
  }
}

async function applyDispute(b: TBilling, provider: StripeProvider, disputeId: string): Promise<void> {
  const dispute = await provider.stripe.disputes.retrieve(disputeId);
  const paymentRef = idOf(dispute.payment_intent);
  const reason = `dispute: ${dispute.reason}`;
  await apply(b, paymentRef, { kind: 'chargeback', amount: dispute.amount, providerRef: dispute.id, reason });
  // Won: the money came back to the platform, and with it the providers' earnings.
  if (dispute.status === 'won')
    await apply(b, paymentRef, {
      kind: 'chargeback',
      amount: -dispute.amount,
      providerRef: `${dispute.id}_won`,
      reason,
    });
}

/** True when the event was one of these (applied); false for any other type. */
export async function applyPayoutEvent(
  b: TBilling,
  provider: StripeProvider,
  event: Stripe.Event,
): Promise<boolean> {
  switch (event.type) {
    case 'charge.refunded': {
      const paymentRef = idOf(event.data.object.payment_intent);
      if (paymentRef) await applyRefundsOf(b, provider, paymentRef);
      return true;
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed': {
      const paymentRef = idOf(event.data.object.payment_intent);
      if (paymentRef) await applyRefundsOf(b, provider, paymentRef);
      return true;
    }
    case 'charge.dispute.created':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.closed':
      await applyDispute(b, provider, event.data.object.id);
      return true;
    case 'account.updated': {
      const ready = await provider.connect.ready(event.data.object.id);
      await b.db
        .update(payoutAccounts)
        .set({ ready, updatedAt: new Date() })
        .where(eq(payoutAccounts.stripeAccountId, event.data.object.id));
      return true;
    }
    default:
      return false;
  }
}
