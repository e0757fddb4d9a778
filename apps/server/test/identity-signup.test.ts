import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accounts, accountUsers, invites, notificationPrefs, subscriptions, users } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, lastMail, PASSWORD, seedUser, signIn, tokenFrom } from './identity-helpers';
import { inviteToken } from './teams-helpers';

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp({ appUrl: 'http://air.test' });
});
afterEach(async () => t.close());

const signUp = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/account', payload, headers });

describe('sign-up POST /api/account', () => {
  it('creates account, owner, default prefs, sends the verification mail in the locale, and signs in', async () => {
    const res = await signUp(
      { name: 'Ana', email: 'Ana@X.io', password: PASSWORD, confirm_password: '' },
      { 'accept-language': 'es' },
    );
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      email: 'ana@x.io',
      verified: false,
      plan: null,
      role: 'owner',
      duplicate_user: false,
      locale: 'es',
      // Not the person's own name, in the signer's language.
      account_name: 'Cuenta de Ana',
    });
    expect(data.token).toEqual(expect.any(String));
    const prefs = await t.db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, data.id));
    expect(prefs.map((p) => [p.name, p.active]).sort()).toEqual([
      ['card_updated', true],
      ['invite_accepted', true],
      ['new_signin', true],
      ['plan_updated', true],
      ['quota_warning', true],
    ]);
    const mail = await lastMail(t.app, 'ana@x.io', 'verify');
    expect(mail!.subject).toMatch(/Verifica/);
    expect(mail!.links[0]).toMatch(/^http:\/\/air\.test\/signup\/verify\?token=/);
    // The session works at once.
    expect((await t.app.inject({ url: '/api/auth', headers: bearer(data.token) })).json().data).toMatchObject(
      { authenticated: true, id: data.id },
    );
  });

  it("names the new account after its owner without being the owner's name, within 100 characters", async () => {
    const res = await signUp({ name: 'Alice Doe', email: 'alice@x.io', password: PASSWORD });
    expect(res.json().data.account_name).toBe("Alice Doe's account");
    const long = await signUp({ name: 'L'.repeat(100), email: 'long@x.io', password: PASSWORD });
    const name = long.json().data.account_name as string;
    expect(name.length).toBeLessThanOrEqual(100);
    expect(name).toMatch(/^L+'s account$/);
  });

  it('refuses the bot trap (400) and creates nothing', async () => {
    const res = await signUp({
      name: 'Bot',
      email: 'bot@x.io',
      password: PASSWORD,
      confirm_password: 'filled',
    });
    expect(res.statusCode).toBe(400);
    expect((await t.db.select({ n: count() }).from(users))[0]!.n).toBe(0);
    expect((await t.db.select({ n: count() }).from(accounts))[0]!.n).toBe(0);
  });

  it('enforces complex passwords of at least 8 characters, and required name and email', async () => {
    const weak = await signUp({ name: 'A', email: 'a@x.io', password: 'abcdefgh1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      inputError: 'password',
      message: 'Password must contain at least one special character',
    });
    const short = await signUp({ name: 'A', email: 'a@x.io', password: 'a!b' });
    expect(short.json().inputError).toBe('password');
    const noName = await signUp({ name: '', email: 'a@x.io', password: PASSWORD });
    expect(noName.json()).toMatchObject({ inputError: 'name', message: 'Please enter your name' });
    const badEmail = await signUp({ name: 'A', email: 'nope', password: PASSWORD });
    expect(badEmail.json().inputError).toBe('email');
  });

  it('409 on email when the address already owns an account', async () => {
    await seedUser(t.app, { email: 'own@x.io' });
    const res = await signUp({ name: 'X', email: 'OWN@x.io', password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      inputError: 'email',
      message: 'An account with this email address already exists',
    });
  });

  it('an existing non-owner gets an account of its own with duplicate_user, keeping the password; a wrong password is 409', async () => {
    const host = await seedUser(t.app, { email: 'host@x.io' });
    const member = await seedUser(t.app, { email: 'mem@x.io', role: 'user', accountId: host.accountId });
    const wrong = await signUp({ name: 'Mine', email: 'mem@x.io', password: 'Other-pass-1!' });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().inputError).toBe('email');
    const res = await signUp({ name: 'Mine', email: 'mem@x.io', password: PASSWORD });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: member.userId,
      duplicate_user: true,
      role: 'owner',
      account_name: "Mine's account",
    });
    expect(data.accounts).toHaveLength(2);
    expect(data.account_id).not.toBe(host.accountId);
    await signIn(t.app, 'mem@x.io', PASSWORD);
  });
});

describe('verification', () => {
  it('verifies once with the mailed token; reuse and expiry are 400; re-send works only when unverified', async () => {
    const data = (await signUp({ name: 'V', email: 'v@x.io', password: PASSWORD })).json().data;
    const token = tokenFrom(await lastMail(t.app, 'v@x.io', 'verify'));
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/user/verify',
      payload: { token },
      headers: bearer(data.token),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ verified: true, id: data.id });
    const reused = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { token } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toMatch(/expired or has already been used/);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/user/verify/request',
      headers: bearer(data.token),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Your email address is already verified');
  });

  it('an expired link is refused; the re-send mails a fresh one and retires the old', async () => {
    const data = (await signUp({ name: 'E', email: 'e@x.io', password: PASSWORD })).json().data;
    const first = tokenFrom(await lastMail(t.app, 'e@x.io', 'verify'));
    const { oneTimeTokens } = await import('../src/db/schema');
    await t.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { token: first } })).statusCode,
    ).toBe(400);
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/user/verify/request',
      headers: bearer(data.token),
    });
    expect(resend.statusCode).toBe(200);
    const second = tokenFrom(await lastMail(t.app, 'e@x.io', 'verify'));
    expect(second).not.toBe(first);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { token: second } }))
        .statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/user/verify/request' })).statusCode).toBe(401);
  });
});

describe('plans at sign-up', () => {
  it('lists plans with the active one; an unverified user cannot choose; free completes; paid needs a card', async () => {
    const data = (await signUp({ name: 'P', email: 'p@x.io', password: PASSWORD })).json().data;
    const h = bearer(data.token);
    const plans = (await t.app.inject({ url: '/api/account/plans', headers: h })).json().data;
    expect(plans.active).toBeNull();
    expect(plans.plans.map((p: { id: string }) => p.id)).toEqual(t.app.plans.map((p) => p.id));
    expect(plans.options).toContainEqual({ value: 'free', label: expect.any(String) });

    const unverified = await t.app.inject({
      method: 'POST',
      url: '/api/account/plan',
      payload: { plan: 'free' },
      headers: h,
    });
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().message).toBe('Please verify your email address first');

    await t.app.inject({
      method: 'POST',
      url: '/api/user/verify',
      payload: { token: tokenFrom(await lastMail(t.app, 'p@x.io', 'verify')) },
    });
    const paid = t.app.plans.find((p) => p.price > 0)!;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/account/plan',
      payload: { plan: paid.id },
      headers: h,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ inputError: 'token', message: 'Please enter your card details' });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/account/plan',
      payload: { plan: 'nope' },
      headers: h,
    });
    expect(unknown.json()).toMatchObject({ inputError: 'plan' });

    const free = await t.app.inject({
      method: 'POST',
      url: '/api/account/plan',
      payload: { plan: 'free' },
      headers: h,
    });
    expect(free.statusCode).toBe(200);
    expect(free.json().data).toMatchObject({ plan: 'free', subscription: { status: 'active', seats: 1 } });
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, data.account_id));
    expect(sub).toMatchObject({ planId: 'free', status: 'active', seats: 1 });
    expect((await t.app.inject({ url: '/api/account/plan', headers: h })).json().data).toEqual({
      plan: 'free',
      status: 'active',
    });
    expect((await t.app.inject({ url: '/api/account/plans', headers: h })).json().data.active).toBe('free');
  });

  it('only the owner may choose the plan', async () => {
    const host = await seedUser(t.app, { email: 'o@x.io' });
    await seedUser(t.app, { email: 'dev@x.io', role: 'developer', accountId: host.accountId });
    const { token } = await signIn(t.app, 'dev@x.io');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/plan',
      payload: { plan: 'free' },
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('invited sign-up POST /api/user', () => {
  it('joins with the invite permission, uses the invite up, mails the inviter, syncs seats', async () => {
    const host = await seedUser(t.app, { email: 'boss@x.io', locale: 'es', accountName: 'Acme' });
    const { token: hostToken } = await signIn(t.app, 'boss@x.io');
    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/invite',
      headers: bearer(hostToken),
      payload: { email: 'new@x.io', permission: 'developer' },
    });
    expect(invited.statusCode).toBe(200);
    const [invite] = await t.db.select().from(invites).where(eq(invites.email, 'new@x.io'));
    const payload = {
      name: 'Neo',
      email: 'new@x.io',
      password: PASSWORD,
      confirm_password: '',
      invite_id: await inviteToken(t.app, 'new@x.io'),
    };
    const wrongEmail = await t.app.inject({
      method: 'POST',
      url: '/api/user',
      payload: { ...payload, email: 'other@x.io' },
    });
    expect(wrongEmail.statusCode).toBe(400);
    const res = await t.app.inject({ method: 'POST', url: '/api/user', payload });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      account_id: host.accountId,
      role: 'developer',
      verified: true,
      permission: { developer: true, admin: false },
    });
    const [used] = await t.db.select().from(invites).where(eq(invites.id, invite!.id));
    expect(used!.acceptedAt).not.toBeNull();
    const mail = await lastMail(t.app, 'boss@x.io', 'invite_accepted');
    expect(mail!.subject).toBe('Neo se unió a Acme');
    const again = await t.app.inject({ method: 'POST', url: '/api/user', payload });
    expect(again.statusCode).toBe(400);
    expect(again.json().inputError).toBe('invite_id');
    const members = await t.db.select().from(accountUsers).where(eq(accountUsers.accountId, host.accountId));
    expect(members).toHaveLength(2);
    const bot = await t.app.inject({
      method: 'POST',
      url: '/api/user',
      payload: { ...payload, confirm_password: 'x' },
    });
    expect(bot.statusCode).toBe(400);
  });

  it('does not mail the inviter whose invite_accepted preference is off', async () => {
    const host = await seedUser(t.app, { email: 'quiet@x.io' });
    await t.db
      .insert(notificationPrefs)
      .values({ userId: host.userId, name: 'invite_accepted', active: false });
    const { token: hostToken } = await signIn(t.app, 'quiet@x.io');
    await t.app.inject({
      method: 'POST',
      url: '/api/invite',
      headers: bearer(hostToken),
      payload: { email: 'n2@x.io' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user',
      payload: {
        name: 'N',
        email: 'n2@x.io',
        password: PASSWORD,
        invite_id: await inviteToken(t.app, 'n2@x.io'),
      },
    });
    expect(res.statusCode).toBe(201);
    expect(await lastMail(t.app, 'quiet@x.io', 'invite_accepted')).toBeUndefined();
  });
});
