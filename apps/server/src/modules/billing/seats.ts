import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { plans as plansTable } from '../../db/schema/plans';
import { subscriptions } from '../../db/schema/subscriptions';
import { memberCount } from '../membership/service';
import { billingNow } from './clock';

/**
 * Called whenever an account's members change (the user/teams service): on a per-seat (tiered)
 * plan the subscription's quantity follows the member count, and the change for the rest of the
 * period is prorated onto the next invoice (`proration_balance`). Takes the database only: the
 * membership service calls it inside its own transaction, as the listener billing's plugin
 * registers (`listenToMemberCount`).
 */
export async function membersChanged(db: TDb, accountId: string): Promise<void> {
  const [row] = await db
    .select({ sub: subscriptions, type: plansTable.type, price: plansTable.price })
    .from(subscriptions)
    .innerJoin(plansTable, eq(plansTable.id, subscriptions.planId))
    .where(eq(subscriptions.accountId, accountId))
    .limit(1);
  if (!row || row.type !== 'tiered') return;
  const seats = Math.max(1, await memberCount(db, accountId));
  const { sub } = row;
  if (seats === sub.seats) return;
  let prorated = 0;
  if (row.price > 0 && (sub.status === 'active' || sub.status === 'trialing')) {
    const now = (await billingNow(db)).getTime();
    const length = sub.currentPeriodEnd.getTime() - sub.currentPeriodStart.getTime();
    const left = Math.max(0, sub.currentPeriodEnd.getTime() - now);
    prorated = Math.round(((seats - sub.seats) * sub.seatPrice * left) / Math.max(1, length));
  }
  await db
    .update(subscriptions)
    .set({
      seats,
      prorationBalance: sql`${subscriptions.prorationBalance} + ${prorated}`,
      version: sql`${subscriptions.version} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(subscriptions.accountId, accountId));
}
