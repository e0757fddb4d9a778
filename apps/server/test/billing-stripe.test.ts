import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEvents, invoices, subscriptions } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { PASSWORD } from './identity-helpers';
import { advance, newOwner, send } from './billing-helpers';
import { inviteToken } from './teams-helpers';
import { startStripeFake, STRIPE, useStripeFake } from './billing-stripe-fake';

let t: TTestApp;
let fake: Awaited<ReturnType<typeof startStripeFake>>;
beforeAll(async () => {
  fake = await startStripeFake();
  t = await createTestApp({ billing: STRIPE });
  useStripeFake(t.app, fake);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const signer = new Stripe('sk_test_fake');

function webhook(payload: string, secret = STRIPE.webhookSecret) {
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}

async function invoicesOf(accountId: string) {
  return t.db.select().from(invoices).where(eq(invoices.accountId, accountId));
}

/** The charge requests (PaymentIntent creations) Stripe received for an account. */
function chargesOf(accountId: string) {
  return fake.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === '/v1/payment_intents' &&
      r.params.get('metadata[account_id]') === accountId,
  );
}

/** The PaymentIntents Stripe holds for an account (each one a payment). */
function intentsOf(accountId: string) {
  return [...fake.intents.values()].filter(
    (intent) => (intent.metadata as Record<string, string>).account_id === accountId,
  );
}

describe('Stripe provider against a loopback fake', () => {
  it('tells the console to load Stripe.js with the publishable key; the local calls are off', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/billing/config' });
    expect(res.json().data).toEqual({ provider: 'stripe', publishable_key: 'pk_test_fake' });
    const owner = await newOwner(t.app);
    const local = await send(t.app, owner.headers, 'POST', '/api/billing/local/token', {
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
    });
    expect(local.statusCode).toBe(404);
  });

  it('signs up with a card; submitted again, the plan is kept and nothing more is charged', async () => {
    const owner = await newOwner(t.app);
    const body = { plan: 'pro', token: 'tok_visa' };
    const first = await send(t.app, owner.headers, 'POST', '/api/account/plan', body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
    const second = await send(t.app, owner.headers, 'POST', '/api/account/plan', body);
    expect(second.statusCode).toBe(200);
    expect(chargesOf(owner.accountId)).toHaveLength(1);
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
    const card = await t.app.inject({ method: 'GET', url: '/api/account/card', headers: owner.headers });
    expect(card.json().data).toMatchObject({ brand: 'visa', last4: '4242' });
  });

  it('a double submit reaches Stripe twice under one Idempotency-Key and makes one payment', async () => {
    const owner = await newOwner(t.app);
    // A card that needs 3-D Secure: the first submit changes nothing until it is confirmed, so
    // the same submit again goes to Stripe again.
    const body = { plan: 'pro', token: 'tok_threeDSecureRequired' };
    const [first, second] = [
      await send(t.app, owner.headers, 'POST', '/api/account/plan', body),
      await send(t.app, owner.headers, 'POST', '/api/account/plan', body),
    ];
    expect(first.json()).toMatchObject({ requires_payment_action: true });
    expect(second.json()).toEqual(first.json());
    const charges = chargesOf(owner.accountId);
    expect(charges).toHaveLength(2);
    // The server's own key (derived from account, action, plan, card), not one the SDK made up;
    // the second request had the same parameters, so Stripe answered the first payment again.
    expect(charges[0]!.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(charges[1]!.idempotencyKey).toBe(charges[0]!.idempotencyKey);
    expect(charges.map((c) => c.replayed)).toEqual([false, true]);
    expect(intentsOf(owner.accountId)).toHaveLength(1);

    const intentId = first.json().client_secret.split('_secret_')[0];
    fake.authenticate(intentId);
    const payment = { payment_intent: intentId };
    for (let i = 0; i < 2; i++) {
      const paid = await send(t.app, owner.headers, 'POST', '/api/account/plan', { ...body, payment });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().data).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
    }
    expect(intentsOf(owner.accountId)).toHaveLength(1);
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
  });

  it("a charge whose answer is lost is retried under the client's key and made once", async () => {
    const owner = await newOwner(t.app);
    fake.loseNextAnswer('/v1/payment_intents');
    const res = await send(t.app, owner.headers, 'POST', '/api/account/plan', {
      plan: 'pro',
      token: 'tok_visa',
      idempotency_key: 'signup-click-0001',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
    const charges = chargesOf(owner.accountId);
    expect(charges.map((c) => [c.idempotencyKey, c.replayed])).toEqual([
      [`acct_${owner.accountId}_signup-click-0001`, false],
      [`acct_${owner.accountId}_signup-click-0001`, true],
    ]);
    expect(intentsOf(owner.accountId)).toHaveLength(1);
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
  });

  it("shows Stripe's decline on the card field and changes nothing", async () => {
    const owner = await newOwner(t.app);
    const res = await send(t.app, owner.headers, 'POST', '/api/account/plan', {
      plan: 'pro',
      token: 'tok_chargeDeclined',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ inputError: 'token', code: 'card_declined' });
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, owner.accountId));
    expect(sub).toBeUndefined();
  });

  it('3-D Secure: the webhook applies the payment once, a replay is ignored, a bad signature is refused', async () => {
    const owner = await newOwner(t.app);
    const body = { plan: 'pro', token: 'tok_threeDSecureRequired' };
    const first = await send(t.app, owner.headers, 'POST', '/api/account/plan', body);
    expect(first.json()).toMatchObject({
      requires_payment_action: true,
      client_secret: expect.stringMatching(/_secret_/),
    });
    const intentId = first.json().client_secret.split('_secret_')[0];
    const intent = fake.authenticate(intentId);

    const payload = JSON.stringify({
      id: `evt_${intentId}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: intent },
    });
    const forged = await webhook(payload, 'whsec_wrong');
    expect(forged.statusCode).toBe(400);
    expect(await invoicesOf(owner.accountId)).toHaveLength(0);

    const applied = await webhook(payload);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual({ received: true, duplicate: false });
    const replay = await webhook(payload);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
    const [event] = await t.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, `evt_${intentId}`));
    expect(event?.type).toBe('payment_intent.succeeded');

    // The browser's repeated request after confirmation finds the payment applied: no second invoice.
    const repeat = await send(t.app, owner.headers, 'POST', '/api/account/plan', {
      ...body,
      payment: { payment_intent: intentId },
    });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json().data.plan).toBe('pro');
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
  });

  it('renewal: the seats of the members who joined are what Stripe is asked to charge', async () => {
    const owner = await newOwner(t.app);
    expect(
      (await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'team', token: 'tok_visa' }))
        .statusCode,
    ).toBe(200);
    const email = `stripe-seat-${owner.accountId}@example.com`;
    expect((await send(t.app, owner.headers, 'POST', '/api/invite', { email })).statusCode).toBe(200);
    const joined = await t.app.inject({
      method: 'POST',
      url: '/api/user',
      payload: { name: 'Member', email, password: PASSWORD, invite_id: await inviteToken(t.app, email) },
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, owner.accountId));
    expect(sub?.seats).toBe(2);

    await advance(t.app, 31);
    const renewal = (await invoicesOf(owner.accountId)).find((i) => i.lines.length === 2)!;
    expect(renewal.lines[0]).toMatchObject({ quantity: 2, unitAmount: 1900 });
    expect(renewal).toMatchObject({ status: 'paid', total: 3800 + sub!.prorationBalance });
    const charge = chargesOf(owner.accountId).find(
      (c) => c.params.get('metadata[invoice_id]') === renewal.id,
    );
    expect(charge?.params.get('amount')).toBe(String(renewal.total));
    expect(charge?.params.get('off_session')).toBe('true');
    expect(charge?.idempotencyKey).toBe(`invoice_${renewal.id}_0`);
  });

  it('renewal: a card Stripe wants authenticated sets requires_action until the card holder confirms', async () => {
    const owner = await newOwner(t.app);
    await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token: 'tok_visa' });
    const card = await send(t.app, owner.headers, 'PATCH', '/api/account/card', {
      token: 'tok_authenticationRequired',
    });
    expect(card.statusCode, card.body).toBe(200);
    await advance(t.app, 31);
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, owner.accountId));
    expect(sub?.status).toBe('requires_action');

    const authorize = (payload: Record<string, unknown>) =>
      send(t.app, owner.headers, 'POST', '/api/account/subscription/authorize', payload);
    const action = await authorize({});
    expect(action.json()).toMatchObject({ requires_payment_action: true });
    const intentId = action.json().client_secret.split('_secret_')[0];
    expect(fake.intents.get(intentId)).toMatchObject({ status: 'requires_action' });
    // What Stripe.js does in the browser, then the console's repeated call.
    fake.authenticate(intentId);
    const done = await authorize({ payment: { payment_intent: intentId } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.status).toBe('active');
    const open = (await invoicesOf(owner.accountId)).filter((i) => i.status !== 'paid');
    expect(open).toEqual([]);
  });

  it('renewal never authorized: each held payment is cancelled at Stripe, the last when the subscription ends', async () => {
    const owner = await newOwner(t.app);
    await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token: 'tok_visa' });
    await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: 'tok_authenticationRequired' });
    await advance(t.app, 31);
    await advance(t.app, 1);
    await advance(t.app, 2);
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, owner.accountId));
    expect(sub?.status).toBe('canceled');
    const held = [...fake.intents.values()].filter(
      (i) => (i.metadata as Record<string, string>).account_id === owner.accountId && i.payment_method,
    );
    const renewals = held.filter((i) => (i.metadata as Record<string, string>).action === 'invoice');
    expect(renewals.map((i) => i.status)).toEqual(['canceled', 'canceled', 'canceled']);
    const cancels = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel'));
    expect(renewals.map((i) => cancels.filter((r) => r.path.includes(`/${String(i.id)}/`)).length)).toEqual([
      1, 1, 1,
    ]);
  });
});
