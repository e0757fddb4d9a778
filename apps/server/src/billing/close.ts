import { eq } from 'drizzle-orm';
import { subscriptions } from '../db/schema/subscriptions';
import type { TBilling } from './context';
import { loadCard } from './records';

/**
 * Before an account is deleted: its subscription is cancelled (no renewal will run) and its card
 * is detached at the processor. Invoices stay (financial records): their account link becomes null
 * when the account row goes and they keep only the organisation name they were issued to.
 */
export async function closeBilling(b: TBilling, accountId: string): Promise<void> {
  await b.db
    .update(subscriptions)
    .set({ status: 'canceled', cancelAtPeriodEnd: false, nextAttemptAt: null, updatedAt: new Date() })
    .where(eq(subscriptions.accountId, accountId));
  const card = await loadCard(b.db, accountId);
  if (card?.providerRef) {
    await b.provider.detachCard(card.providerRef).catch((error: unknown) => {
      b.log.error({ err: error, accountId }, 'detaching the card of a closed account failed');
    });
  }
}
