import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundInvoice } from '../src/modules/billing/payouts/refunds';
import { startStripeFake, STRIPE, useStripeFake } from './billing-stripe-fake';
import { newOwner, send } from './billing-helpers';
import { insertKey, type TMockUpstream } from './gateway-fixtures';
import type { TTestApp } from './helpers';
import { startListeningApp } from './marketplace-helpers';
import {
  calls,
  closeMonth,
  IBAN,
  lastInvoice,
  ledgerOf,
  newProvider,
  payoutsOf,
  renew,
} from './payouts-helpers';
import { createConnectFake, type TConnectFake } from './stripe-connect-fake';
import { STRIPE_SPEC_VERSION } from './stripe-openapi';

let t: TTestApp;
let fake: Awaited<ReturnType<typeof startStripeFake>>;
let connect: TConnectFake;
let upstream: TMockUpstream;
let base: string;
const signer = new Stripe('sk_test_fake');

beforeAll(async () => {
  connect = createConnectFake();
  fake = await startStripeFake({ connect });
  ({ t, upstream, base } = await startListeningApp({ billing: STRIPE }));
  useStripeFake(t.app, fake);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await upstream?.close();
});

/** A Stripe event as Stripe sends it: signed with the webhook secret. */
function event(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_${type}_${Math.random()}`,
    object: 'event',
    type,
    data: { object },
  });
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: STRIPE.webhookSecret });
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}

async function stripeCaller() {
  const owner = await newOwner(t.app);
  const plan = await send(t.app, owner.headers, 'POST', '/api/account/plan', {
    plan: 'pro',
    token: 'tok_visa',
  });
  expect(plan.statusCode, plan.body).toBe(200);
  return { owner, key: await insertKey(t.db, t.config.secret, owner.accountId) };
}

describe('payouts through Stripe Connect (against a fake checked by Stripe’s OpenAPI document)', () => {
  it(`onboards an Express account and pays the month by one transfer (document ${STRIPE_SPEC_VERSION})`, async () => {
    const provider = await newProvider(t.app, 'connect-p/chat', upstream.url, 600_000);
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/account/payout-account', headers: provider.headers, payload });
    // Stripe collects the bank account: a number typed into AIR is refused in this mode.
    expect((await put(IBAN)).statusCode).toBe(400);
    const first = await put({ method: 'stripe' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ method: 'stripe', ready: false });
    expect(first.json().data.onboarding_url).toMatch(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_/);
    expect((await put({ method: 'stripe' })).statusCode).toBe(200);
    const made = [...connect.accounts.values()].filter(
      (a) => (a.metadata as Record<string, string>).air_account_id === provider.accountId,
    );
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ type: 'express' });
    const accountLinks = fake.requests.filter((r) => r.path === '/v1/account_links');
    expect(accountLinks.at(-1)!.params.get('return_url')).toBe(
      `${t.config.appUrl}/account/payouts?onboarding=done`,
    );

    const caller = await stripeCaller();
    await calls(t.app, base, caller.key.raw, 'connect-p/chat', 20); // 12.00, fee 1.20
    await renew(t.app);
    await closeMonth(t.app);
    // Onboarding not finished: the payout waits, no transfer is made.
    expect((await payoutsOf(t.app, provider)).payouts).toEqual([
      expect.objectContaining({ amount: 1080, status: 'pending', waiting: 'onboarding_incomplete' }),
    ]);
    expect(connect.transfers.size).toBe(0);

    connect.completeOnboarding(made[0]!.id as string);
    const ready = await event('account.updated', { id: made[0]!.id, object: 'account' });
    expect(ready.statusCode, ready.body).toBe(200);
    const account = await t.app.inject({
      method: 'GET',
      url: '/api/account/payout-account',
      headers: provider.headers,
    });
    expect(account.json().data).toMatchObject({ ready: true, onboarding_url: null });
    await closeMonth(t.app);
    const paid = await payoutsOf(t.app, provider);
    expect(paid).toMatchObject({ paid: 1080, pending: 0, balance: 0 });
    const [transfer] = [...connect.transfers.values()];
    expect(connect.transfers.size).toBe(1);
    expect(transfer).toMatchObject({
      amount: 1080,
      currency: 'usd',
      destination: made[0]!.id,
      transfer_group: `air_payout_${paid.payouts[0]!.id}`,
    });
    expect(paid.payouts[0]).toMatchObject({ status: 'paid', destination: `Stripe ${made[0]!.id as string}` });
    expect(connect.problems).toEqual([]);
  });

  it('refunds through Stripe and applies refund and dispute webhooks once each', async () => {
    const provider = await newProvider(t.app, 'connect-r/chat', upstream.url, 500_000);
    const caller = await stripeCaller();
    await calls(t.app, base, caller.key.raw, 'connect-r/chat', 10); // 5.00, fee 0.50, net 4.50
    await renew(t.app);
    const invoice = await lastInvoice(t.app, caller.owner.accountId);
    expect(invoice.status).toBe('paid');
    const total = invoice.total; // 29.00 + 5.00

    // The admin's refund goes through Stripe (one refund), and its webhook applies nothing twice.
    await refundInvoice(t.app.billing, {
      number: invoice.number,
      amount: total / 2,
      kind: 'refund',
      reason: 'test',
    });
    const refunds = [...connect.refunds.values()].filter((r) => r.payment_intent === invoice.providerRef);
    expect(refunds).toHaveLength(1);
    for (let i = 0; i < 2; i++)
      expect(
        (
          await event('charge.refunded', {
            id: 'ch_x',
            object: 'charge',
            payment_intent: invoice.providerRef,
          })
        ).statusCode,
      ).toBe(200);
    expect((await payoutsOf(t.app, provider)).balance).toBe(450 - 225);

    // A refund made in Stripe's dashboard arrives by webhook only.
    const dashboard = await new Stripe('sk_test_fake', {
      host: '127.0.0.1',
      port: fake.port,
      protocol: 'http',
    }).refunds.create({
      payment_intent: invoice.providerRef!,
      amount: 340,
    });
    await event('refund.created', {
      id: dashboard.id,
      object: 'refund',
      payment_intent: invoice.providerRef,
    });
    // 1700 + 340 of 3400 refunded: 60 % of the 5.00 line (3.00) and of its fee (0.30).
    expect((await payoutsOf(t.app, provider)).balance).toBe(450 - 270);

    // A dispute of the rest: a chargeback while open, given back when the platform wins it.
    const dispute = connect.openDispute(fake.intents.get(invoice.providerRef!)!, total - 2040);
    await event('charge.dispute.created', { id: dispute, object: 'dispute' });
    expect((await payoutsOf(t.app, provider)).balance).toBe(0);
    connect.closeDispute(dispute, 'won');
    for (let i = 0; i < 2; i++) await event('charge.dispute.closed', { id: dispute, object: 'dispute' });
    expect((await payoutsOf(t.app, provider)).balance).toBe(450 - 270);
    const ledger = await ledgerOf(t.app, [provider.accountId]);
    expect(ledger.gross).toBe(ledger.net + ledger.fee);
    expect(connect.problems).toEqual([]);
  });

  it('the fake refuses what Stripe’s document refuses', async () => {
    const before = connect.problems.length;
    const res = await fetch(`http://127.0.0.1:${fake.port}/v1/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=ten&destination=acct_x&no_such_field=1',
    });
    expect(res.status).toBe(400);
    expect(connect.problems.length).toBeGreaterThan(before);
    connect.problems.length = before;
  });
});
