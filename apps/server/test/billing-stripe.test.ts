import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeProvider } from '../src/billing/stripe/provider';
import { billingEvents, invoices, subscriptions } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { newOwner, send } from './billing-helpers';
import { startStripeFake } from './billing-stripe-fake';

const STRIPE = {
  provider: 'stripe' as const,
  secretKey: 'sk_test_fake',
  publishableKey: 'pk_test_fake',
  webhookSecret: 'whsec_test_fake',
};

let t: TTestApp;
let fake: Awaited<ReturnType<typeof startStripeFake>>;
beforeAll(async () => {
  fake = await startStripeFake();
  t = await createTestApp({ billing: STRIPE });
  // The same provider class, pointed at the loopback fake instead of api.stripe.com.
  t.app.billing.provider = new StripeProvider(STRIPE, {
    host: '127.0.0.1',
    port: fake.port,
    protocol: 'http',
  });
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

  it('signs up with a card, charging once with an idempotency key even when submitted twice', async () => {
    const owner = await newOwner(t.app);
    const body = { plan: 'pro', token: 'tok_visa' };
    const first = await send(t.app, owner.headers, 'POST', '/api/account/plan', body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
    const second = await send(t.app, owner.headers, 'POST', '/api/account/plan', body);
    expect(second.statusCode).toBe(200);
    const charges = fake.requests.filter((r) => r.path === '/v1/payment_intents' && r.method === 'POST');
    expect(charges).toHaveLength(1);
    expect(charges[0]!.idempotencyKey).toBeTruthy();
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
    const card = await t.app.inject({ method: 'GET', url: '/api/account/card', headers: owner.headers });
    expect(card.json().data).toMatchObject({ brand: 'visa', last4: '4242' });
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
});
