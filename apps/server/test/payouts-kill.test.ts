import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earningsLedger, payoutAccounts, payouts, webhookDeliveries } from '../src/db/schema';
import { advanceClock, billingNow } from '../src/modules/billing/clock';
import { runDuePayouts, type TPayoutStep } from '../src/modules/billing/payouts/run';
import { newOwner } from './billing-helpers';
import { startStripeFake, STRIPE, useStripeFake } from './billing-stripe-fake';
import { createTestApp, type TTestApp } from './helpers';
import { createConnectFake, type TConnectFake } from './stripe-connect-fake';

/*
 * A payout run killed between any two of its steps and run again pays each provider once: one
 * payout per provider and month, one Stripe transfer per payout, one payout.paid event. The run is
 * stopped by throwing at the n-th step (what a crash leaves: everything before it committed, the
 * lease of a claimed payout held), then run again once that lease has lapsed.
 */

let t: TTestApp;
let fake: Awaited<ReturnType<typeof startStripeFake>>;
let connect: TConnectFake;

beforeAll(async () => {
  connect = createConnectFake();
  fake = await startStripeFake({ connect });
  t = await createTestApp({ billing: STRIPE, upstreamAllowPrivate: true });
  useStripeFake(t.app, fake);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

class Killed extends Error {}

/** Two providers with collected earnings dated last month, onboarded to Connect, with a webhook each. */
async function twoProviders(amounts: [number, number]) {
  const now = await billingNow(t.db);
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 86_400_000);
  const providers = [];
  for (const amount of amounts) {
    const owner = await newOwner(t.app, 'free');
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhook',
      headers: owner.headers,
      payload: { url: 'http://127.0.0.1:9/hook', events: ['payout.paid'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const account = await t.app.billing.provider.connect!.createAccount({
      accountId: owner.accountId,
      email: null,
    });
    connect.completeOnboarding(account);
    await t.db
      .insert(payoutAccounts)
      .values({ accountId: owner.accountId, method: 'stripe', stripeAccountId: account, ready: true });
    // Two earnings and a refund, as the ledger holds them (gross - fee = net on each row).
    for (const net of [amount, 500, -500]) {
      const fee = Math.max(0, Math.round(net / 9));
      await t.db.insert(earningsLedger).values({
        providerAccountId: owner.accountId,
        kind: net > 0 ? 'earning' : 'refund',
        chargeId: randomUUID(),
        invoiceId: randomUUID(),
        source: net > 0 ? 'earning' : randomUUID(),
        gross: net + fee,
        fee,
        net,
        currency: 'usd',
        createdAt: lastMonth,
      });
    }
    providers.push({ owner, account, amount });
  }
  return providers;
}

async function check(providers: Awaited<ReturnType<typeof twoProviders>>) {
  const ids = providers.map((p) => p.owner.accountId);
  const made = await t.db.select().from(payouts).where(inArray(payouts.providerAccountId, ids));
  expect(made).toHaveLength(2);
  for (const provider of providers) {
    const [payout] = made.filter((p) => p.providerAccountId === provider.owner.accountId);
    expect(payout).toMatchObject({ status: 'paid', amount: provider.amount });
    const transfers = [...connect.transfers.values()].filter(
      (tr) => tr.transfer_group === `air_payout_${payout!.id}`,
    );
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: provider.amount, destination: provider.account });
    expect(payout!.providerRef).toBe(transfers[0]!.id);
    const events = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.accountId, provider.owner.accountId));
    expect(events.filter((e) => e.event === 'payout.paid')).toHaveLength(1);
  }
}

const STEPS_PER_RUN = 8; // closed x 2, then claimed, transferred, paid for each payout

describe('a payout run killed between any two steps', () => {
  for (let stop = 1; stop <= STEPS_PER_RUN; stop++) {
    it(`pays each provider once when killed after step ${stop} and run again`, async () => {
      const providers = await twoProviders([1500 + stop, 2500 + stop]);
      let seen = 0;
      const stepsSeen: TPayoutStep[] = [];
      await expect(
        runDuePayouts(t.app.billing, {
          onStep: (step) => {
            stepsSeen.push(step);
            if (++seen === stop) throw new Killed(step);
          },
        }),
      ).rejects.toBeInstanceOf(Killed);
      expect(stepsSeen).toHaveLength(stop);
      // The claimed payout's lease lapses (5 minutes of billing time), then the run goes again.
      await advanceClock(t.db, 6 * 60_000);
      await runDuePayouts(t.app.billing);
      await runDuePayouts(t.app.billing);
      await check(providers);
    });
  }

  it('pays once when Stripe made the transfer but its answer was lost', async () => {
    const providers = await twoProviders([1700, 1800]);
    fake.loseNextAnswer('/v1/transfers');
    await runDuePayouts(t.app.billing);
    await advanceClock(t.db, 6 * 60_000);
    await runDuePayouts(t.app.billing);
    await check(providers);
  });

  it('pays once when the run races itself (two runs at once)', async () => {
    const providers = await twoProviders([1900, 2000]);
    await Promise.all([
      runDuePayouts(t.app.billing),
      runDuePayouts(t.app.billing),
      runDuePayouts(t.app.billing),
    ]);
    await check(providers);
    expect(connect.problems).toEqual([]);
  });
});
