import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { earningsLedger } from '../../../db/schema/earnings-ledger';
import { payoutAccounts } from '../../../db/schema/payout-accounts';
import { payouts } from '../../../db/schema/payouts';
import { enqueueEvent } from '../../webhooks/service';
import { billingNow } from '../clock';
import type { TBilling } from '../context';
import { ProcessorError } from '../provider';
import { destinationOf } from './destination';

/*
 * The payout run (contract 5b). At each month's close (UTC, billing time) each provider whose
 * collected, unpaid earnings reach PAYOUT_MINIMUM gets one payout for that month, holding those
 * ledger rows; smaller balances stay for the next month. Then every pending payout is paid: local
 * mode records it as paid to the provider's bank account, stripe mode transfers it to the
 * provider's Connect account. Safe to kill anywhere and run again, and to run on many instances:
 *   close:  one transaction makes the payout (unique per provider and month) and takes its rows;
 *   claim:  a lease (FOR UPDATE SKIP LOCKED) gives each pending payout to one run at a time;
 *   pay:    the transfer is found by its group or made under the payout's idempotency key;
 *   paid:   one transaction marks it paid and queues `payout.paid`, only if still pending.
 */

/** Where a run is between two steps: tests stop it there (a crash) and run it again. */
export type TPayoutStep = 'closed' | 'claimed' | 'transferred' | 'paid';
export interface TPayoutRunOptions {
  onStep?: (step: TPayoutStep, payoutId: string) => Promise<void> | void;
}

const LEASE_MS = 5 * 60_000;
const BATCH = 50;
/** A run never loops longer than this many batches (a provider is closed once per month). */
const MAX_BATCHES = 1000;

/** `YYYY-MM` of a date, UTC. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

function monthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

async function rows<T>(db: TDb, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

/** Makes the month's payout of one provider with every collected row before the month's end. */
async function closeOne(db: TDb, providerAccountId: string, period: string, end: Date, now: Date) {
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(payouts)
      .values({ providerAccountId, period, amount: 0, currency: 'usd', createdAt: now })
      .onConflictDoNothing()
      .returning({ id: payouts.id });
    // Another run made it first (this run raced it, or is a re-run): nothing to do.
    if (!made) return null;
    const taken = await tx
      .update(earningsLedger)
      .set({ payoutId: made.id })
      .where(
        and(
          eq(earningsLedger.providerAccountId, providerAccountId),
          isNull(earningsLedger.payoutId),
          lt(earningsLedger.createdAt, end),
        ),
      )
      .returning({ net: earningsLedger.net, currency: earningsLedger.currency });
    const amount = taken.reduce((sum, row) => sum + row.net, 0);
    await tx
      .update(payouts)
      .set({ amount, currency: taken[0]?.currency ?? 'usd' })
      .where(eq(payouts.id, made.id));
    return made.id;
  });
}

/** The close of the month before `now`'s: answers how many payouts it made. */
async function closeMonth(b: TBilling, now: Date, options: TPayoutRunOptions): Promise<number> {
  const end = monthStart(now);
  const period = monthOf(new Date(end.getTime() - 1));
  let made = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await rows<{ provider: string }>(
      b.db,
      sql`select l.provider_account_id::text as provider from earnings_ledger l
        where l.payout_id is null and l.created_at < ${end.toISOString()}::timestamptz
          and not exists (select 1 from payouts p
            where p.provider_account_id = l.provider_account_id and p.period = ${period})
        group by l.provider_account_id
        having sum(l.net) >= ${Math.max(1, b.payoutMinimum)}
        order by 1 limit ${BATCH}`,
    );
    for (const { provider } of due) {
      const id = await closeOne(b.db, provider, period, end, now);
      if (id) {
        made++;
        await options.onStep?.('closed', id);
      }
    }
    if (due.length < BATCH) break;
  }
  return made;
}

type TPayoutRow = typeof payouts.$inferSelect;

async function claimPending(db: TDb, now: Date): Promise<TPayoutRow[]> {
  const free = or(isNull(payouts.claimedUntil), lt(payouts.claimedUntil, now));
  const due = db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.status, 'pending'), free))
    .orderBy(payouts.createdAt)
    .limit(BATCH)
    .for('update', { skipLocked: true });
  return db
    .update(payouts)
    .set({ claimedUntil: new Date(now.getTime() + LEASE_MS) })
    .where(and(sql`${payouts.id} in ${due}`, eq(payouts.status, 'pending'), free))
    .returning();
}

/**
 * The payout stays pending for `waiting`; the next run tries it again (its lease ends at this
 * run's time, which a claim needs to be past, so this run does not take it again).
 */
async function release(db: TDb, id: string, waiting: NonNullable<TPayoutRow['waiting']>, now: Date) {
  await db.update(payouts).set({ waiting, claimedUntil: now }).where(eq(payouts.id, id));
}

/** Pays one claimed payout; false when it has to wait (no account, onboarding, processor down). */
async function payOne(b: TBilling, payout: TPayoutRow, now: Date, options: TPayoutRunOptions) {
  const [account] = await b.db
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.accountId, payout.providerAccountId))
    .limit(1);
  const connect = b.provider.connect;
  const usable = connect
    ? account?.method === 'stripe' && account.stripeAccountId
    : account && account.method !== 'stripe';
  if (!account || !usable) {
    await release(b.db, payout.id, 'no_payout_account', now);
    return false;
  }
  let ref = `po_local_${payout.id}`;
  if (connect) {
    const destination = account.stripeAccountId!;
    try {
      if (!account.ready) {
        if (!(await connect.ready(destination))) {
          await release(b.db, payout.id, 'onboarding_incomplete', now);
          return false;
        }
        await b.db
          .update(payoutAccounts)
          .set({ ready: true })
          .where(eq(payoutAccounts.accountId, account.accountId));
      }
      ref = await connect.transfer({
        payoutId: payout.id,
        amount: payout.amount,
        currency: payout.currency,
        destination,
      });
    } catch (error) {
      if (!(error instanceof ProcessorError)) throw error;
      b.log.error({ err: error, payoutId: payout.id }, 'payout transfer failed at the processor');
      await release(b.db, payout.id, 'processor_unavailable', now);
      return false;
    }
  }
  await options.onStep?.('transferred', payout.id);
  const destination = destinationOf(account);
  await b.db.transaction(async (tx) => {
    const [paid] = await tx
      .update(payouts)
      .set({ status: 'paid', paidAt: now, providerRef: ref, destination, waiting: null, claimedUntil: null })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, 'pending')))
      .returning({ id: payouts.id });
    if (!paid) return;
    // Queued with the payment itself: a crash cannot pay without telling, nor tell twice.
    await enqueueEvent(
      tx,
      payout.providerAccountId,
      'payout.paid',
      {
        payout_id: payout.id,
        period: payout.period,
        amount: payout.amount,
        currency: payout.currency,
        destination,
      },
      Date.now(),
    );
  });
  b.webhooks?.wake?.();
  await options.onStep?.('paid', payout.id);
  return true;
}

/** Pays every pending payout this run can claim: answers how many it paid. */
async function payPending(b: TBilling, now: Date, options: TPayoutRunOptions): Promise<number> {
  let paid = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const claimed = await claimPending(b.db, now);
    for (const payout of claimed) {
      await options.onStep?.('claimed', payout.id);
      if (await payOne(b, payout, now, options)) paid++;
    }
    if (claimed.length < BATCH) break;
  }
  return paid;
}

/**
 * Closes the last month (billing time) and pays what is pending. Run by every instance's job,
 * by the billing clock command and by `npm run cli -- payouts run`.
 */
export async function runDuePayouts(
  b: TBilling,
  options: TPayoutRunOptions = {},
): Promise<{ closed: number; paid: number }> {
  const now = await billingNow(b.db);
  const closed = await closeMonth(b, now, options);
  const paid = await payPending(b, now, options);
  return { closed, paid };
}
