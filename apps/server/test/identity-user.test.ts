import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accounts,
  accountUsers,
  aiEndpoints,
  apiKeys,
  events,
  feedback,
  items,
  sessions,
  users,
} from '../src/db/schema';
import { encryptSecret } from '../src/lib/crypto';
import { totpCode } from '../src/lib/totp';
import { createTestApp, type TTestApp } from './helpers';
import { sessionTokenFor } from './identity-extra-helpers';
import { bearer, lastMail, PASSWORD, seedUser, signIn, tokenFrom } from './identity-helpers';

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp({ appUrl: 'http://air.test' });
});
afterEach(async () => t.close());

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('profile', () => {
  it('GET and PATCH /api/user: fields, flags, owner-only account name, membership-only default account', async () => {
    const owner = await seedUser(t.app, { email: 'o@x.io', accountName: 'Old' });
    const member = await seedUser(t.app, { email: 'm@x.io', role: 'user', accountId: owner.accountId });
    const { token } = await signIn(t.app, 'o@x.io');
    const res = await call('PATCH', '/api/user', token, {
      name: 'Olga',
      account_name: 'New',
      support_enabled: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Olga', account_name: 'New', support_enabled: true });
    expect((await call('PATCH', '/api/user', token, { onboarded: true })).json().data.onboarded).toBe(true);
    expect((await call('PATCH', '/api/user', token, { dark_mode: true })).json().data.dark_mode).toBe(true);
    expect((await call('PATCH', '/api/user', token, { locale: 'es' })).json().data.locale).toBe('es');
    expect((await call('PATCH', '/api/user', token, { bogus: 1 })).json().inputError).toBe('bogus');
    const notMine = await call('PATCH', '/api/user', token, {
      default_account: member.accountId === owner.accountId ? crypto.randomUUID() : member.accountId,
    });
    expect(notMine.json().inputError).toBe('default_account');

    const { token: mt } = await signIn(t.app, 'm@x.io');
    const forbidden = await call('PATCH', '/api/user', mt, { account_name: 'Hijack' });
    expect(forbidden.statusCode).toBe(403);
    const [account] = await t.db.select().from(accounts).where(eq(accounts.id, owner.accountId));
    expect(account!.name).toBe('New');
    expect((await call('GET', '/api/user', mt)).json().data).toMatchObject({ email: 'm@x.io', role: 'user' });
    expect((await t.app.inject({ url: '/api/user' })).statusCode).toBe(401);
  });

  it('an email change needs the password, stays pending until the new address verifies, and tells the old one', async () => {
    await seedUser(t.app, { email: 'e@x.io' });
    await seedUser(t.app, { email: 'taken@x.io' });
    const { token } = await signIn(t.app, 'e@x.io');
    const bare = await call('PATCH', '/api/user', token, { email: 'new@x.io', name: 'Renamed' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().inputError).toBe('password');
    const wrong = await call('PATCH', '/api/user', token, { email: 'new@x.io', password: 'Wrong-pass-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().inputError).toBe('password');
    expect(await lastMail(t.app, 'new@x.io')).toBeUndefined();
    const taken = await call('PATCH', '/api/user', token, { email: 'TAKEN@x.io', password: PASSWORD });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().inputError).toBe('email');

    const res = await call('PATCH', '/api/user', token, { email: 'new@x.io', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    // Pending: the address in use and its verification do not change yet.
    expect(res.json().data).toMatchObject({ email: 'e@x.io', verified: true });
    expect(res.json().message).toMatch(/new@x\.io/);
    const notice = await lastMail(t.app, 'e@x.io', 'email_change');
    expect(notice!.text).toContain('new@x.io');
    expect(notice!.links.some((link) => link.endsWith('/forgotpassword'))).toBe(true);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth',
          payload: { email: 'new@x.io', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(401);

    const link = tokenFrom(await lastMail(t.app, 'new@x.io', 'verify'));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { token: link } })).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/user', token)).json().data).toMatchObject({
      email: 'new@x.io',
      verified: true,
    });
    expect((await signIn(t.app, 'new@x.io')).token).toBeTruthy();
  });

  it('without a password, an email change needs a current TOTP code; with neither it is refused', async () => {
    const { userId } = await seedUser(t.app, { email: 'social@x.io' });
    const { token } = await signIn(t.app, 'social@x.io');
    // A user from social sign-in: no password, and no second factor yet.
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, userId));
    const refused = await call('PATCH', '/api/user', token, { email: 'moved@x.io' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().inputError).toBe('email');
    expect(refused.json().message).toMatch(/create a password or turn on two-factor/);
    expect(await lastMail(t.app, 'moved@x.io')).toBeUndefined();

    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await t.db
      .update(users)
      .set({ totpEnabled: true, totpSecretEnc: encryptSecret(t.config.secret, secret) })
      .where(eq(users.id, userId));
    const noCode = await call('PATCH', '/api/user', token, { email: 'moved@x.io' });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().inputError).toBe('code');
    const wrongCode = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    const wrong = await call('PATCH', '/api/user', token, { email: 'moved@x.io', code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().inputError).toBe('code');
    expect(await lastMail(t.app, 'moved@x.io')).toBeUndefined();

    const res = await call('PATCH', '/api/user', token, { email: 'moved@x.io', code: totpCode(secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'social@x.io' });
    expect(await lastMail(t.app, 'moved@x.io', 'verify')).toBeDefined();
    expect(await lastMail(t.app, 'social@x.io', 'email_change')).toBeDefined();
  });

  it('an email-change link whose address was taken meanwhile answers 409 and stays usable', async () => {
    await seedUser(t.app, { email: 'moving@x.io' });
    const { token } = await signIn(t.app, 'moving@x.io');
    expect(
      (await call('PATCH', '/api/user', token, { email: 'wanted@x.io', password: PASSWORD })).statusCode,
    ).toBe(200);
    const link = tokenFrom(await lastMail(t.app, 'wanted@x.io', 'verify'));
    // Someone else signs up with the address before the link is followed.
    const other = await seedUser(t.app, { email: 'wanted@x.io' });
    const verify = () => t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { token: link } });
    const refused = await verify();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().inputError).toBe('email');
    expect((await call('GET', '/api/user', token)).json().data.email).toBe('moving@x.io');
    // The address is free again: the same link completes the change (the 409 spent nothing).
    await t.db.update(users).set({ email: 'elsewhere@x.io' }).where(eq(users.id, other.userId));
    expect((await verify()).statusCode).toBe(200);
    expect((await call('GET', '/api/user', token)).json().data.email).toBe('wanted@x.io');
  });

  it('GET /api/user/permissions is the flag map of the caller role', async () => {
    const o = await seedUser(t.app, { email: 'p@x.io' });
    await seedUser(t.app, { email: 'd@x.io', role: 'developer', accountId: o.accountId });
    const { token } = await signIn(t.app, 'd@x.io');
    expect((await call('GET', '/api/user/permissions', token)).json().data).toEqual({
      master: false,
      owner: false,
      admin: false,
      developer: true,
      user: true,
    });
  });
});

describe('password change', () => {
  it('needs the old password when there is one, and revokes every other session', async () => {
    await seedUser(t.app, { email: 'pw@x.io' });
    const { token: current } = await signIn(t.app, 'pw@x.io');
    const { token: other } = await signIn(t.app, 'pw@x.io');
    const missing = await call('PUT', '/api/user/password', current, {
      has_password: true,
      newpassword: 'Brand-new-1!',
    });
    expect(missing.json()).toMatchObject({ inputError: 'oldpassword' });
    const wrong = await call('PUT', '/api/user/password', current, {
      oldpassword: 'nope',
      has_password: true,
      newpassword: 'Brand-new-1!',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ inputError: 'oldpassword', message: 'The password is incorrect' });
    const weak = await call('PUT', '/api/user/password', current, {
      oldpassword: PASSWORD,
      newpassword: 'weakweakweak',
    });
    expect(weak.json().inputError).toBe('newpassword');
    const ok = await call('PUT', '/api/user/password', current, {
      oldpassword: PASSWORD,
      has_password: true,
      newpassword: 'Brand-new-1!',
    });
    expect(ok.statusCode).toBe(200);
    expect((await call('GET', '/api/user', current)).statusCode).toBe(200);
    expect((await call('GET', '/api/user', other)).statusCode).toBe(401);
    await signIn(t.app, 'pw@x.io', 'Brand-new-1!');
  });

  it('a user without a password sets one without the old one', async () => {
    const { userId } = await seedUser(t.app, { email: 'np@x.io' });
    const { token } = await signIn(t.app, 'np@x.io');
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, userId));
    const res = await call('PUT', '/api/user/password', token, {
      has_password: false,
      newpassword: 'First-pass-1!',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.has_password).toBe(true);
  });

  it('without a password, a session signed in over 15 minutes ago cannot create one or close the account', async () => {
    const { userId } = await seedUser(t.app, { email: 'stale@x.io' });
    const { token } = await signIn(t.app, 'stale@x.io');
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, userId));
    // The session token was taken 16 minutes ago.
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(sessions.userId, userId));
    const create = await call('PUT', '/api/user/password', token, {
      has_password: false,
      newpassword: 'Stolen-pass-1!',
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().inputError).toBeUndefined();
    expect(create.json().message).toMatch(/sign in again/);
    const close = await call('DELETE', '/api/account', token, {});
    expect(close.statusCode).toBe(400);
    const [row] = await t.db.select().from(users).where(eq(users.id, userId));
    expect(row!.passwordHash).toBeNull();
    expect(await t.db.select().from(accounts).where(eq(accounts.id, row!.defaultAccountId!))).toHaveLength(1);

    // A fresh sign-in (social, here a new session) may.
    const fresh = await sessionTokenFor(t.app, userId);
    const created = await call('PUT', '/api/user/password', fresh, {
      has_password: false,
      newpassword: 'Fresh-pass-1!',
    });
    expect(created.statusCode).toBe(200);
  });
});

describe('deleting users and closing accounts', () => {
  it('DELETE /api/user: a non-owner deletes themself (password confirmed); an owner is refused with 400', async () => {
    const o = await seedUser(t.app, { email: 'own@x.io' });
    const m = await seedUser(t.app, { email: 'me@x.io', role: 'user', accountId: o.accountId });
    const { token: ot } = await signIn(t.app, 'own@x.io');
    const refused = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: bearer(ot),
      payload: { password: PASSWORD },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/You own an account/);
    const { token: mt } = await signIn(t.app, 'me@x.io');
    const wrong = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: bearer(mt),
      payload: { password: 'x' },
    });
    expect(wrong.json().inputError).toBe('password');
    const empty = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: bearer(mt),
      payload: { password: '' },
    });
    expect(empty.json()).toMatchObject({
      inputError: 'password',
      message: 'Please enter your password to confirm your account deletion',
    });
    const ok = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: bearer(mt),
      payload: { password: PASSWORD },
    });
    expect(ok.json().data).toEqual({ signout: true });
    expect(await t.db.select().from(users).where(eq(users.id, m.userId))).toHaveLength(0);
    expect((await call('GET', '/api/user', mt)).statusCode).toBe(401);
  });

  it('DELETE /api/user/{id}: admin removes a member of the same account; another account is 404; self answers signout', async () => {
    const o = await seedUser(t.app, { email: 'boss@x.io' });
    const admin = await seedUser(t.app, { email: 'adm@x.io', role: 'admin', accountId: o.accountId });
    const victim = await seedUser(t.app, { email: 'v@x.io', role: 'user', accountId: o.accountId });
    const stranger = await seedUser(t.app, { email: 'str@x.io' });
    const { token: vt } = await signIn(t.app, 'v@x.io');
    const { token } = await signIn(t.app, 'adm@x.io');
    expect((await call('DELETE', `/api/user/${stranger.userId}`, token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/user/${o.userId}`, token)).statusCode).toBe(400);
    // A plain user may leave (their own id) but not remove anyone else.
    expect((await call('DELETE', `/api/user/${admin.userId}`, vt)).statusCode).toBe(403);
    const res = await call('DELETE', `/api/user/${victim.userId}`, token);
    expect(res.json().data).toEqual({ signout: false });
    expect((await call('GET', '/api/user', vt)).statusCode).toBe(401);
    expect(await t.db.select().from(users).where(eq(users.id, victim.userId))).toHaveLength(0);
    const self = await call('DELETE', `/api/user/${admin.userId}`, token);
    expect(self.json().data).toEqual({ signout: true });
    expect(await t.db.select().from(users).where(eq(users.id, stranger.userId))).toHaveLength(1);
  });

  it('DELETE /api/account closes everything of the account but keeps members’ other memberships', async () => {
    const o = await seedUser(t.app, { email: 'closer@x.io', accountName: 'Closing' });
    const keeper = await seedUser(t.app, { email: 'keep@x.io', accountName: 'Elsewhere' });
    await t.db
      .insert(accountUsers)
      .values({ accountId: o.accountId, userId: keeper.userId, permission: 'developer' });
    const loner = await seedUser(t.app, { email: 'lone@x.io', role: 'user', accountId: o.accountId });
    await t.db
      .insert(apiKeys)
      .values({ accountId: o.accountId, name: 'k', keyHash: 'h1', keyEnc: 'e', keyPrefix: 'air_x' });
    await t.db.insert(aiEndpoints).values({
      accountId: o.accountId,
      name: 'E',
      routeName: 'closing-route',
      routeEndpoint: 'http://localhost:1',
      routeType: 'model',
    });
    await t.db.insert(items).values({ accountId: o.accountId, kind: 'newitem', name: 'i' });
    const { token } = await signIn(t.app, 'closer@x.io');
    const { token: kt } = await signIn(t.app, 'keep@x.io');
    const switched = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/switch',
        headers: bearer(kt),
        payload: { account: o.accountId },
      })
    ).json().data.token;

    const { token: dt } = await signIn(t.app, 'keep@x.io');
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/account',
          headers: bearer(switched),
          payload: { password: PASSWORD },
        })
      ).statusCode,
    ).toBe(403);
    const wrong = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(token),
      payload: { password: 'nope' },
    });
    expect(wrong.statusCode).toBe(400);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(token),
      payload: { password: PASSWORD },
    });
    expect(res.json().data).toEqual({ signout: true });

    expect(await t.db.select().from(accounts).where(eq(accounts.id, o.accountId))).toHaveLength(0);
    expect(await t.db.select().from(apiKeys).where(eq(apiKeys.accountId, o.accountId))).toHaveLength(0);
    expect(await t.db.select().from(aiEndpoints).where(eq(aiEndpoints.accountId, o.accountId))).toHaveLength(
      0,
    );
    expect(await t.db.select().from(items).where(eq(items.accountId, o.accountId))).toHaveLength(0);
    expect(await t.db.select().from(users).where(eq(users.id, o.userId))).toHaveLength(0);
    expect(await t.db.select().from(users).where(eq(users.id, loner.userId))).toHaveLength(0);
    expect((await call('GET', '/api/user', token)).statusCode).toBe(401);
    // The member working in the closed account keeps working in their other one (decision 033).
    const moved = await call('GET', '/api/user', switched);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ account_id: keeper.accountId, account_name: 'Elsewhere' });
    const kept = await call('GET', '/api/user', dt);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data.accounts).toEqual([{ id: keeper.accountId, name: 'Elsewhere' }]);
    await signIn(t.app, 'keep@x.io');
  });
});

describe('notifications, feedback, events', () => {
  it("lists the preferences (the spec's four and quota warnings) and saves a list or a map", async () => {
    await seedUser(t.app, { email: 'nf@x.io' });
    const { token } = await signIn(t.app, 'nf@x.io');
    expect((await call('GET', '/api/notification', token)).json().data).toEqual([
      { name: 'new_signin', active: true },
      { name: 'plan_updated', active: true },
      { name: 'card_updated', active: true },
      { name: 'invite_accepted', active: true },
      { name: 'quota_warning', active: true },
    ]);
    await call('PATCH', '/api/notification', token, [{ name: 'plan_updated', active: false }]);
    const res = await call('PATCH', '/api/notification', token, { card_updated: false });
    expect(
      res
        .json()
        .data.filter((p: { active: boolean }) => !p.active)
        .map((p: { name: string }) => p.name),
    ).toEqual(['plan_updated', 'card_updated']);
    expect(
      (await call('PATCH', '/api/notification', token, [{ name: 'spam', active: true }])).statusCode,
    ).toBe(400);
    expect((await t.app.inject({ url: '/api/notification' })).statusCode).toBe(401);
  });

  it('stores feedback and events for the caller account', async () => {
    const { accountId, userId } = await seedUser(t.app, { email: 'fb@x.io' });
    const { token } = await signIn(t.app, 'fb@x.io');
    expect(
      (await call('POST', '/api/feedback', token, { rating: 'negative', comment: 'Slow' })).statusCode,
    ).toBe(201);
    expect((await call('POST', '/api/feedback', token, { rating: 'meh' })).json().inputError).toBe('rating');
    expect(
      (await call('POST', '/api/event', token, { name: 'copy_key', metadata: { tab: 'curl' } })).statusCode,
    ).toBe(201);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/event', payload: { name: 'x' } })).statusCode,
    ).toBe(401);
    expect(await t.db.select().from(feedback)).toMatchObject([
      { accountId, userId, rating: -1, comment: 'Slow' },
    ]);
    expect(await t.db.select().from(events)).toMatchObject([
      { accountId, userId, name: 'copy_key', metadata: { tab: 'curl' } },
    ]);
  });
});
