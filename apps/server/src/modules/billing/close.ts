import { and, eq, isNotNull } from 'drizzle-orm';
import { invoices } from '../../db/schema/invoices';
import { subscriptions } from '../../db/schema/subscriptions';
import type { TBilling } from './context';
import { releaseHeldPayment } from './held-payments';
import { loadCard } from './records';

/**
 * Before an account is deleted: its subscription is cancelled (no renewal will run), a renewal
 * payment held for authentication is cancelled and its card is detached at the processor. Invoices stay (financial records): their account link becomes null
 * when the account row goes and they keep only the organisation name they were issued to.
 */
export async function closeBilling(b: TBilling, accountId: string): Promise<void> {
  await b.db
    .update(subscriptions)
    .set({ status: 'canceled', cancelAtPeriodEnd: false, nextAttemptAt: null, updatedAt: new Date() })
    .where(eq(subscriptions.accountId, accountId));
  const held = await b.db
    .select({ paymentId: invoices.providerRef })
    .from(invoices)
    .where(
      and(eq(invoices.accountId, accountId), eq(invoices.status, 'open'), isNotNull(invoices.providerRef)),
    );
  for (const { paymentId } of held) await releaseHeldPayment(b, accountId, paymentId!);
  const card = await loadCard(b.db, accountId);
  if (card?.providerRef) {
    await b.provider.detachCard(card.providerRef).catch((error: unknown) => {
      b.log.error({ err: error, accountId }, 'detaching the card of a closed account failed');
    });
  }
}
