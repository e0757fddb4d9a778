import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVITES_PER_DAY } from '@air/shared/schemas/membership';
import { accountUsers, activityEvents, apiKeys, invites, users } from '../src/db/schema';
import { purgeActivity } from '../src/modules/activity/service';
import type { TTestApp } from './helpers';
import { lastMail, PASSWORD, seedUser, signIn } from './identity-helpers';
import { inviteMails, inviteToken, teamsApp, type TCaller } from './teams-helpers';

let t: TTestApp;
let call: TCaller;
beforeEach(async () => ({ t, call } = await teamsApp()));
afterEach(async () => t.close());

async function owner(email = 'boss@x.io', accountName = 'Acme') {
  const seeded = await seedUser(t.app, { email, accountName, name: 'Boss' });
  const { token } = await signIn(t.app, email);
  return { ...seeded, token };
}

async function activityTypes(accountId: string) {
  const rows = await t.db.select().from(activityEvents).where(eq(activityEvents.accountId, accountId));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((r) => r.type);
}

describe('invites', () => {
  it('invites several addresses at once (commas, spaces, new lines), mails each a hashed token link, lists them', async () => {
    const o = await owner();
    const res = await call('POST', '/api/invite', o.token, {
      email: 'A@x.io, b@x.io\nc@x.io  a@x.io',
      permission: 'developer',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.invited).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
    for (const email of ['a@x.io', 'b@x.io', 'c@x.io']) {
      const mails = await inviteMails(t.app, email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Boss invited you to Acme on AIR');
      expect(mails[0]!.text).toContain('as a developer');
      const token = await inviteToken(t.app, email);
      const [row] = await t.db.select().from(invites).where(eq(invites.email, email));
      // The link carries a random token, not the invite id, and only its hash is stored.
      expect(token).not.toContain(row!.id);
      expect(row!.tokenHash).not.toBe(token);
      expect(row!.tokenHash).toHaveLength(64);
    }
    const list = await call('GET', '/api/account/users', o.token);
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data.users).toMatchObject([{ email: 'boss@x.io', permission: 'owner', status: 'verified' }]);
    expect(data.invites).toHaveLength(3);
    expect(data.invites[0]).toMatchObject({ permission: 'developer', status: 'invited', invited_by: 'Boss' });
    expect(await activityTypes(o.accountId)).toEqual(['member.invited', 'member.invited', 'member.invited']);
  });

  it('the default permission is user; Spanish mail for a Spanish inviter', async () => {
    const o = await owner();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/invite',
      headers: { authorization: `Bearer ${o.token}`, 'accept-language': 'es' },
      payload: { email: 'u@x.io' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.invites[0].permission).toBe('user');
    const mail = (await inviteMails(t.app, 'u@x.io'))[0]!;
    expect(mail.subject).toBe('Boss te invitó a Acme en AIR');
    expect(mail.html).toContain('como usuario');
  });

  it('a list with bad addresses is refused as a whole, naming each bad one, and sends nothing', async () => {
    const o = await owner();
    const res = await call('POST', '/api/invite', o.token, { email: 'good@x.io, nope, bad@, ok@x.io' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ inputError: 'email' });
    expect(res.json().message).toContain('nope');
    expect(res.json().message).toContain('bad@');
    expect(res.json().message).not.toContain('good@x.io');
    expect(await t.db.select().from(invites)).toHaveLength(0);
    expect(await inviteMails(t.app, 'good@x.io')).toHaveLength(0);
    const empty = await call('POST', '/api/invite', o.token, { email: ' , ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().inputError).toBe('email');
  });

  it('an address that is already a member is refused by name; owner is never an invitable permission', async () => {
    const o = await owner();
    await seedUser(t.app, { email: 'dev@x.io', role: 'developer', accountId: o.accountId });
    const res = await call('POST', '/api/invite', o.token, { email: 'new@x.io, dev@x.io' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ inputError: 'email' });
    expect(res.json().message).toContain('dev@x.io');
    expect(await t.db.select().from(invites)).toHaveLength(0);
    for (const permission of ['owner', 'master']) {
      const refused = await call('POST', '/api/invite', o.token, { email: 'x@x.io', permission });
      expect(refused.statusCode).toBe(400);
    }
  });

  it('inviting an address with a pending invite resends it: new token, the old link stops working', async () => {
    const o = await owner();
    await call('POST', '/api/invite', o.token, { email: 'p@x.io', permission: 'user' });
    const first = await inviteToken(t.app, 'p@x.io');
    await t.db.update(invites).set({ dateSent: new Date(Date.now() - 3600_000) });
    const again = await call('POST', '/api/invite', o.token, { email: 'p@x.io', permission: 'admin' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ invited: [], resent: ['p@x.io'] });
    const second = await inviteToken(t.app, 'p@x.io');
    expect(second).not.toBe(first);
    expect(await inviteMails(t.app, 'p@x.io')).toHaveLength(2);
    const rows = await t.db.select().from(invites);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.permission).toBe('admin');
    expect(Date.now() - rows[0]!.dateSent.getTime()).toBeLessThan(3_000_000);
    expect((await call('GET', `/api/invite/${first}`, null)).statusCode).toBe(404);
    expect((await call('GET', `/api/invite/${second}`, null)).json().data).toMatchObject({
      email: 'p@x.io',
      account_name: 'Acme',
      inviter_name: 'Boss',
      permission: 'admin',
      existing_user: false,
    });
  });

  it("deletes invites one by one and in bulk; another account's invite is 404", async () => {
    const o = await owner();
    const other = await owner('other@x.io', 'Other');
    await call('POST', '/api/invite', o.token, { email: 'a@x.io b@x.io c@x.io' });
    await call('POST', '/api/invite', other.token, { email: 'z@x.io' });
    const ids = (await call('GET', '/api/account/users', o.token))
      .json()
      .data.invites.map((i: { id: string }) => i.id);
    const [theirs] = (await call('GET', '/api/account/users', other.token)).json().data.invites;
    expect((await call('DELETE', `/api/invite/${theirs.id}`, o.token)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/invite', o.token, { ids: [theirs.id] })).statusCode).toBe(404);
    const one = await call('DELETE', `/api/invite/${ids[0]}`, o.token);
    expect(one.json().data).toEqual({ deleted: 1 });
    const bulk = await call('DELETE', '/api/invite', o.token, { ids: ids.slice(1) });
    expect(bulk.json().data).toEqual({ deleted: 2 });
    expect((await call('GET', '/api/account/users', o.token)).json().data.invites).toEqual([]);
    expect((await call('GET', '/api/account/users', other.token)).json().data.invites).toHaveLength(1);
  });

  it('invites expire after 7 days: listed as expired, refused, and a resend revives them', async () => {
    const o = await owner();
    await call('POST', '/api/invite', o.token, { email: 'late@x.io' });
    const token = await inviteToken(t.app, 'late@x.io');
    const [row] = await t.db.select().from(invites);
    expect(row!.expiresAt!.getTime() - row!.dateSent.getTime()).toBe(7 * 24 * 3600_000);
    await t.db.update(invites).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await call('GET', '/api/account/users', o.token)).json().data.invites[0].status).toBe('expired');
    expect((await call('GET', `/api/invite/${token}`, null)).statusCode).toBe(400);
    const accept = await call('POST', '/api/user', null, {
      name: 'Late',
      email: 'late@x.io',
      password: PASSWORD,
      invite_id: token,
    });
    expect(accept.statusCode).toBe(400);
    expect(accept.json().message).toMatch(/expired/);
    await call('POST', '/api/invite', o.token, { email: 'late@x.io' });
    expect((await call('GET', '/api/account/users', o.token)).json().data.invites[0].status).toBe('invited');
    const fresh = await inviteToken(t.app, 'late@x.io');
    expect((await call('GET', `/api/invite/${fresh}`, null)).statusCode).toBe(200);
  });

  it(`at most ${INVITES_PER_DAY} invitations a day per account, also under 200 concurrent requests`, async () => {
    const o = await owner();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call('POST', '/api/invite', o.token, { email: `n${i}@x.io` })),
    );
    const ok = answers.filter((r) => r.statusCode === 200).length;
    const limited = answers.filter((r) => r.statusCode === 429);
    expect(ok).toBe(INVITES_PER_DAY);
    expect(limited).toHaveLength(200 - INVITES_PER_DAY);
    expect(limited[0]!.headers['retry-after']).toBeDefined();
    expect(await t.db.select().from(invites)).toHaveLength(INVITES_PER_DAY);
    // Another account has its own allowance.
    const other = await owner('other@x.io', 'Other');
    expect((await call('POST', '/api/invite', other.token, { email: 'q@x.io' })).statusCode).toBe(200);
  }, 120_000);
});

describe('accepting an invite', () => {
  it('a new address signs up from the link: verified, the invite role, the account plan, single-use token, inviter told', async () => {
    const o = await owner();
    await call('POST', '/api/invite', o.token, { email: 'neo@x.io', permission: 'developer' });
    const token = await inviteToken(t.app, 'neo@x.io');
    const info = await call('GET', `/api/invite/${token}`, null);
    expect(info.json().data.existing_user).toBe(false);
    const weak = await call('POST', '/api/user', null, {
      name: 'Neo',
      email: 'neo@x.io',
      password: 'plainpassword',
      invite_id: token,
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      inputError: 'password',
      message: 'Password must contain at least one special character',
    });
    const noName = await call('POST', '/api/user', null, {
      email: 'neo@x.io',
      password: PASSWORD,
      invite_id: token,
    });
    expect(noName.json()).toMatchObject({ inputError: 'name' });
    const wrongEmail = await call('POST', '/api/user', null, {
      name: 'Neo',
      email: 'trinity@x.io',
      password: PASSWORD,
      invite_id: token,
    });
    expect(wrongEmail.json()).toMatchObject({ inputError: 'email' });
    const res = await call('POST', '/api/user', null, {
      name: 'Neo',
      email: 'neo@x.io',
      password: PASSWORD,
      confirm_password: '',
      invite_id: token,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      account_id: o.accountId,
      role: 'developer',
      verified: true,
      plan: 'free',
      permission: { developer: true, admin: false, owner: false },
    });
    expect(typeof res.json().data.token).toBe('string');
    const mail = await lastMail(t.app, 'boss@x.io', 'invite_accepted');
    expect(mail!.subject).toBe('Neo joined Acme');
    const again = await call('POST', '/api/user', null, {
      name: 'Neo',
      email: 'neo@x.io',
      password: PASSWORD,
      invite_id: token,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().inputError).toBe('invite_id');
    const list = (await call('GET', '/api/account/users', o.token)).json().data;
    expect(list.invites).toEqual([]);
    expect(list.users.map((u: { email: string }) => u.email)).toEqual(['boss@x.io', 'neo@x.io']);
    expect(await activityTypes(o.accountId)).toEqual(['member.invited', 'member.joined']);
    // The raw invite id is not a token.
    const [row] = await t.db.select().from(invites);
    expect(
      (
        await call('POST', '/api/user', null, {
          name: 'X',
          email: 'neo@x.io',
          password: PASSWORD,
          invite_id: row!.id,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('an existing user of another account joins after signing in, switches account and back, and leaving keeps the user', async () => {
    const o = await owner();
    const other = await owner('solo@x.io', 'Solo Inc');
    await call('POST', '/api/invite', o.token, { email: 'solo@x.io', permission: 'admin' });
    const token = await inviteToken(t.app, 'solo@x.io');
    expect((await call('GET', `/api/invite/${token}`, null)).json().data.existing_user).toBe(true);
    const wrong = await call('POST', '/api/user', null, {
      email: 'solo@x.io',
      password: 'Wrong-pass-1',
      invite_id: token,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().inputError).toBe('password');
    // Signed in as that user, the session is the confirmation.
    const joined = await call('POST', '/api/user', other.token, { email: 'solo@x.io', invite_id: token });
    expect(joined.statusCode).toBe(201);
    const data = joined.json().data;
    expect(data).toMatchObject({ account_id: o.accountId, role: 'admin' });
    expect(data.accounts.map((a: { name: string }) => a.name).sort()).toEqual(['Acme', 'Solo Inc']);

    // Each account's data stays apart: the admin sees Acme's users, then switches to Solo's.
    const acmeToken = data.token as string;
    expect((await call('GET', '/api/account/users', acmeToken)).json().data.users).toHaveLength(2);
    const toSolo = await call('POST', '/api/auth/switch', acmeToken, { account: other.accountId });
    expect(toSolo.statusCode).toBe(200);
    expect(toSolo.json().data).toMatchObject({
      account_id: other.accountId,
      role: 'owner',
      account_name: 'Solo Inc',
    });
    const soloToken = toSolo.json().data.token as string;
    expect((await call('GET', '/api/account/users', soloToken)).json().data.users).toHaveLength(1);
    expect((await call('GET', '/api/user', acmeToken)).statusCode).toBe(401); // the old session ended
    const back = await call('POST', '/api/auth/switch', soloToken, { account: o.accountId });
    expect(back.json().data).toMatchObject({ account_id: o.accountId, role: 'admin' });
    const stranger = await owner('stranger@x.io', 'Stranger');
    expect(
      (await call('POST', '/api/auth/switch', back.json().data.token, { account: stranger.accountId }))
        .statusCode,
    ).toBe(404);

    // Leaving Acme (their own id) keeps the user, who still owns Solo.
    const acme = back.json().data.token as string;
    const leave = await call('DELETE', `/api/user/${data.id}`, acme);
    expect(leave.statusCode).toBe(200);
    expect(leave.json().data).toEqual({ signout: true });
    // The session moved to Solo, the account they still belong to (the console signs it out).
    expect((await call('GET', '/api/user', acme)).json().data).toMatchObject({
      account_id: other.accountId,
      account_name: 'Solo Inc',
    });
    expect(await t.db.select().from(users).where(eq(users.email, 'solo@x.io'))).toHaveLength(1);
    const again = await signIn(t.app, 'solo@x.io');
    expect(again.account_id).toBe(other.accountId);
    expect(await activityTypes(o.accountId)).toEqual(['member.invited', 'member.joined', 'member.left']);
  });
});

describe('roles and removal', () => {
  async function team() {
    const o = await owner();
    const dev = await seedUser(t.app, { email: 'dev@x.io', role: 'developer', accountId: o.accountId });
    const adm = await seedUser(t.app, { email: 'adm@x.io', role: 'admin', accountId: o.accountId });
    return {
      o,
      dev: { ...dev, token: (await signIn(t.app, 'dev@x.io')).token },
      adm: { ...adm, token: (await signIn(t.app, 'adm@x.io')).token },
    };
  }

  it('a role change applies to the very next request; owner is never assignable nor editable; nobody edits themself', async () => {
    const { o, dev, adm } = await team();
    expect((await call('GET', '/api/key', dev.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/account/users', dev.token)).statusCode).toBe(403);
    const res = await call('PATCH', `/api/user/${dev.userId}`, adm.token, { permission: 'user' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'dev@x.io', permission: 'user' });
    expect((await call('GET', '/api/key', dev.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/user/permissions', dev.token)).json().data).toMatchObject({
      developer: false,
      user: true,
    });
    const promoted = await call('PATCH', `/api/user/${dev.userId}`, adm.token, { permission: 'admin' });
    expect(promoted.statusCode).toBe(200);
    expect((await call('GET', '/api/account/users', dev.token)).statusCode).toBe(200);

    expect(
      (await call('PATCH', `/api/user/${dev.userId}`, adm.token, { permission: 'owner' })).statusCode,
    ).toBe(400);
    const demoteOwner = await call('PATCH', `/api/user/${o.userId}`, adm.token, { permission: 'user' });
    expect(demoteOwner.statusCode).toBe(400);
    expect(demoteOwner.json().message).toBe("The owner's role cannot be changed");
    expect(
      (await call('PATCH', `/api/user/${adm.userId}`, adm.token, { permission: 'user' })).statusCode,
    ).toBe(400);
    const [row] = await t.db
      .select()
      .from(accountUsers)
      .where(and(eq(accountUsers.userId, o.userId), eq(accountUsers.accountId, o.accountId)));
    expect(row!.permission).toBe('owner');
    expect(await activityTypes(o.accountId)).toEqual(['member.role_changed', 'member.role_changed']);
  });

  it('a user role gets 403 on the admin routes; removing another member needs admin', async () => {
    const { o, dev } = await team();
    const plain = await seedUser(t.app, { email: 'plain@x.io', role: 'user', accountId: o.accountId });
    const { token } = await signIn(t.app, 'plain@x.io');
    expect((await call('GET', '/api/account/users', token)).statusCode).toBe(403);
    expect((await call('POST', '/api/invite', token, { email: 'x@x.io' })).statusCode).toBe(403);
    expect((await call('PATCH', `/api/user/${dev.userId}`, token, { permission: 'user' })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/user/${dev.userId}`, token)).statusCode).toBe(403);
    expect((await call('GET', '/api/account/activity', token)).statusCode).toBe(403);
    expect(plain.accountId).toBe(o.accountId);
  });

  it('removal revokes access at once; the owner cannot be removed; a removed user without other accounts is deleted', async () => {
    const { o, dev, adm } = await team();
    expect((await call('DELETE', `/api/user/${o.userId}`, adm.token)).statusCode).toBe(400);
    expect((await call('GET', '/api/key', dev.token)).statusCode).toBe(200);
    const res = await call('DELETE', `/api/user/${dev.userId}`, adm.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ signout: false });
    expect((await call('GET', '/api/key', dev.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/auth', dev.token)).json().data).toEqual({
      authenticated: false,
      ended: { reason: 'removed', account_name: 'Acme' },
    });
    expect(await t.db.select().from(users).where(eq(users.id, dev.userId))).toHaveLength(0);
    expect(await activityTypes(o.accountId)).toEqual(['member.removed']);
    // The removed (and deleted) member stays in the log's people, so the member filter offers them.
    const log = (await call('GET', '/api/account/activity', adm.token)).json().data;
    expect(log.people).toContainEqual({ id: dev.userId, name: expect.any(String), email: 'dev@x.io' });
    const byRemoved = (await call('GET', `/api/account/activity?member=${dev.userId}`, adm.token)).json()
      .data;
    expect(byRemoved.items.map((e: { type: string }) => e.type)).toEqual(['member.removed']);
  });

  it('nothing of one account is reachable from another by id', async () => {
    const { dev } = await team();
    const other = await owner('other@x.io', 'Other');
    expect(
      (await call('PATCH', `/api/user/${dev.userId}`, other.token, { permission: 'user' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/user/${dev.userId}`, other.token)).statusCode).toBe(404);
    expect((await call('GET', '/api/account/users', other.token)).json().data.users).toHaveLength(1);
    expect((await call('GET', '/api/account/activity', other.token)).json().data.items).toEqual([]);
    expect(await t.db.select().from(users).where(eq(users.id, dev.userId))).toHaveLength(1);
  });
});

describe('activity log', () => {
  it('records keys and endpoints in order, filters by member and type, admin only, kept 90 days', async () => {
    const o = await owner();
    const dev = await seedUser(t.app, {
      email: 'dev@x.io',
      role: 'developer',
      accountId: o.accountId,
      name: 'Dev',
    });
    const devToken = (await signIn(t.app, 'dev@x.io')).token;
    const key = await call('POST', '/api/key', devToken, { name: 'CI', scope: ['gateway.invoke'] });
    expect(key.statusCode).toBe(201);
    await call('PATCH', `/api/key/${key.json().data.id}`, devToken, { active: false });
    const endpoint = await call('POST', '/api/aiendpoint', o.token, {
      route_name: 'acme/bot',
      route_endpoint: 'http://127.0.0.1:9/v1',
      route_type: 'agent',
      name: 'Bot',
      isShared: false,
      isPrivate: true,
    });
    expect(endpoint.statusCode).toBeLessThan(300);
    const id = endpoint.json().data.id as string;
    await call('PATCH', `/api/aiendpoint/${id}`, o.token, { isShared: true, isPrivate: false });
    await call('DELETE', `/api/aiendpoint/${id}`, o.token);
    await call('PATCH', `/api/user/${dev.userId}`, o.token, { permission: 'user' });

    const all = (await call('GET', '/api/account/activity', o.token)).json().data;
    expect(all.items.map((e: { type: string }) => e.type)).toEqual([
      'member.role_changed',
      'endpoint.deleted',
      'endpoint.shared',
      'endpoint.created',
      'key.revoked',
      'key.created',
    ]);
    expect(all.items[5]).toMatchObject({ actor: { name: 'Dev', email: 'dev@x.io' }, data: { name: 'CI' } });
    expect(all.items[0]).toMatchObject({
      actor: { email: 'boss@x.io' },
      data: { email: 'dev@x.io', from: 'developer', to: 'user' },
    });
    // Everyone the log names, whatever the filters.
    expect(all.people).toEqual([
      { id: o.userId, name: 'Boss', email: 'boss@x.io' },
      { id: dev.userId, name: 'Dev', email: 'dev@x.io' },
    ]);
    const byDev = (await call('GET', `/api/account/activity?member=${dev.userId}`, o.token)).json().data;
    expect(byDev.people).toEqual(all.people);
    // The member as actor (keys) and as subject (their role change).
    expect(byDev.items.map((e: { type: string }) => e.type)).toEqual([
      'member.role_changed',
      'key.revoked',
      'key.created',
    ]);
    const byType = (await call('GET', '/api/account/activity?type=endpoint.shared', o.token)).json().data;
    expect(byType.items).toHaveLength(1);
    expect((await call('GET', '/api/account/activity?type=nope', o.token)).statusCode).toBe(400);

    await t.db.insert(activityEvents).values({
      accountId: o.accountId,
      actorUserId: o.userId,
      type: 'key.created',
      data: { name: 'ancient' },
      createdAt: new Date(Date.now() - 91 * 24 * 3600_000),
    });
    expect((await call('GET', '/api/account/activity', o.token)).json().data.items).toHaveLength(6);
    expect(await purgeActivity(t.db)).toBe(1);
    expect(await t.db.select().from(activityEvents)).toHaveLength(6);
  });

  it('is written in the same transaction as the change: a refused change records nothing', async () => {
    const o = await owner();
    await seedUser(t.app, { email: 'm@x.io', role: 'user', accountId: o.accountId });
    expect((await call('POST', '/api/invite', o.token, { email: 'a@x.io, m@x.io' })).statusCode).toBe(409);
    expect(await t.db.select().from(activityEvents)).toHaveLength(0);
  });

  it('is written in the same transaction as the change: when the record fails, the change is undone', async () => {
    const o = await owner();
    // The activity insert fails (as a full disk or a lost connection would) after the key row is in.
    await t.db.execute(
      sql.raw(`create function refuse_activity() returns trigger language plpgsql as $$
        begin raise exception 'activity refused'; end $$`),
    );
    await t.db.execute(
      sql.raw(`create trigger refuse_activity before insert on activity_events
        for each row execute function refuse_activity()`),
    );
    try {
      const key = await call('POST', '/api/key', o.token, { name: 'Half', scope: ['gateway.invoke'] });
      expect(key.statusCode).toBe(500);
      expect(await t.db.select().from(apiKeys).where(eq(apiKeys.accountId, o.accountId))).toEqual([]);
      const role = await call('POST', '/api/invite', o.token, { email: 'half@x.io' });
      expect(role.statusCode).toBe(500);
      expect(await t.db.select().from(invites).where(eq(invites.accountId, o.accountId))).toEqual([]);
    } finally {
      await t.db.execute(sql.raw('drop trigger refuse_activity on activity_events'));
    }
    expect(
      (await call('POST', '/api/key', o.token, { name: 'Whole', scope: ['gateway.invoke'] })).statusCode,
    ).toBe(201);
    expect(await activityTypes(o.accountId)).toEqual(['key.created']);
  });

  it('a sign-in from a device not seen before is recorded with its address and browser; a known one is not', async () => {
    const o = await owner();
    const signInWith = (userAgent: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth',
        headers: { 'user-agent': userAgent },
        payload: { email: 'boss@x.io', password: PASSWORD },
      });
    expect((await signInWith('Firefox/1')).statusCode).toBe(200);
    expect((await signInWith('Firefox/1')).statusCode).toBe(200);
    expect((await signInWith('Chromium/2')).statusCode).toBe(200);
    const rows = (
      await t.db.select().from(activityEvents).where(eq(activityEvents.accountId, o.accountId))
    ).filter((row) => row.type === 'signin.new_device');
    // The owner() sign-in came first: each browser after it is new once, Firefox's second is known.
    expect(rows.map((row) => row.data.device).sort()).toEqual(['Chromium/2', 'Firefox/1']);
    expect(rows.every((row) => row.actorUserId === o.userId && row.data.ip === '127.0.0.1')).toBe(true);
  });
});
