import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oneTimeTokens, sessions } from '../src/db/schema';
import { AppError } from '../src/lib/app-error';
import { createAttemptLimiter } from '../src/lib/attempt-limiter';
import { sha256 } from '../src/lib/crypto';
import { signSessionToken, verifySessionToken } from '../src/lib/jwt';
import { consumeToken, issueToken } from '../src/modules/auth-otp/service';
import { hashPassword, verifyPassword } from '../src/lib/password';
import { renderTemplate } from '../src/mail/mailer';
import { completeSignIn, userPayload } from '../src/modules/auth/sign-in';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, lastMail, seedUser } from './identity-helpers';

const SECRET = 'test-secret-that-is-at-least-32-characters-long';

describe('password hashing', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('S3cret!pass');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hash, 'S3cret!pass')).toBe(true);
    expect(await verifyPassword(hash, 'S3cret!pasS')).toBe(false);
    expect(await verifyPassword(null, 'x')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });
});

describe('session JWT', () => {
  const claims = {
    userId: crypto.randomUUID(),
    accountId: crypto.randomUUID(),
    role: 'admin' as const,
    sessionId: crypto.randomUUID(),
  };
  it('round-trips and refuses tampering or another secret', async () => {
    const token = await signSessionToken(SECRET, claims);
    expect(await verifySessionToken(SECRET, token)).toEqual(claims);
    expect(await verifySessionToken(`${SECRET}-other`, token)).toBeNull();
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), perm: 'master' }),
    ).toString('base64url');
    expect(await verifySessionToken(SECRET, `${h}.${forged}.${s}`)).toBeNull();
    expect(await verifySessionToken(SECRET, 'garbage')).toBeNull();
  });
});

describe('attempt limiter', () => {
  const stores = [
    { name: 'memory', url: undefined as string | undefined },
    ...(process.env.TEST_REDIS_URL ? [{ name: 'redis', url: process.env.TEST_REDIS_URL }] : []),
  ];
  for (const store of stores) {
    it(`${store.name}: reserves before the check, refuses past the limit per key, releases and resets`, async () => {
      const redisPrefix = `air-test:${crypto.randomUUID()}`;
      const options = { redisUrl: store.url, redisPrefix, rules: { email: { limit: 3, windowMs: 60_000 } } };
      const limiter = await createAttemptLimiter(options);
      const keys = ['email:a@x.io', 'ip:1.1.1.1'];
      for (let i = 0; i < 3; i++) await limiter.reserve(keys);
      const error = await limiter.reserve(keys).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).statusCode).toBe(429);
      expect((error as AppError).retryAfter).toBeGreaterThan(50);
      expect((error as AppError).retryAfter).toBeLessThanOrEqual(60);
      // Another email from the same IP is still allowed: the refused attempt gave the IP's slot back.
      await expect(limiter.reserve(['email:b@x.io', 'ip:1.1.1.1'])).resolves.toBeUndefined();
      await limiter.release(['email:a@x.io']);
      await expect(limiter.reserve(keys)).resolves.toBeUndefined();
      await expect(limiter.reserve(keys)).rejects.toBeInstanceOf(AppError);
      await limiter.reset(['email:a@x.io']);
      await expect(limiter.reserve(keys)).resolves.toBeUndefined();
      // Unknown kinds use the per-email rule (10).
      const other = `magic:${crypto.randomUUID()}`;
      const burst = await Promise.allSettled(Array.from({ length: 200 }, () => limiter.reserve([other])));
      expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      if (store.url) {
        // A second instance shares the counters.
        const second = await createAttemptLimiter(options);
        await expect(second.reserve([other])).rejects.toBeInstanceOf(AppError);
        await second.close();
      }
      await limiter.close();
    });
  }
});

describe('with an app', () => {
  let t: TTestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  it('one-time tokens are stored hashed, single use, kind-bound and expire', async () => {
    const { userId } = await seedUser(t.app, { email: 'tok@x.io' });
    const raw = await issueToken(t.db, { kind: 'verify', userId, data: { a: 1 }, ttlMs: 60_000 });
    const [stored] = await t.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, userId));
    expect(stored!.tokenHash).toBe(sha256(raw));
    expect(JSON.stringify(stored)).not.toContain(raw);
    expect(await consumeToken(t.db, 'reset', raw)).toBeNull();
    const used = await consumeToken(t.db, 'verify', raw);
    expect(used).toMatchObject({ userId, data: { a: 1 } });
    expect(await consumeToken(t.db, 'verify', raw)).toBeNull();
    const expired = await issueToken(t.db, { kind: 'magic', email: 'Tok@X.io', ttlMs: -1 });
    expect(await consumeToken(t.db, 'magic', expired)).toBeNull();
    // Two concurrent uses: exactly one wins.
    const racy = await issueToken(t.db, { kind: 'otp', userId, ttlMs: 60_000 });
    const results = await Promise.all([consumeToken(t.db, 'otp', racy), consumeToken(t.db, 'otp', racy)]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('authorize: 401 without or with bad credentials, 403 below the permission, revoked session refused at once', async () => {
    const owner = await seedUser(t.app, { email: 'own@x.io', role: 'owner' });
    const dev = await seedUser(t.app, { email: 'dev@x.io', role: 'developer', accountId: owner.accountId });
    t.app.get('/test/admin', { preHandler: t.app.authorize({ permission: 'admin' }) }, async (request) => ({
      data: request.auth,
    }));
    t.app.get('/test/any', { preHandler: t.app.authorize({ permission: 'signed-in' }) }, async () => ({
      data: 'ok',
    }));
    t.app.post('/test/sign-in/:id', async (request) => ({
      data: await completeSignIn(t.app, request, { userId: (request.params as { id: string }).id }),
    }));
    const ownerToken = (await t.app.inject({ method: 'POST', url: `/test/sign-in/${owner.userId}` })).json()
      .data.token;
    const devToken = (await t.app.inject({ method: 'POST', url: `/test/sign-in/${dev.userId}` })).json().data
      .token;

    expect((await t.app.inject({ url: '/test/any' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/test/any', headers: bearer('nope') })).statusCode).toBe(401);
    const adminRes = await t.app.inject({ url: '/test/admin', headers: bearer(ownerToken) });
    expect(adminRes.statusCode).toBe(200);
    expect(adminRes.json().data).toMatchObject({
      kind: 'session',
      userId: owner.userId,
      role: 'owner',
      permission: { owner: true, admin: true },
    });
    expect((await t.app.inject({ url: '/test/admin', headers: bearer(devToken) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/test/any', headers: bearer(devToken) })).statusCode).toBe(200);

    await t.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, dev.userId));
    await t.app.changes.publish({ kind: 'user', userId: dev.userId });
    expect((await t.app.inject({ url: '/test/any', headers: bearer(devToken) })).statusCode).toBe(401);
  });

  it('userPayload carries every User field; the free plan reports an active subscription', async () => {
    const { userId, accountId } = await seedUser(t.app, { email: 'p@x.io', role: 'owner' });
    const user = await userPayload(t.app, userId, accountId);
    expect(Object.keys(user).sort()).toEqual(
      [
        'id',
        'name',
        'email',
        'avatar',
        'verified',
        'role',
        'permission',
        'has_password',
        '2fa_enabled',
        'support_enabled',
        'accounts',
        'default_account',
        'account_id',
        'account_name',
        'locale',
        'dark_mode',
        'plan',
        'subscription',
        'onboarded',
        'duplicate_user',
        'last_login',
        'date_created',
      ].sort(),
    );
    expect(user).toMatchObject({
      plan: 'free',
      subscription: { status: 'active' },
      has_password: true,
      accounts: [{ id: accountId }],
    });
    await expect(userPayload(t.app, userId, crypto.randomUUID())).rejects.toMatchObject({ statusCode: 404 });
  });

  it('the mailer stores outbox mail with links; templates render en and es, HTML and text', async () => {
    await t.app.ready();
    expect(t.app.mailer.transport).toBe('outbox');
    await t.app.mailer.send({
      to: 'Mail@X.io',
      locale: 'es',
      template: 'verify',
      params: { name: 'Ana', url: 'http://a.test/signup/verify?token=abc' },
    });
    const mail = await lastMail(t.app, 'mail@x.io');
    expect(mail).toMatchObject({ template: 'verify', links: ['http://a.test/signup/verify?token=abc'] });
    expect(mail!.subject).toContain('Verifica');
    expect(mail!.text).toContain('http://a.test/signup/verify?token=abc');
    for (const template of ['verify', 'reset', 'new_signin', 'invite_accepted']) {
      const params = {
        name: '<b>x</b>',
        url: 'http://a.test/x',
        ip: '1.2.3.4',
        device: 'UA',
        time: new Date().toISOString(),
        member_name: 'M',
        member_email: 'm@x.io',
        account_name: 'Acme',
      };
      const en = await renderTemplate(t.config, { to: 'x@x.io', locale: 'en', template, params });
      const es = await renderTemplate(t.config, { to: 'x@x.io', locale: 'es', template, params });
      expect(en.subject).not.toBe(es.subject);
      expect(en.html).toContain('&lt;b&gt;x&lt;/b&gt;');
      expect(en.text.length).toBeGreaterThan(20);
    }
    await expect(t.app.mailer.send({ to: 'x@x.io', locale: 'en', template: '../evil' })).rejects.toThrow(
      /Invalid/,
    );
  });
});
