import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { decryptSecret } from '../src/lib/crypto';
import { issueToken, TOKEN_TTL_MS } from '../src/modules/auth-otp/service';
import { totpCode } from '../src/lib/totp';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createUser, PASSWORD, sessionTokenFor } from './identity-extra-helpers';

describe('two-factor authentication', () => {
  let t: TTestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  /** Turns 2FA on through the API and answers the secret and the backup code. */
  async function enable(token: string) {
    const setup = await t.app.inject({
      method: 'PUT',
      url: '/api/user/2fa',
      headers: bearer(token),
      payload: { '2fa_enabled': true },
    });
    expect(setup.statusCode).toBe(200);
    const data = setup.json().data;
    expect(data['2fa_enabled']).toBe(false);
    expect(data.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    // The previous step's code (within the ±1 window), so the current one stays free for sign-in.
    const confirmCode = totpCode(data.secret, Date.now() - 30_000);
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/user/2fa/verify',
      headers: bearer(token),
      payload: { code: confirmCode },
    });
    expect(verify.statusCode).toBe(200);
    return {
      secret: data.secret as string,
      confirmCode,
      backupCode: verify.json().data.backup_code as string,
    };
  }

  async function pendingToken(userId: string) {
    return issueToken(t.db, { kind: 'otp', userId, data: {}, ttlMs: TOKEN_TTL_MS.otp });
  }

  function otp(code: string, jwt: string, ip = '10.0.0.1') {
    return t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { code, jwt }, remoteAddress: ip });
  }

  it('requires a session, refuses a wrong first code and a verify with nothing pending', async () => {
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/user/2fa', payload: { '2fa_enabled': true } }))
        .statusCode,
    ).toBe(401);
    const { user } = await createUser(t.db, { email: 'ana@example.com' });
    const token = await sessionTokenFor(t.app, user.id);
    const nothing = await t.app.inject({
      method: 'POST',
      url: '/api/user/2fa/verify',
      headers: bearer(token),
      payload: { code: '123456' },
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().inputError).toBe('code');
    const setup = await t.app.inject({
      method: 'PUT',
      url: '/api/user/2fa',
      headers: bearer(token),
      payload: { '2fa_enabled': true },
    });
    const secret = setup.json().data.secret as string;
    const wrongCode = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/user/2fa/verify',
      headers: bearer(token),
      payload: { code: wrongCode },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      inputError: 'code',
      message: 'The code is incorrect or has already been used',
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.totpEnabled).toBe(false);
    // Stored encrypted, never as the base32 text.
    expect(row!.totpPendingSecretEnc).not.toContain(secret);
    expect(decryptSecret(t.config.secret, row!.totpPendingSecretEnc!)).toBe(secret);
  });

  it('enables 2FA, then signs in with a computed TOTP code; the same code is refused the second time', async () => {
    const { user } = await createUser(t.db, { email: 'ana@example.com' });
    const { secret, backupCode, confirmCode } = await enable(await sessionTokenFor(t.app, user.id));
    expect(backupCode).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ totpEnabled: true, totpPendingSecretEnc: null });
    expect(row!.backupCodeHash).not.toContain(backupCode.replace(/-/g, ''));

    // The code used to confirm (previous step) cannot sign in afterwards.
    const first = await pendingToken(user.id);
    expect((await otp(confirmCode, first)).statusCode).toBe(401);

    const code = totpCode(secret);
    const ok = await otp(code, first);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ email: 'ana@example.com', '2fa_enabled': true });
    expect(typeof ok.json().data.token).toBe('string');

    // The pending token is used up, and the same code with a fresh token is a replay.
    expect((await otp(totpCode(secret), first)).statusCode).toBe(401);
    const replay = await otp(code, await pendingToken(user.id));
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ inputError: 'code' });
  });

  it('a wrong code keeps the pending token, counts toward the limit, and answers 429 past it', async () => {
    const { user } = await createUser(t.db, { email: 'ana@example.com' });
    const { secret } = await enable(await sessionTokenFor(t.app, user.id));
    const jwt = await pendingToken(user.id);
    const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    const first = await otp(wrong, jwt);
    expect(first.statusCode).toBe(401);
    expect(first.json()).toEqual({
      code: 'unauthenticated',
      message: 'The code is incorrect or has already been used',
      inputError: 'code',
    });
    // Still usable after a wrong code.
    expect((await otp(totpCode(secret), jwt)).statusCode).toBe(200);

    const again = await pendingToken(user.id);
    // The success above cleared the email's count: ten new failures reach the limit.
    for (let i = 0; i < 10; i++) expect((await otp(wrong, again)).statusCode).toBe(401);
    const limited = await otp(totpCode(secret, Date.now() + 30_000), again);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('accepts the backup code once (2FA stays on), and a disable clears everything', async () => {
    const { user } = await createUser(t.db, { email: 'ana@example.com' });
    const session = await sessionTokenFor(t.app, user.id);
    const { backupCode, secret } = await enable(session);
    const typed = backupCode.toLowerCase().replace(/-/g, ' ');
    const ok = await otp(typed, await pendingToken(user.id));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data['2fa_enabled']).toBe(true);
    expect((await otp(backupCode, await pendingToken(user.id))).statusCode).toBe(401);

    const toggleOff = (code?: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/user/2fa',
        headers: bearer(session),
        payload: { '2fa_enabled': false, ...(code === undefined ? {} : { code }) },
      });
    // A session alone cannot turn it off: a current code (or the backup code) is needed.
    const bare = await toggleOff();
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ inputError: 'code' });
    const wrong = await toggleOff('000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ inputError: 'code', message: expect.stringMatching(/incorrect/) });
    expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]!.totpEnabled).toBe(true);
    const off = await toggleOff(totpCode(secret));
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({
      data: { '2fa_enabled': false },
      message: 'Two-factor authentication is off',
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({
      totpEnabled: false,
      totpSecretEnc: null,
      totpPendingSecretEnc: null,
      backupCodeHash: null,
    });
  });

  it('signs in with password then code when POST /api/auth answers 2fa_required', async () => {
    const { user } = await createUser(t.db, { email: 'ana@example.com' });
    const { secret } = await enable(await sessionTokenFor(t.app, user.id));
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { email: 'ana@example.com', password: PASSWORD },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ '2fa_required': true, token: expect.any(String) });
    const second = await otp(totpCode(secret), first.json().data.token);
    expect(second.statusCode).toBe(200);
    expect(second.json().data.email).toBe('ana@example.com');
  });
});
