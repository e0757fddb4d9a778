import { and, eq, lt, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { billingLocks } from '../../db/schema/billing';
import { AppError } from '../../lib/app-error';

const LEASE_MS = 60_000;

/**
 * Runs `work` holding the account's billing lease (a row in billing_locks, so it holds across
 * instances and on both databases without a transaction open over a processor call). A second
 * concurrent billing write of the same account answers 409 instead of charging again.
 */
export async function withBillingLock<T>(db: TDb, accountId: string, work: () => Promise<T>): Promise<T> {
  const until = new Date(Date.now() + LEASE_MS);
  const taken = await db
    .insert(billingLocks)
    .values({ accountId, until })
    .onConflictDoUpdate({
      target: billingLocks.accountId,
      set: { until },
      setWhere: lt(billingLocks.until, sql`now()`),
    })
    .returning({ accountId: billingLocks.accountId });
  if (taken.length === 0) throw new AppError('conflict', { messageKey: 'billing.busy' });
  try {
    return await work();
  } finally {
    await db
      .delete(billingLocks)
      .where(and(eq(billingLocks.accountId, accountId), eq(billingLocks.until, until)));
  }
}
