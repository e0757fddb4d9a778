import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oneTimeTokens, users } from '../src/db/schema';
import { sha256 } from '../src/lib/crypto';
import { totpCode } from '../src/lib/totp';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createUser, mailsTo, sessionTokenFor } from './identity-extra-helpers';

describe('magic-link sign-in', () => {
  let t: TTestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  async function requestLink(email: string, locale = 'en') {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/magic',
      headers: { 'accept-language': locale },
      payload: { email },
    });
    expect(response.statusCode).toBe(200);
    return response;
  }

  async function tokenFromMail(email: string) {
    const [mail] = await mailsTo(t.db, email);
    expect(mail).toBeDefined();
    const link = mail!.links.find((l) => l.startsWith(`${t.config.appUrl}/magic?token=`));
    expect(link).toBeDefined();
    return { mail: mail!, token: new URL(link!).searchParams.get('token')! };
  }

  function verify(token: string, ip = '10.0.0.2') {
    return t.app.inject({
      method: 'POST',
      url: '/api/auth/magic/verify',
      payload: { token },
      remoteAddress: ip,
    });
  }

  it('mails a link in the user locale that signs in once; reuse is refused', async () => {
    const { user } = await createUser(t.db, { email: 'ana@example.com', locale: 'es' });
    await t.db.update(users).set({ verified: false }).where(eq(users.id, user.id));
    const answer = await requestLink('ANA@example.com ');
    expect(answer.json().message).toMatch(/If an account exists/);
    const { mail, token } = await tokenFromMail('ana@example.com');
    expect(mail.subject).toBe('Tu enlace para iniciar sesión en AIR');
    expect(mail.text).toContain(`/magic?token=${token}`);
    expect(mail.html).toContain('15 minutos');

    const ok = await verify(token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({
      email: 'ana@example.com',
      verified: true,
      token: expect.any(String),
    });

    const reused = await verify(token);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(
      'This sign-in link is invalid, has expired or has already been used. Please request a new one.',
    );
  });

  it('refuses an expired link and an unknown token', async () => {
    await createUser(t.db, { email: 'ana@example.com' });
    await requestLink('ana@example.com');
    const { token } = await tokenFromMail('ana@example.com');
    await t.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.tokenHash, sha256(token)));
    expect((await verify(token)).statusCode).toBe(401);
    expect((await verify('not-a-real-token')).statusCode).toBe(401);
  });

  it('answers 200 for an unknown email and sends nothing', async () => {
    const answer = await requestLink('nobody@example.com');
    expect(answer.json()).toEqual({ message: expect.stringMatching(/If an account exists/) });
    expect(await mailsTo(t.db, 'nobody@example.com')).toHaveLength(0);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/magic',
      payload: { email: 'not-an-email' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().inputError).toBe('email');
  });

  it('honours two-factor: the link answers 2fa_required, then the code signs in', async () => {
    const { user } = await createUser(t.db, { email: 'ana@example.com' });
    const session = await sessionTokenFor(t.app, user.id);
    const setup = await t.app.inject({
      method: 'PUT',
      url: '/api/user/2fa',
      headers: bearer(session),
      payload: { '2fa_enabled': true },
    });
    const secret = setup.json().data.secret as string;
    await t.app.inject({
      method: 'POST',
      url: '/api/user/2fa/verify',
      headers: bearer(session),
      payload: { code: totpCode(secret, Date.now() - 30_000) },
    });

    await requestLink('ana@example.com');
    const { token } = await tokenFromMail('ana@example.com');
    const first = await verify(token);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ '2fa_required': true, token: expect.any(String) });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp',
      payload: { code: totpCode(secret), jwt: first.json().data.token },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().data.email).toBe('ana@example.com');
  });

  it('caps the links one address can be sent, whether or not it has an account', async () => {
    await createUser(t.db, { email: 'ana@example.com' });
    for (const email of ['ana@example.com', 'nobody@example.com']) {
      for (let i = 0; i < 10; i++) await requestLink(email);
      const capped = await t.app.inject({ method: 'POST', url: '/api/auth/magic', payload: { email } });
      expect(capped.statusCode).toBe(429);
    }
    expect(await mailsTo(t.db, 'ana@example.com')).toHaveLength(10);
  });

  it('limits bad links per IP with 429', async () => {
    for (let i = 0; i < 50; i++) expect((await verify(`bad-${i}`, '10.9.9.9')).statusCode).toBe(401);
    const limited = await verify('bad-last', '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await verify('bad-other-ip', '10.9.9.8')).statusCode).toBe(401);
  });
});
