import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../src/db/schema';
import { issueToken } from '../src/modules/auth-otp/service';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, lastMail, PASSWORD, seedUser, signIn } from './identity-helpers';

let t: TTestApp;
beforeEach(async () => {
  t = await createTestApp({ appUrl: 'http://air.test' });
});
afterEach(async () => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('sign-in POST /api/auth', () => {
  it('answers the sign-in answer; wrong password and unknown email get the same generic 401', async () => {
    const { userId } = await seedUser(t.app, { email: 'a@x.io' });
    const ok = await post('/api/auth', { email: 'A@x.io', password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({
      id: userId,
      token: expect.any(String),
      verified: true,
      plan: 'free',
    });
    const wrong = await post('/api/auth', { email: 'a@x.io', password: 'Wrong-pass-1' });
    const unknown = await post('/api/auth', { email: 'nobody@x.io', password: 'Wrong-pass-1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Email or password is incorrect');
    const missing = await post('/api/auth', { email: 'a@x.io' });
    expect(missing.json()).toMatchObject({ inputError: 'password' });
  });

  it('limits failures per email: 429 with Retry-After, also for the right password', async () => {
    await seedUser(t.app, { email: 'b@x.io' });
    for (let i = 0; i < 10; i++)
      expect((await post('/api/auth', { email: 'b@x.io', password: 'Nope-nope-1' })).statusCode).toBe(401);
    const limited = await post('/api/auth', { email: 'b@x.io', password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
    expect(limited.json().message).toMatch(/Too many failed attempts/);
  });

  it('limits failures per IP across emails (50 per window)', async () => {
    for (let i = 0; i < 50; i++) await t.app.attempts.reserve([`ip:127.0.0.1`]);
    const res = await post('/api/auth', { email: 'whoever@x.io', password: 'Nope-nope-1' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('a burst of 200 concurrent guesses evaluates 10; the right password at 150 does not sign in', async () => {
    await seedUser(t.app, { email: 'burst@x.io' });
    const burst = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post('/api/auth', { email: 'burst@x.io', password: i === 149 ? PASSWORD : `Wrong-pass-${i}` }),
      ),
    );
    const codes = burst.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(10);
    expect(codes.filter((code) => code === 429)).toHaveLength(190);
    expect(codes[149]).toBe(429);
    expect(await t.db.select().from(sessions)).toHaveLength(0);
  });

  it('keys the IP limit on the socket address unless TRUST_PROXY says otherwise', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 50; i++) await t.app.attempts.reserve(['ip:203.0.113.9']);
    const direct = await post('/api/auth', { email: 'who@x.io', password: 'Nope-nope-1' }, forwarded);
    expect(direct.statusCode).toBe(401);
    const proxied = await createTestApp({ trustProxy: true });
    try {
      for (let i = 0; i < 50; i++) await proxied.app.attempts.reserve(['ip:203.0.113.9']);
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/api/auth',
        payload: { email: 'who@x.io', password: 'Nope-nope-1' },
        headers: forwarded,
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('with 2FA on answers 2fa_required and an otp token carrying the account', async () => {
    const { userId } = await seedUser(t.app, { email: 'tf@x.io' });
    await t.db.update(users).set({ totpEnabled: true }).where(eq(users.id, userId));
    const res = await post('/api/auth', { email: 'tf@x.io', password: PASSWORD });
    expect(res.json().data).toEqual({ '2fa_required': true, token: expect.any(String) });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, userId))).toHaveLength(0);
  });

  it('signs in with a single-use social token', async () => {
    const { userId } = await seedUser(t.app, { email: 's@x.io' });
    const token = await issueToken(t.db, { kind: 'social', userId, ttlMs: 60_000 });
    const res = await post('/api/auth', { token });
    expect(res.json().data).toMatchObject({ id: userId, token: expect.any(String) });
    expect((await post('/api/auth', { token })).statusCode).toBe(401);
  });

  it('mails new_signin only for a new device after the first sign-in, when the preference is on', async () => {
    await seedUser(t.app, { email: 'n@x.io' });
    await signIn(t.app, 'n@x.io', PASSWORD, { 'user-agent': 'UA-1' });
    await signIn(t.app, 'n@x.io', PASSWORD, { 'user-agent': 'UA-1' });
    expect(await lastMail(t.app, 'n@x.io', 'new_signin')).toBeUndefined();
    await signIn(t.app, 'n@x.io', PASSWORD, { 'user-agent': 'UA-2' });
    const mail = await lastMail(t.app, 'n@x.io', 'new_signin');
    expect(mail!.text).toContain('UA-2');
    const { token } = await signIn(t.app, 'n@x.io', PASSWORD, { 'user-agent': 'UA-2' });
    await t.app.inject({
      method: 'PATCH',
      url: '/api/notification',
      payload: { new_signin: false },
      headers: bearer(token),
    });
    await signIn(t.app, 'n@x.io', PASSWORD, { 'user-agent': 'UA-3' });
    expect((await lastMail(t.app, 'n@x.io', 'new_signin'))!.text).toContain('UA-2');
  });
});

describe('session check, sign-out, switch', () => {
  it('GET /api/auth is 200 authenticated:false without or with a bad token; sign-out revokes at once', async () => {
    await seedUser(t.app, { email: 'c@x.io' });
    expect((await t.app.inject({ url: '/api/auth' })).json()).toEqual({ data: { authenticated: false } });
    const bad = await t.app.inject({ url: '/api/auth', headers: bearer('x.y.z') });
    expect(bad.statusCode).toBe(200);
    expect(bad.json().data.authenticated).toBe(false);
    const { token } = await signIn(t.app, 'c@x.io');
    expect((await t.app.inject({ url: '/api/auth', headers: bearer(token) })).json().data).toMatchObject({
      authenticated: true,
      email: 'c@x.io',
    });
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/auth', headers: bearer(token) })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/auth', headers: bearer(token) })).json().data.authenticated).toBe(
      false,
    );
    expect((await t.app.inject({ url: '/api/user', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('switches to an account the user belongs to; another account is 404', async () => {
    const a = await seedUser(t.app, { email: 'sw@x.io', accountName: 'A' });
    const other = await seedUser(t.app, { email: 'o@x.io', accountName: 'B' });
    const third = await seedUser(t.app, { email: 'z@x.io', accountName: 'C' });
    const { db } = t;
    const { accountUsers } = await import('../src/db/schema');
    await db
      .insert(accountUsers)
      .values({ accountId: other.accountId, userId: a.userId, permission: 'admin' });
    const { token } = await signIn(t.app, 'sw@x.io');
    const res = await post('/api/auth/switch', { account: other.accountId }, bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ account_id: other.accountId, account_name: 'B', role: 'admin' });
    const newToken = res.json().data.token;
    expect(
      (await t.app.inject({ url: '/api/user/permissions', headers: bearer(newToken) })).json().data,
    ).toEqual({
      master: false,
      owner: false,
      admin: true,
      developer: false,
      user: true,
    });
    expect((await post('/api/auth/switch', { account: third.accountId }, bearer(newToken))).statusCode).toBe(
      404,
    );
    // The replaced token is ended.
    expect((await t.app.inject({ url: '/api/user', headers: bearer(token) })).statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('always 200; mails only existing users; the token is single use, email-bound, kept by a mismatch, and revokes all sessions', async () => {
    await seedUser(t.app, { email: 'r@x.io' });
    const { token: session } = await signIn(t.app, 'r@x.io');
    const none = await post('/api/auth/password/reset/request', { email: 'ghost@x.io' });
    expect(none.statusCode).toBe(200);
    expect(await lastMail(t.app, 'ghost@x.io')).toBeUndefined();
    const res = await post('/api/auth/password/reset/request', { email: 'R@x.io' });
    expect(res.json().message).toBe(none.json().message);
    const link = (await lastMail(t.app, 'r@x.io', 'reset'))!.links[0]!;
    expect(link).toMatch(/^http:\/\/air\.test\/resetpassword\?token=.+&email=r%40x\.io$/);
    const jwt = new URL(link).searchParams.get('token')!;

    const mismatch = await post('/api/auth/password/reset', {
      jwt,
      email: 'other@x.io',
      password: 'New-pass-1!',
    });
    expect(mismatch.statusCode).toBe(400);
    // The mismatch changed nothing (one transaction): the same link still works with the right email.
    const jwt2 = jwt;
    const weak = await post('/api/auth/password/reset', {
      jwt: jwt2,
      email: 'r@x.io',
      password: 'weakpassword',
    });
    expect(weak.json()).toMatchObject({ inputError: 'password' });
    const ok = await post('/api/auth/password/reset', {
      jwt: jwt2,
      email: 'r@x.io',
      password: 'New-pass-1!',
    });
    expect(ok.statusCode).toBe(200);
    expect(
      (await post('/api/auth/password/reset', { jwt: jwt2, email: 'r@x.io', password: 'New-pass-2!' }))
        .statusCode,
    ).toBe(400);
    expect((await t.app.inject({ url: '/api/user', headers: bearer(session) })).statusCode).toBe(401);
    await signIn(t.app, 'r@x.io', 'New-pass-1!');
    expect((await post('/api/auth', { email: 'r@x.io', password: PASSWORD })).statusCode).toBe(401);
  });

  it('an expired reset token is refused', async () => {
    const { userId } = await seedUser(t.app, { email: 'x@x.io' });
    const jwt = await issueToken(t.db, { kind: 'reset', userId, email: 'x@x.io', ttlMs: -1 });
    const res = await post('/api/auth/password/reset', { jwt, email: 'x@x.io', password: 'New-pass-1!' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/expired/);
  });
});
