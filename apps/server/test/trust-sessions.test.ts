import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, seedUser, signIn } from './identity-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const DAY = 24 * 60 * 60_000;

async function sessionOf(email: string, userAgent: string) {
  const data = await signIn(t.app, email, undefined, { 'user-agent': userAgent });
  return bearer(data.token);
}

describe('sessions', () => {
  it('lists the live sessions with this one marked; signs out another, or all the others', async () => {
    await seedUser(t.app, { email: 'list@x.io' });
    const laptop = await sessionOf('list@x.io', 'Laptop browser');
    const phone = await sessionOf('list@x.io', 'Phone browser');
    const tablet = await sessionOf('list@x.io', 'Tablet browser');
    const res = await t.app.inject({ url: '/api/user/sessions', headers: laptop });
    expect(res.statusCode).toBe(200);
    const list = res.json().data as { id: string; device: string; current: boolean; ip: string }[];
    expect(list.map((s) => s.device).sort()).toEqual(['Laptop browser', 'Phone browser', 'Tablet browser']);
    expect(list.filter((s) => s.current).map((s) => s.device)).toEqual(['Laptop browser']);
    expect(list[0]!.ip).toBe('127.0.0.1');

    const phoneId = list.find((s) => s.device === 'Phone browser')!.id;
    const out = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/sessions/${phoneId}`,
      headers: laptop,
    });
    expect(out.statusCode).toBe(200);
    expect(out.json().data).toEqual({ signed_out: 1, signout: false });
    expect((await t.app.inject({ url: '/api/user', headers: phone })).statusCode).toBe(401);

    const others = await t.app.inject({ method: 'DELETE', url: '/api/user/sessions', headers: laptop });
    expect(others.json().data).toEqual({ signed_out: 1, signout: false });
    expect((await t.app.inject({ url: '/api/user', headers: tablet })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: laptop })).statusCode).toBe(200);
  });

  it("another user's session id is a 404 and stays signed in", async () => {
    await seedUser(t.app, { email: 'mine@x.io' });
    await seedUser(t.app, { email: 'theirs@x.io' });
    const mine = await sessionOf('mine@x.io', 'Mine');
    const theirs = await sessionOf('theirs@x.io', 'Theirs');
    const theirId = (await t.app.inject({ url: '/api/user/sessions', headers: theirs })).json().data[0].id;
    const res = await t.app.inject({ method: 'DELETE', url: `/api/user/sessions/${theirId}`, headers: mine });
    expect(res.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/user', headers: theirs })).statusCode).toBe(200);
  });

  it('expires after 7 days idle and 30 days absolute; activity is stored in batches', async () => {
    const { userId } = await seedUser(t.app, { email: 'old@x.io' });
    const idle = await sessionOf('old@x.io', 'Idle');
    const aged = await sessionOf('old@x.io', 'Aged');
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, userId));
    const idleId = rows.find((r) => r.userAgent === 'Idle')!.id;
    const agedId = rows.find((r) => r.userAgent === 'Aged')!.id;

    // A request marks the session in memory; the row is written on the next flush, not per request.
    const before = new Date(Date.now() - 2 * DAY);
    await t.db.update(sessions).set({ lastSeenAt: before }).where(eq(sessions.id, agedId));
    t.app.sessionCache.clear();
    expect((await t.app.inject({ url: '/api/user', headers: aged })).statusCode).toBe(200);
    const [unwritten] = await t.db.select().from(sessions).where(eq(sessions.id, agedId));
    expect(unwritten!.lastSeenAt.getTime()).toBe(before.getTime());
    await t.app.sessionActivity.flush();
    const [written] = await t.db.select().from(sessions).where(eq(sessions.id, agedId));
    expect(written!.lastSeenAt.getTime()).toBeGreaterThan(before.getTime());

    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 8 * DAY) })
      .where(eq(sessions.id, idleId));
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(sessions.id, agedId));
    t.app.sessionCache.clear();
    expect((await t.app.inject({ url: '/api/user', headers: idle })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: aged })).statusCode).toBe(401);
  });
});
