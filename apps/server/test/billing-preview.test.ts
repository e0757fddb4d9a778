import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, subscriptions } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, seedUser, signIn } from './identity-helpers';
import { advance, CARDS, cardToken, newOwner, send } from './billing-helpers';

/**
 * `GET /api/account/plan/preview`: what a plan change would charge, before the button. Each case
 * previews, then makes the change, and holds the preview to what was charged.
 */
let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function preview(headers: Record<string, string>, plan: string) {
  return t.app.inject({ method: 'GET', url: `/api/account/plan/preview?plan=${plan}`, headers });
}

async function invoiceTotals(accountId: string) {
  const rows = await t.db.select().from(invoices).where(eq(invoices.accountId, accountId));
  return rows.map((row) => row.total).sort((a, b) => a - b);
}

let seq = 0;
async function addMembers(accountId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await seedUser(t.app, { email: `seat-${process.pid}-${seq++}@example.com`, accountId, role: 'user' });
  }
}

describe('plan change preview', () => {
  it('from free to a per-seat plan: seats × price due now, and the change charges exactly that', async () => {
    const owner = await newOwner(t.app, 'free');
    await addMembers(owner.accountId, 2);
    const res = await preview(owner.headers, 'team');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      plan: 'team',
      plan_name: 'Team',
      mode: 'new',
      seats: 3,
      seat_price: 1900,
      proration: 0,
      amount_due: 5700,
      credit: 0,
      renewal_amount: 5700,
      currency: 'usd',
      currency_symbol: '$',
      interval: 'month',
      period_end: null,
    });
    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    const change = await send(t.app, owner.headers, 'PATCH', '/api/account/plan', { plan: 'team', token });
    expect(change.statusCode, change.body).toBe(200);
    expect(await invoiceTotals(owner.accountId)).toEqual([5700]);
  });

  it('an upgrade between paid plans: the prorated difference due now is what the upgrade charges', async () => {
    const owner = await newOwner(t.app, null);
    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    expect(
      (await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'team', token })).statusCode,
    ).toBe(200);
    // Ten days into the period: a third of it is gone.
    await advance(t.app, 10);
    const res = await preview(owner.headers, 'pro');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, owner.accountId));
    expect(data).toMatchObject({
      mode: 'prorate',
      seats: 1,
      seat_price: 2900,
      credit: 0,
      renewal_amount: 2900,
      period_end: sub!.currentPeriodEnd.toISOString(),
    });
    // 2900 for one seat against 1900 for the one seat paid, for the two thirds of the period left.
    expect(data.proration).toBeGreaterThan(600);
    expect(data.proration).toBeLessThan(700);
    expect(data.amount_due).toBe(data.proration);
    const upgrade = await send(t.app, owner.headers, 'PATCH', '/api/account/plan', { plan: 'pro' });
    expect(upgrade.statusCode, upgrade.body).toBe(200);
    expect(await invoiceTotals(owner.accountId)).toEqual([data.amount_due, 1900]);
  });

  it('a downgrade is a credit on the next invoice, nothing due now; the plan paid for and free charge nothing', async () => {
    const owner = await newOwner(t.app, null);
    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token });
    const down = (await preview(owner.headers, 'team')).json().data;
    expect(down).toMatchObject({ mode: 'prorate', seats: 1, amount_due: 0 });
    expect(down.proration).toBeLessThan(0);
    expect(down.credit).toBe(-down.proration);

    expect((await preview(owner.headers, 'pro')).json().data).toMatchObject({ mode: 'keep', amount_due: 0 });
    expect((await preview(owner.headers, 'free')).json().data).toMatchObject({
      mode: 'free_at_period_end',
      amount_due: 0,
      seats: 1,
    });
    // Nothing was changed by previewing.
    expect(await invoiceTotals(owner.accountId)).toEqual([2900]);
  });

  it('refuses an unknown plan on `plan`, a missing one, and anyone but the owner', async () => {
    const owner = await newOwner(t.app, 'free');
    const unknown = await preview(owner.headers, 'gold');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().inputError).toBe('plan');
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/account/plan/preview',
      headers: owner.headers,
    });
    expect(missing.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/account/plan/preview?plan=pro' });
    expect(anonymous.statusCode).toBe(401);
    const email = `member-${process.pid}-${seq++}@example.com`;
    await seedUser(t.app, { email, accountId: owner.accountId, role: 'user' });
    const session = await signIn(t.app, email);
    const refused = await preview(bearer(session.token), 'pro');
    expect(refused.statusCode).toBe(403);
  });
});

describe('the subscription says when an unpaid renewal is tried again', () => {
  it('next_attempt_at is the dunning retry while past due, null once paid', async () => {
    const owner = await newOwner(t.app, null);
    const ok = await cardToken(t.app, owner.headers, CARDS.ok);
    await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token: ok });
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/account/subscription', headers: owner.headers })).json()
        .data;
    expect((await read()).next_attempt_at).toBeNull();
    const failing = await cardToken(t.app, owner.headers, CARDS.laterFails);
    await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: failing });
    await advance(t.app, 31);
    const [invoice] = (
      await t.db.select().from(invoices).where(eq(invoices.accountId, owner.accountId))
    ).filter((row) => row.status === 'open');
    const pastDue = await read();
    expect(pastDue.status).toBe('requires_payment_method');
    expect(pastDue.next_attempt_at).toBe(new Date(invoice!.date.getTime() + 86_400_000).toISOString());
    const good = await cardToken(t.app, owner.headers, CARDS.ok);
    expect((await send(t.app, owner.headers, 'PATCH', '/api/account/card', { token: good })).statusCode).toBe(
      200,
    );
    expect(await read()).toMatchObject({ status: 'active', next_attempt_at: null });
  });
});
