import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZAuthStatus } from '@air/shared/schemas/auth';
import { ZErrorBody } from '@air/shared/schemas/common';
import { accountUsers, sessionEndings, sessions, users } from '../src/db/schema';
import { recordSessionEndings, sessionEnding } from '../src/modules/identity/service';
import type { TTestApp } from './helpers';
import { PASSWORD, seedUser, signIn } from './identity-helpers';
import { teamsApp, type TCaller } from './teams-helpers';

/**
 * Issue 26 item 4: the landing of a member removed from an account while working in it, or whose
 * account its owner closes. With another account they are moved there and told once why; with
 * none they are signed out and the next request says why.
 */
let t: TTestApp;
let call: TCaller;
beforeEach(async () => ({ t, call } = await teamsApp()));
afterEach(async () => t.close());

/** Acme (owner boss@) with a key, and Beta (owner beta@) with a key of its own. */
async function twoAccounts() {
  const acme = await seedUser(t.app, { email: 'boss@x.io', accountName: 'Acme' });
  const beta = await seedUser(t.app, { email: 'beta@x.io', accountName: 'Beta' });
  const acmeOwner = (await signIn(t.app, 'boss@x.io')).token;
  const betaOwner = (await signIn(t.app, 'beta@x.io')).token;
  const acmeKey = await call('POST', '/api/key', acmeOwner, { name: 'Acme key', scope: ['usage.read'] });
  const betaKey = await call('POST', '/api/key', betaOwner, { name: 'Beta key', scope: ['usage.read'] });
  expect([acmeKey.statusCode, betaKey.statusCode]).toEqual([201, 201]);
  return { acme, beta, acmeOwner, betaOwner };
}

/** A developer of Beta (their default account) who is also a developer of Acme, signed in to Acme twice. */
async function memberOfBoth(acmeId: string, betaId: string) {
  const member = await seedUser(t.app, { email: 'dev@x.io', role: 'developer', accountId: betaId });
  await t.db
    .insert(accountUsers)
    .values({ accountId: acmeId, userId: member.userId, permission: 'developer' });
  const inAcme = async () => {
    const { token } = await signIn(t.app, 'dev@x.io');
    const switched = await call('POST', '/api/auth/switch', token, { account: acmeId });
    expect(switched.statusCode).toBe(200);
    return switched.json().data.token as string;
  };
  return { ...member, laptop: await inAcme(), phone: await inAcme() };
}

function keyNames(res: { json(): { data: { name: string }[] } }) {
  return res
    .json()
    .data.map((key) => key.name)
    .sort();
}

describe('a removed member who belongs to another account', () => {
  it('is moved there at once in every session, told once why, and sees nothing more of the old account', async () => {
    const { acme, beta, acmeOwner } = await twoAccounts();
    const dev = await memberOfBoth(acme.accountId, beta.accountId);
    expect(keyNames(await call('GET', '/api/key', dev.laptop))).toEqual(['Acme key']);
    // The session is cached with its account before the removal.
    expect((await call('GET', '/api/user', dev.laptop)).json().data.account_id).toBe(acme.accountId);

    const removal = await call('DELETE', `/api/user/${dev.userId}`, acmeOwner);
    expect(removal.statusCode).toBe(200);
    expect(removal.json().data).toEqual({ signout: false });

    // The very next request works in Beta: Acme's data is no longer answered to that session.
    const keys = await call('GET', '/api/key', dev.laptop);
    expect(keys.statusCode).toBe(200);
    expect(keyNames(keys)).toEqual(['Beta key']);
    const user = (await call('GET', '/api/user', dev.laptop)).json().data;
    expect(user).toMatchObject({ account_id: beta.accountId, account_name: 'Beta', role: 'developer' });
    expect(user.accounts.map((a: { name: string }) => a.name)).toEqual(['Beta']);
    expect((await call('GET', '/api/account/activity', dev.laptop)).statusCode).toBe(403);

    // The console's check answers the notice once per session, then no more.
    const check = await call('GET', '/api/auth', dev.laptop);
    expect(check.statusCode).toBe(200);
    const status = ZAuthStatus.parse(check.json().data);
    expect(status).toMatchObject({
      authenticated: true,
      account_id: beta.accountId,
      account_name: 'Beta',
      moved: { reason: 'removed', account_name: 'Acme' },
    });
    const again = (await call('GET', '/api/auth', dev.laptop)).json().data;
    expect(again).toMatchObject({ authenticated: true, account_id: beta.accountId });
    expect(again).not.toHaveProperty('moved');
    // The other device has its own notice.
    expect((await call('GET', '/api/auth', dev.phone)).json().data.moved).toEqual({
      reason: 'removed',
      account_name: 'Acme',
    });

    // Switching back to Acme is refused; the sessions list shows the moved sessions in Beta.
    expect((await call('POST', '/api/auth/switch', dev.laptop, { account: acme.accountId })).statusCode).toBe(
      404,
    );
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, dev.userId));
    const live = rows.filter((row) => row.revokedAt === null);
    expect(live.length).toBeGreaterThanOrEqual(2);
    expect(live.every((row) => row.accountId === beta.accountId && row.notice === null)).toBe(true);
    const [row] = await t.db.select().from(users).where(eq(users.id, dev.userId));
    expect(row!.defaultAccountId).toBe(beta.accountId);

    // Signing out of the moved session works as for any session.
    expect((await call('DELETE', '/api/auth', dev.laptop)).statusCode).toBe(200);
    expect((await call('GET', '/api/user', dev.laptop)).statusCode).toBe(401);
  });

  it('moves to the default account when it is another one, and a leaver is told they left', async () => {
    const { acme, beta } = await twoAccounts();
    const third = await seedUser(t.app, { email: 'gamma@x.io', accountName: 'Gamma' });
    const dev = await memberOfBoth(acme.accountId, beta.accountId);
    // Gamma, joined last, is the default account.
    await t.db
      .insert(accountUsers)
      .values({ accountId: third.accountId, userId: dev.userId, permission: 'user' });
    await t.db.update(users).set({ defaultAccountId: third.accountId }).where(eq(users.id, dev.userId));

    const leave = await call('DELETE', `/api/user/${dev.userId}`, dev.laptop);
    expect(leave.statusCode).toBe(200);
    expect(leave.json().data).toEqual({ signout: true });
    const status = (await call('GET', '/api/auth', dev.phone)).json().data;
    expect(status).toMatchObject({
      authenticated: true,
      account_id: third.accountId,
      account_name: 'Gamma',
      role: 'user',
      moved: { reason: 'left', account_name: 'Acme' },
    });
  });

  it("a master's impersonation session in the old account ends rather than moving", async () => {
    const { acme, beta, acmeOwner } = await twoAccounts();
    const dev = await memberOfBoth(acme.accountId, beta.accountId);
    const [master] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'beta@x.io'));
    // Mark one of the member's Acme sessions as an impersonation.
    const acmeRows = await t.db.select().from(sessions).where(eq(sessions.accountId, acme.accountId));
    const impersonated = acmeRows.find((r) => r.userId === dev.userId && r.revokedAt === null)!;
    await t.db
      .update(sessions)
      .set({ impersonatorUserId: master!.id })
      .where(eq(sessions.id, impersonated.id));

    expect((await call('DELETE', `/api/user/${dev.userId}`, acmeOwner)).statusCode).toBe(200);
    const [after] = await t.db.select().from(sessions).where(eq(sessions.id, impersonated.id));
    expect(after!.accountId).toBe(acme.accountId);
    expect(after!.revokedAt).not.toBeNull();
  });
});

describe('a removed member without another account', () => {
  it('is signed out at once, and the next request and the console check say why', async () => {
    const { acme, acmeOwner } = await twoAccounts();
    await seedUser(t.app, { email: 'solo@x.io', role: 'developer', accountId: acme.accountId });
    const { token } = await signIn(t.app, 'solo@x.io');
    expect(keyNames(await call('GET', '/api/key', token))).toEqual(['Acme key']);

    expect((await call('DELETE', `/api/user/${(await userId('solo@x.io'))!}`, acmeOwner)).statusCode).toBe(
      200,
    );
    expect(await userId('solo@x.io')).toBeUndefined();

    const keys = await call('GET', '/api/key', token);
    expect(keys.statusCode).toBe(401);
    const body = ZErrorBody.parse(keys.json());
    expect(body).toEqual({
      code: 'unauthenticated',
      message: 'You were removed from Acme and have no other account. Ask an admin for a new invite.',
      ended: { reason: 'removed', account_name: 'Acme' },
    });
    const spanish = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'es' },
    });
    expect(spanish.statusCode).toBe(401);
    expect(spanish.json().message).toBe(
      'Te quitaron de Acme y no perteneces a ninguna otra cuenta. Pide a un administrador una nueva invitación.',
    );

    const check = await call('GET', '/api/auth', token);
    expect(check.statusCode).toBe(200);
    expect(ZAuthStatus.parse(check.json().data)).toEqual({
      authenticated: false,
      ended: { reason: 'removed', account_name: 'Acme' },
    });
    // Any other stale or foreign token reads a plain "not authenticated", a bad one a plain 401.
    expect((await call('GET', '/api/auth', 'not-a-token')).json().data).toEqual({ authenticated: false });
    const plain = await call('GET', '/api/key', 'not-a-token');
    expect(plain.statusCode).toBe(401);
    expect(plain.json()).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue' });
    expect(keys.body).not.toContain('Acme key');
  });

  it('a plain sign-out says nothing more than before', async () => {
    await twoAccounts();
    const { token } = await signIn(t.app, 'boss@x.io');
    expect((await call('DELETE', '/api/auth', token)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth', token)).json().data).toEqual({ authenticated: false });
    expect((await call('GET', '/api/key', token)).json()).toEqual({
      code: 'unauthenticated',
      message: 'Please sign in to continue',
    });
  });

  it('why a session ended is kept no longer than a token lives', async () => {
    const old = '00000000-0000-4000-8000-000000000001';
    const fresh = '00000000-0000-4000-8000-000000000002';
    await t.db.insert(sessionEndings).values({
      sessionId: old,
      reason: 'removed',
      accountName: 'Old',
      createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000),
    });
    await recordSessionEndings(t.db, [fresh], { reason: 'left', accountName: 'New' });
    expect(await sessionEnding(t.db, old)).toBeUndefined();
    expect(await sessionEnding(t.db, fresh)).toEqual({ reason: 'left', accountName: 'New' });
  });
});

async function userId(email: string): Promise<string | undefined> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}

describe('members of an account its owner closes', () => {
  /**
   * Acme, closed by its owner boss@ (signed in on two devices), with dev@ (also in Beta, their
   * default) signed in to Acme twice and solo@ (in Acme only) signed in.
   */
  async function closingAcme() {
    const accounts = await twoAccounts();
    const dev = await memberOfBoth(accounts.acme.accountId, accounts.beta.accountId);
    await seedUser(t.app, { email: 'solo@x.io', role: 'developer', accountId: accounts.acme.accountId });
    const solo = (await signIn(t.app, 'solo@x.io')).token;
    const ownerPhone = (await signIn(t.app, 'boss@x.io')).token;
    // Every session is cached with its account before the close.
    for (const token of [dev.laptop, solo, ownerPhone]) {
      expect(keyNames(await call('GET', '/api/key', token))).toEqual(['Acme key']);
    }
    const close = () => call('DELETE', '/api/account', accounts.acmeOwner, { password: PASSWORD });
    return { ...accounts, dev, solo, ownerPhone, close };
  }

  it('a member of another account is moved there at once and told once that the owner closed it', async () => {
    const { acme, beta, dev, close } = await closingAcme();
    const closed = await close();
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data).toEqual({ signout: true });

    const keys = await call('GET', '/api/key', dev.laptop);
    expect(keys.statusCode).toBe(200);
    expect(keyNames(keys)).toEqual(['Beta key']);
    const status = ZAuthStatus.parse((await call('GET', '/api/auth', dev.laptop)).json().data);
    expect(status).toMatchObject({
      authenticated: true,
      account_id: beta.accountId,
      account_name: 'Beta',
      role: 'developer',
      moved: { reason: 'closed', account_name: 'Acme' },
    });
    expect((await call('GET', '/api/auth', dev.laptop)).json().data).not.toHaveProperty('moved');
    expect((await call('GET', '/api/auth', dev.phone)).json().data.moved).toEqual({
      reason: 'closed',
      account_name: 'Acme',
    });
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, dev.userId));
    expect(
      rows.filter((row) => row.revokedAt === null).every((row) => row.accountId === beta.accountId),
    ).toBe(true);
    const [user] = await t.db.select().from(users).where(eq(users.id, dev.userId));
    expect(user!.defaultAccountId).toBe(beta.accountId);
    expect(await t.db.select().from(accountUsers).where(eq(accountUsers.accountId, acme.accountId))).toEqual(
      [],
    );
  });

  it('a member of no other account is signed out, and the next request and the console check say why', async () => {
    const { solo, ownerPhone, acmeOwner, close } = await closingAcme();
    expect((await close()).statusCode).toBe(200);
    expect(await userId('solo@x.io')).toBeUndefined();

    const keys = await call('GET', '/api/key', solo);
    expect(keys.statusCode).toBe(401);
    expect(ZErrorBody.parse(keys.json())).toEqual({
      code: 'unauthenticated',
      message: 'The owner of Acme closed it, and you have no other account.',
      ended: { reason: 'closed', account_name: 'Acme' },
    });
    const spanish = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${solo}`, 'accept-language': 'es' },
    });
    expect(spanish.json().message).toBe(
      'El propietario de Acme la cerró y no perteneces a ninguna otra cuenta.',
    );
    expect(ZAuthStatus.parse((await call('GET', '/api/auth', solo)).json().data)).toEqual({
      authenticated: false,
      ended: { reason: 'closed', account_name: 'Acme' },
    });
    // The owner's other device is told too; the session that closed the account simply ends.
    expect((await call('GET', '/api/auth', ownerPhone)).json().data).toEqual({
      authenticated: false,
      ended: { reason: 'closed', account_name: 'Acme' },
    });
    expect((await call('GET', '/api/auth', acmeOwner)).json().data).toEqual({ authenticated: false });
  });

  it('an owner who belongs to another account: their other devices move there, the closing session ends', async () => {
    const { acme, beta, acmeOwner, ownerPhone, close } = await closingAcme();
    const owner = (await userId('boss@x.io'))!;
    await t.db.insert(accountUsers).values({ accountId: beta.accountId, userId: owner, permission: 'user' });
    expect((await close()).statusCode).toBe(200);

    expect((await call('GET', '/api/auth', ownerPhone)).json().data).toMatchObject({
      authenticated: true,
      account_id: beta.accountId,
      moved: { reason: 'closed', account_name: 'Acme' },
    });
    expect((await call('GET', '/api/auth', acmeOwner)).json().data).toEqual({ authenticated: false });
    const live = await t.db.select().from(sessions).where(eq(sessions.userId, owner));
    expect(live.filter((row) => row.revokedAt === null)).toHaveLength(1);
    expect(await t.db.select().from(sessions).where(eq(sessions.accountId, acme.accountId))).toEqual([]);
  });

  it('moves and records in the close’s transaction: a close that fails moves and records nothing', async () => {
    const { acme, dev, solo, close } = await closingAcme();
    // Deleting the account fails (as a lost connection would) after the sessions were landed.
    await t.db.execute(
      sql.raw(`create function refuse_close() returns trigger language plpgsql as $$
        begin raise exception 'close refused'; end $$`),
    );
    await t.db.execute(
      sql.raw(`create trigger refuse_close before delete on accounts
        for each row execute function refuse_close()`),
    );
    try {
      expect((await close()).statusCode).toBe(500);
    } finally {
      await t.db.execute(sql.raw('drop trigger refuse_close on accounts'));
    }
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, dev.userId));
    const inAcme = rows.filter((row) => row.accountId === acme.accountId && row.revokedAt === null);
    expect(inAcme.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((row) => row.notice === null)).toBe(true);
    expect(await t.db.select().from(sessionEndings)).toEqual([]);
    expect(await userId('solo@x.io')).toBeDefined();
    // Nothing changed for the members: they still work in Acme, with nothing to be told.
    expect(keyNames(await call('GET', '/api/key', dev.laptop))).toEqual(['Acme key']);
    expect((await call('GET', '/api/auth', dev.laptop)).json().data).not.toHaveProperty('moved');
    expect(keyNames(await call('GET', '/api/key', solo))).toEqual(['Acme key']);
  });
});
