import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards, subscriptions } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { CARDS, cardToken, newOwner, paymentsOf, send } from './billing-helpers';

/*
 * Issue 21, item 5: a card token (local processor) is bound to the account whose session made it.
 * Another account's token is answered like an unknown one: 400 on `token`, nothing charged, no card.
 */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("another account's card token", () => {
  it('does not pay for a plan, a card update or the sign-up plan step; the maker can still use it', async () => {
    const maker = await newOwner(t.app, 'free');
    const victim = await newOwner(t.app, 'free');
    const fresh = await newOwner(t.app);
    const token = await cardToken(t.app, maker.headers, CARDS.ok);

    for (const [who, method, url, body] of [
      [victim, 'POST', '/api/account/upgrade', { plan: 'pro', token }],
      [victim, 'PATCH', '/api/account/card', { token }],
      [fresh, 'POST', '/api/account/plan', { plan: 'pro', token }],
    ] as const) {
      const res = await send(t.app, who.headers, method, url, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ inputError: 'token' });
      expect(await paymentsOf(t.app, who.accountId)).toEqual([]);
      expect(await t.db.select().from(cards).where(eq(cards.accountId, who.accountId))).toEqual([]);
    }
    const [victimSub] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.accountId, victim.accountId));
    expect(victimSub?.planId ?? 'free').toBe('free');

    // The account that made it pays with it.
    const own = await send(t.app, maker.headers, 'POST', '/api/account/upgrade', { plan: 'pro', token });
    expect(own.statusCode, own.body).toBe(200);
    // And once attached to the maker, it is still nobody else's.
    const again = await send(t.app, victim.headers, 'POST', '/api/account/upgrade', { plan: 'pro', token });
    expect(again.statusCode, again.body).toBe(400);
  });
});
