import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entitlementsFor } from '../src/modules/billing/entitlements';
import { ProcessorError } from '../src/modules/billing/provider';
import { cards, invoices, localCardTokens, notificationPrefs, subscriptions } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { createTestApp, type TTestApp } from './helpers';
import { lastMail, PASSWORD } from './identity-helpers';
import { inviteToken } from './teams-helpers';
import { advance, CARDS, cardToken, newOwner, paymentsOf, pdfText, send } from './billing-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function subscriptionOf(accountId: string) {
  const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, accountId));
  return row;
}
async function invoicesOf(accountId: string) {
  return t.db.select().from(invoices).where(eq(invoices.accountId, accountId));
}

/** Signs up on `plan` with `number`; answers the owner and the plan call's response. */
async function signUpOn(plan: string, number: string) {
  const owner = await newOwner(t.app);
  const token = await cardToken(t.app, owner.headers, number);
  const res = await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan, token });
  return { owner, res, token };
}

describe('local card processor: card tokens', () => {
  it('checks Luhn, expiry and CVC and keeps only brand, last four and expiry', async () => {
    const owner = await newOwner(t.app);
    const year = new Date().getUTCFullYear();
    const bad = async (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/billing/local/token',
        headers: owner.headers,
        payload: body,
      });
    const wrongNumber = await bad({
      number: '4242 4242 4242 4241',
      exp_month: 12,
      exp_year: year + 1,
      cvc: '123',
    });
    expect(wrongNumber.statusCode).toBe(400);
    expect(wrongNumber.json()).toMatchObject({ inputError: 'number', code: 'incorrect_number' });
    const expired = await bad({ number: CARDS.ok, exp_month: 1, exp_year: year - 1, cvc: '123' });
    expect(expired.json()).toMatchObject({ inputError: 'exp', code: 'invalid_expiry' });
    const cvc = await bad({ number: CARDS.ok, exp_month: 12, exp_year: year + 1, cvc: '12' });
    expect(cvc.json()).toMatchObject({ inputError: 'cvc', code: 'invalid_cvc' });
    // American Express takes 4 digits, the others 3 (the console's widget applies the same rule).
    const amex = { number: '378282246310005', exp_month: 12, exp_year: year + 1 };
    expect((await bad({ ...amex, cvc: '123' })).json()).toMatchObject({ code: 'invalid_cvc' });
    expect((await bad({ ...amex, cvc: '1234' })).statusCode).toBe(200);
    expect(
      (await bad({ number: CARDS.ok, exp_month: 12, exp_year: year + 1, cvc: '1234' })).json(),
    ).toMatchObject({
      code: 'invalid_cvc',
    });

    const id = await cardToken(t.app, owner.headers, CARDS.ok);
    expect(id).toMatch(/^tok_/);
    const [row] = await t.db.select().from(localCardTokens).where(eq(localCardTokens.id, id));
    expect(row).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12 });
    expect(JSON.stringify(row)).not.toContain('4242424242424242');
  });
});

describe('paid sign-up with every test card', () => {
  it('4242 succeeds: plan, active subscription, paid invoice, card on file, plan_updated mail', async () => {
    const { owner, res } = await signUpOn('pro', CARDS.ok);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      plan: 'pro',
      subscription: { status: 'active', seat_price: 2900 },
    });
    const list = await invoicesOf(owner.accountId);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'paid', total: 2900 });
    const card = await t.app.inject({ method: 'GET', url: '/api/account/card', headers: owner.headers });
    expect(card.json().data).toEqual({
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: expect.any(Number),
    });
    expect(await lastMail(t.app, owner.email, 'plan_updated')).toBeTruthy();
    const sub = await t.app.inject({
      method: 'GET',
      url: '/api/account/subscription',
      headers: owner.headers,
    });
    expect(sub.json().data).toMatchObject({
      plan: 'pro',
      status: 'active',
      seats: 1,
      cancel_at_period_end: false,
    });
  });

  it('3155 asks for 3-D Secure; completed, the repeated request applies the payment once', async () => {
    const { owner, res, token } = await signUpOn('pro', CARDS.threeDs);
    expect(res.statusCode).toBe(200);
    const action = res.json();
    expect(action).toMatchObject({
      requires_payment_action: true,
      client_secret: expect.stringMatching(/^pi_.+_secret_/),
    });
    expect((await subscriptionOf(owner.accountId))?.planId).toBeUndefined();

    const confirmed = await send(t.app, owner.headers, 'POST', '/api/billing/local/confirm', {
      client_secret: action.client_secret,
      outcome: 'complete',
    });
    expect(confirmed.statusCode).toBe(200);
    const payment = { payment_intent: confirmed.json().data.payment_intent.id };
    const again = await send(t.app, owner.headers, 'POST', '/api/account/plan', {
      plan: 'pro',
      token,
      payment,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.plan).toBe('pro');
    const replay = await send(t.app, owner.headers, 'POST', '/api/account/plan', {
      plan: 'pro',
      token,
      payment,
    });
    expect(replay.statusCode).toBe(200);
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
    expect(await paymentsOf(t.app, owner.accountId)).toHaveLength(1);
  });

  it('3155 with failed authentication changes nothing and says why', async () => {
    const { owner, res, token } = await signUpOn('pro', CARDS.threeDs);
    const failed = await send(t.app, owner.headers, 'POST', '/api/billing/local/confirm', {
      client_secret: res.json().client_secret,
      outcome: 'fail',
    });
    expect(failed.statusCode).toBe(400);
    expect(failed.json().code).toBe('payment_intent_authentication_failure');
    const paymentId = res.json().client_secret.split('_secret_')[0];
    const repeat = await send(t.app, owner.headers, 'POST', '/api/account/plan', {
      plan: 'pro',
      token,
      payment: { payment_intent: paymentId },
    });
    expect(repeat.statusCode).toBe(400);
    expect(await subscriptionOf(owner.accountId)).toBeUndefined();
    expect(await invoicesOf(owner.accountId)).toHaveLength(0);
  });

  it.each([
    ['0002', CARDS.declined, 'card_declined', 'Your card was declined.'],
    ['9995', CARDS.insufficient, 'insufficient_funds', 'Your card has insufficient funds.'],
    ['0341', CARDS.laterFails, 'card_declined', 'Your card was declined.'],
  ])('%s is refused on the card field and nothing changes', async (_name, number, code, message) => {
    const { owner, res } = await signUpOn('pro', number);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, inputError: 'token', code });
    expect(await subscriptionOf(owner.accountId)).toBeUndefined();
    expect(await invoicesOf(owner.accountId)).toHaveLength(0);
    const [card] = await t.db.select().from(cards).where(eq(cards.accountId, owner.accountId));
    expect(card).toBeUndefined();
  });

  it('a double submit charges once (concurrent and repeated)', async () => {
    const owner = await newOwner(t.app);
    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    const body = { plan: 'pro', token };
    const all = await Promise.all(
      Array.from({ length: 10 }, () => send(t.app, owner.headers, 'POST', '/api/account/plan', body)),
    );
    // One wins; the others are told a billing change is running (409) or find it done (200).
    expect(all.map((r) => r.statusCode)).toContain(200);
    expect(all.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    const after = await send(t.app, owner.headers, 'POST', '/api/account/plan', body);
    expect(after.statusCode).toBe(200);
    expect((await paymentsOf(t.app, owner.accountId)).filter((p) => p.status === 'succeeded')).toHaveLength(
      1,
    );
    expect(await invoicesOf(owner.accountId)).toHaveLength(1);
  });

  it('a processor failure answers 503 and leaves plan, subscription and card unchanged', async () => {
    const owner = await newOwner(t.app);
    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    const provider = t.app.billing.provider;
    const charge = provider.charge.bind(provider);
    provider.charge = async () => {
      throw new ProcessorError('network down');
    };
    try {
      const res = await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/Nothing was changed/);
    } finally {
      provider.charge = charge;
    }
    expect(await subscriptionOf(owner.accountId)).toBeUndefined();
    const [card] = await t.db.select().from(cards).where(eq(cards.accountId, owner.accountId));
    expect(card).toBeUndefined();
  });
});

describe('upgrade, downgrade and card update', () => {
  it('an upgrade charges the prorated difference at once with the card on file', async () => {
    const { owner } = await signUpOn('team', CARDS.ok);
    const res = await send(t.app, owner.headers, 'POST', '/api/account/upgrade', { plan: 'pro' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan).toBe('pro');
    const list = await invoicesOf(owner.accountId);
    expect(list).toHaveLength(2);
    const upgrade = list.find((i) => i.total !== 1900)!;
    // 2900 - 1900 for (almost) the whole period left.
    expect(upgrade.total).toBeGreaterThan(950);
    expect(upgrade.total).toBeLessThanOrEqual(1000);
  });

  it.each([
    ['4242', CARDS.ok, 200],
    ['0002', CARDS.declined, 400],
    ['9995', CARDS.insufficient, 400],
    ['0341', CARDS.laterFails, 400],
  ])('upgrade from free with %s', async (_name, number, status) => {
    const owner = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, owner.headers, number);
    const res = await send(t.app, owner.headers, 'POST', '/api/account/upgrade', { plan: 'pro', token });
    expect(res.statusCode).toBe(status);
    expect((await entitlementsFor(t.db, t.app.plans, owner.accountId)).planId).toBe(
      status === 200 ? 'pro' : 'free',
    );
  });

  it('upgrade with 3155 completes 3-D Secure', async () => {
    const owner = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, owner.headers, CARDS.threeDs);
    const first = await send(t.app, owner.headers, 'POST', '/api/account/upgrade', { plan: 'pro', token });
    const confirmed = await send(t.app, owner.headers, 'POST', '/api/billing/local/confirm', {
      client_secret: first.json().client_secret,
      outcome: 'complete',
    });
    const payment = { payment_intent: confirmed.json().data.payment_intent.id };
    const res = await send(t.app, owner.headers, 'POST', '/api/account/upgrade', {
      plan: 'pro',
      token,
      payment,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.subscription.status).toBe('active');
  });

  it('picking free cancels at period end, then the account is on free; invoices stay', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const res = await send(t.app, owner.headers, 'PATCH', '/api/account/plan', { plan: 'free' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/will be cancelled on \w+ \d+, \d{4}/);
    expect(res.json().data.subscription).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(res.json().data.plan).toBe('pro');
    await advance(t.app, 31);
    const sub = await subscriptionOf(owner.accountId);
    expect(sub).toMatchObject({ planId: 'free', status: 'active', cancelAtPeriodEnd: false });
    const list = await t.app.inject({ method: 'GET', url: '/api/account/invoice', headers: owner.headers });
    expect(list.json().data.items).toHaveLength(1);
  });

  it.each([
    ['4242', CARDS.ok, 200],
    ['3155', CARDS.threeDs, 200],
    ['0341', CARDS.laterFails, 200],
    ['0002', CARDS.declined, 400],
  ])('card update with %s (active subscription: attach only)', async (_name, number, status) => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const token = await cardToken(t.app, owner.headers, number);
    const res = await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token });
    expect(res.statusCode).toBe(status);
    const card = await t.app.inject({ method: 'GET', url: '/api/account/card', headers: owner.headers });
    expect(card.json().data.last4).toBe(status === 200 ? number.slice(-4) : '4242');
    if (status === 200) expect(await lastMail(t.app, owner.email, 'card_updated')).toBeTruthy();
  });

  it('card_updated is not mailed when the preference is off', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    await t.db
      .insert(notificationPrefs)
      .values({ userId: owner.userId, name: 'card_updated', active: false });
    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    expect((await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    expect(await lastMail(t.app, owner.email, 'card_updated')).toBeUndefined();
  });
});

describe('the activity log of plan and card changes', () => {
  async function logOf(owner: { headers: Record<string, string> }) {
    const res = await t.app.inject({ method: 'GET', url: '/api/account/activity', headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    type TEntry = { type: string; actor: { id: string } | null; data: object; created_at: string };
    // Oldest first; entries written in one transaction share a time, so they are ordered by type.
    return (res.json().data.items as TEntry[])
      .filter((entry) => entry.type === 'plan.changed' || entry.type === 'card.changed')
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.type.localeCompare(b.type))
      .map(({ type, actor, data }) => ({ type, actor: actor?.id ?? null, data }));
  }

  it('records who changed the plan and the card, once each, with the plan name and the last four', async () => {
    const { owner } = await signUpOn('team', CARDS.ok);
    const by = owner.userId;
    expect(await logOf(owner)).toEqual([
      { type: 'card.changed', actor: by, data: { brand: 'visa', last4: '4242' } },
      { type: 'plan.changed', actor: by, data: { plan: 'Team' } },
    ]);
    expect(
      (await send(t.app, owner.headers, 'POST', '/api/account/upgrade', { plan: 'pro' })).statusCode,
    ).toBe(200);
    const declined = await cardToken(t.app, owner.headers, CARDS.declined);
    expect(
      (await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: declined })).statusCode,
    ).toBe(400);
    const token = await cardToken(t.app, owner.headers, CARDS.laterFails);
    expect((await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    expect(
      (await send(t.app, owner.headers, 'PATCH', '/api/account/plan', { plan: 'free' })).statusCode,
    ).toBe(200);
    expect((await logOf(owner)).slice(2)).toEqual([
      { type: 'plan.changed', actor: by, data: { plan: 'Pro' } },
      { type: 'card.changed', actor: by, data: { brand: 'visa', last4: '0341' } },
      { type: 'plan.changed', actor: by, data: { plan: 'Free' } },
    ]);
  });

  it('records a plan paid after 3-D Secure once, however often the confirmation is repeated', async () => {
    const owner = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, owner.headers, CARDS.threeDs);
    const first = await send(t.app, owner.headers, 'POST', '/api/account/upgrade', { plan: 'pro', token });
    expect(await logOf(owner)).toEqual([]);
    const confirmed = await send(t.app, owner.headers, 'POST', '/api/billing/local/confirm', {
      client_secret: first.json().client_secret,
      outcome: 'complete',
    });
    const payment = { payment_intent: confirmed.json().data.payment_intent.id };
    for (let i = 0; i < 2; i++)
      expect(
        (await send(t.app, owner.headers, 'POST', '/api/account/upgrade', { plan: 'pro', token, payment }))
          .statusCode,
      ).toBe(200);
    expect(await logOf(owner)).toEqual([
      { type: 'card.changed', actor: owner.userId, data: { brand: 'visa', last4: '3155' } },
      { type: 'plan.changed', actor: owner.userId, data: { plan: 'Pro' } },
    ]);
  });
});

describe('renewals, dunning and entitlements', () => {
  it('renews at period end with a paid invoice and a mail', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const before = await subscriptionOf(owner.accountId);
    // The route `npm run cli -- billing-clock advance 31d` calls when a server runs.
    const clock = await t.app.inject({
      method: 'POST',
      url: '/api/dev/billing-clock',
      payload: { advance_ms: 31 * 86_400_000 },
    });
    expect(clock.statusCode).toBe(200);
    expect(clock.json().data.renewed).toBeGreaterThanOrEqual(1);
    const after = await subscriptionOf(owner.accountId);
    expect(after?.currentPeriodStart.getTime()).toBe(before!.currentPeriodEnd.getTime());
    const list = await invoicesOf(owner.accountId);
    expect(list.map((i) => i.status)).toEqual(['paid', 'paid']);
    expect(await lastMail(t.app, owner.email, 'billing_status')).toBeTruthy();
  });

  it('a failed renewal falls back to free limits, and a card update pays and restores them', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const limits = gatewayStateOf(t.app).directory.planLimits;
    expect((await limits.get(owner.accountId))?.planId).toBe('pro');
    const failing = await cardToken(t.app, owner.headers, CARDS.laterFails);
    await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: failing });
    await advance(t.app, 31);
    expect((await subscriptionOf(owner.accountId))?.status).toBe('requires_payment_method');
    expect((await limits.get(owner.accountId))?.planId).toBe('free');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth', headers: owner.headers });
    if (me.statusCode === 200) expect(me.json().data.subscription.status).toBe('requires_payment_method');

    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    const res = await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await subscriptionOf(owner.accountId))?.status).toBe('active');
    expect((await invoicesOf(owner.accountId)).every((i) => i.status === 'paid')).toBe(true);
    expect((await limits.get(owner.accountId))?.planId).toBe('pro');
  });

  it('fails three times (renewal, +1 day, +3 days) and cancels', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const failing = await cardToken(t.app, owner.headers, CARDS.laterFails);
    await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: failing });
    await advance(t.app, 31);
    expect(await subscriptionOf(owner.accountId)).toMatchObject({
      status: 'requires_payment_method',
      failedAttempts: 1,
    });
    await advance(t.app, 1);
    expect(await subscriptionOf(owner.accountId)).toMatchObject({
      status: 'requires_payment_method',
      failedAttempts: 2,
    });
    await advance(t.app, 2);
    expect((await subscriptionOf(owner.accountId))?.status).toBe('canceled');
    const open = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.accountId, owner.accountId), eq(invoices.status, 'uncollectible')));
    expect(open).toHaveLength(1);
    expect((await entitlementsFor(t.db, t.app.plans, owner.accountId)).planId).toBe('free');
    // Three charge attempts for the renewal, one for the sign-up.
    expect(await paymentsOf(t.app, owner.accountId)).toHaveLength(4);
  });

  it('seats follow members through invites, acceptances and removals, and the renewal charges them', async () => {
    const { owner } = await signUpOn('team', CARDS.ok);
    expect(await subscriptionOf(owner.accountId)).toMatchObject({ seats: 1, prorationBalance: 0 });
    const join = async (email: string) => {
      const invited = await send(t.app, owner.headers, 'POST', '/api/invite', { email, permission: 'user' });
      expect(invited.statusCode, invited.body).toBe(200);
      // An invite is not a member yet: no seat until it is accepted.
      const before = (await subscriptionOf(owner.accountId))!.seats;
      const accepted = await t.app.inject({
        method: 'POST',
        url: '/api/user',
        payload: { name: 'Member', email, password: PASSWORD, invite_id: await inviteToken(t.app, email) },
      });
      expect(accepted.statusCode, accepted.body).toBe(201);
      return { before, id: accepted.json().data.id as string };
    };
    const first = await join(`seat-a-${owner.accountId}@example.com`);
    expect(first.before).toBe(1);
    const afterFirst = await subscriptionOf(owner.accountId);
    expect(afterFirst?.seats).toBe(2);
    // One more seat for (almost) the whole period: about one seat price, owed on the next invoice.
    expect(afterFirst?.prorationBalance).toBeGreaterThan(1800);
    expect(afterFirst?.prorationBalance).toBeLessThanOrEqual(1900);
    const second = await join(`seat-b-${owner.accountId}@example.com`);
    expect(second.before).toBe(2);
    expect((await subscriptionOf(owner.accountId))?.seats).toBe(3);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/${second.id}`,
      headers: owner.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const sub = await subscriptionOf(owner.accountId);
    expect(sub?.seats).toBe(2);
    // The removed seat is credited back for the rest of the period.
    expect(sub?.prorationBalance).toBeGreaterThan(1800);
    expect(sub?.prorationBalance).toBeLessThanOrEqual(1900);
    const wire = await t.app.inject({
      method: 'GET',
      url: '/api/account/subscription',
      headers: owner.headers,
    });
    expect(wire.json().data).toMatchObject({ seats: 2, seat_price: 1900 });

    // The renewal invoices the seats as they are now plus the prorations, and that is what the
    // card processor is asked to charge.
    await advance(t.app, 31);
    const renewal = (await invoicesOf(owner.accountId)).find((i) => i.lines.length === 2)!;
    expect(renewal.lines[0]).toMatchObject({ quantity: 2, unitAmount: 1900, amount: 3800 });
    expect(renewal.lines[1]).toMatchObject({ amount: sub!.prorationBalance });
    expect(renewal).toMatchObject({ status: 'paid', total: 3800 + sub!.prorationBalance });
    const charged = (await paymentsOf(t.app, owner.accountId)).filter(
      (p) => p.metadata.invoice_id === renewal.id,
    );
    expect(charged.map((p) => [p.status, p.amount])).toEqual([['succeeded', renewal.total]]);
    expect(await subscriptionOf(owner.accountId)).toMatchObject({ seats: 2, prorationBalance: 0 });
  });

  it('a renewal the bank wants authenticated waits in requires_action until the card holder authorizes it', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    // 3155 attached without a payment: not set up for payments without the card holder.
    const threeDs = await cardToken(t.app, owner.headers, CARDS.threeDs);
    expect(
      (await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: threeDs })).statusCode,
    ).toBe(200);
    await advance(t.app, 31);
    expect(await subscriptionOf(owner.accountId)).toMatchObject({
      status: 'requires_action',
      failedAttempts: 1,
    });
    const [held] = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.accountId, owner.accountId), eq(invoices.status, 'open')));
    const offSession = (await paymentsOf(t.app, owner.accountId)).find(
      (p) => p.metadata.invoice_id === held!.id,
    );
    expect(offSession).toMatchObject({ errorCode: 'payment_intent_authentication_failure' });
    expect(held!.providerRef).toBe(offSession!.id);
    expect((await entitlementsFor(t.db, t.app.plans, owner.accountId)).planId).toBe('free');
    expect((await lastMail(t.app, owner.email, 'billing_status'))?.subject).toMatch(/authorize the payment/);
    const wire = await t.app.inject({
      method: 'GET',
      url: '/api/account/subscription',
      headers: owner.headers,
    });
    expect(wire.json().data.status).toBe('requires_action');

    const authorize = (payload: Record<string, unknown>) =>
      send(t.app, owner.headers, 'POST', '/api/account/subscription/authorize', payload);
    // The console asks: a payment of the invoice with the card holder present, to authenticate.
    const first = await authorize({});
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      requires_payment_action: true,
      client_secret: expect.stringMatching(/^pi_.+_secret_/),
    });
    // A failed authentication changes nothing; asking again offers a new payment.
    const failed = await send(t.app, owner.headers, 'POST', '/api/billing/local/confirm', {
      client_secret: first.json().client_secret,
      outcome: 'fail',
    });
    expect(failed.statusCode).toBe(400);
    expect((await subscriptionOf(owner.accountId))?.status).toBe('requires_action');
    const second = await authorize({});
    expect(second.json().client_secret).not.toBe(first.json().client_secret);
    const confirmed = await send(t.app, owner.headers, 'POST', '/api/billing/local/confirm', {
      client_secret: second.json().client_secret,
      outcome: 'complete',
    });
    const payment = { payment_intent: confirmed.json().data.payment_intent.id as string };
    const done = await authorize({ payment });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      data: { status: 'active', plan: 'pro' },
      message: 'Your payment is authorized and your subscription is active again.',
    });
    expect(await subscriptionOf(owner.accountId)).toMatchObject({ status: 'active', failedAttempts: 0 });
    const [paid] = await t.db.select().from(invoices).where(eq(invoices.id, held!.id));
    expect(paid).toMatchObject({ status: 'paid', providerRef: payment.payment_intent });
    expect((await entitlementsFor(t.db, t.app.plans, owner.accountId)).planId).toBe('pro');

    // Repeated, the payment is applied once; with nothing waiting, there is nothing to authorize.
    expect((await authorize({ payment })).statusCode).toBe(200);
    const succeeded = (await paymentsOf(t.app, owner.accountId)).filter(
      (p) => p.metadata.invoice_id === held!.id && p.status === 'succeeded',
    );
    expect(succeeded).toHaveLength(1);
    expect((await authorize({})).statusCode).toBe(409);
  });

  it('a renewal never authorized is retried after 1 and 3 days, then cancelled', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const threeDs = await cardToken(t.app, owner.headers, CARDS.threeDs);
    await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: threeDs });
    await advance(t.app, 31);
    await advance(t.app, 1);
    expect(await subscriptionOf(owner.accountId)).toMatchObject({
      status: 'requires_action',
      failedAttempts: 2,
    });
    await advance(t.app, 2);
    expect((await subscriptionOf(owner.accountId))?.status).toBe('canceled');
    const list = await invoicesOf(owner.accountId);
    expect(list.filter((i) => i.status === 'uncollectible')).toHaveLength(1);
    // Each attempt's payment held for authentication was cancelled at the processor when the next
    // attempt replaced it or the subscription ended: none can be completed (and charged) later.
    const held = (await paymentsOf(t.app, owner.accountId)).filter((p) => p.metadata.action === 'invoice');
    expect(held.map((p) => p.status)).toEqual(['canceled', 'canceled', 'canceled']);
    // Cancelling again answers how it ended, and a completed payment is not cancelled.
    expect((await t.app.billing.provider.cancelPayment(held[0]!.id))?.status).toBe('canceled');
  });

  it('closing an account cancels the renewal payment it held for authentication', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const threeDs = await cardToken(t.app, owner.headers, CARDS.threeDs);
    await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: threeDs });
    await advance(t.app, 31);
    expect((await subscriptionOf(owner.accountId))?.status).toBe('requires_action');
    const before = (await paymentsOf(t.app, owner.accountId)).filter((p) => p.metadata.action === 'invoice');
    expect(before.map((p) => p.status)).toEqual(['requires_payment_method']);
    const closed = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: owner.headers,
      payload: { password: PASSWORD },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await t.app.billing.provider.retrievePayment(before[0]!.id))?.status).toBe('canceled');
  });
});

describe('invoices and closing', () => {
  it('serves the invoice PDF by its signed link, and 404 for another account', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const list = await t.app.inject({ method: 'GET', url: '/api/account/invoice', headers: owner.headers });
    const [invoice] = list.json().data.items;
    expect(invoice).toMatchObject({ status: 'paid', total: 2900, currency_symbol: '$' });
    const pdf = await t.app.inject({ method: 'GET', url: invoice.invoice_pdf });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('$29.00');
    expect(text).toContain('Tax (0%)');
    expect(text).toContain(invoice.number);

    const other = await newOwner(t.app, 'free');
    const stolen = await t.app.inject({
      method: 'GET',
      url: `/api/account/invoice/${invoice.id}/pdf`,
      headers: other.headers,
    });
    expect(stolen.statusCode).toBe(404);
    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/account/invoice/${invoice.id}/pdf?token=1.abc`,
    });
    expect(forged.statusCode).toBe(401);
  });

  it('closing the account cancels billing and keeps its invoices', async () => {
    const { owner } = await signUpOn('pro', CARDS.ok);
    const [invoice] = await invoicesOf(owner.accountId);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: owner.headers,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [kept] = await t.db.select().from(invoices).where(eq(invoices.id, invoice!.id));
    expect(kept).toMatchObject({ accountId: null, total: 2900, status: 'paid' });
    expect(await subscriptionOf(owner.accountId)).toBeUndefined();
    // Nothing is left for the renewal job.
    expect(await advance(t.app, 31)).toBeGreaterThanOrEqual(0);
  });
});
