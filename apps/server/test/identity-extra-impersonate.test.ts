import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseImpersonateArgs } from '../src/cli/impersonate';
import { accountUsers, oneTimeTokens, sessions, users } from '../src/db/schema';
import { sha256 } from '../src/lib/crypto';
import { issueToken, TOKEN_TTL_MS } from '../src/modules/auth-otp/service';
import { CliError, makeMaster, mintImpersonationLink } from '../src/modules/auth-impersonate/service';
import { createTestApp, type TTestApp } from './helpers';
import { createUser } from './identity-extra-helpers';

describe('impersonation', () => {
  let t: TTestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  function impersonate(token: string) {
    return t.app.inject({ method: 'POST', url: '/api/auth/impersonate', payload: { token } });
  }

  it('create-master marks the user and gives them the master role in a Master account, idempotently', async () => {
    const { user, account } = await createUser(t.db, { email: 'boss@example.com' });
    const first = await makeMaster(t.db, 'Boss@Example.com');
    expect(first.created).toBe(true);
    const again = await makeMaster(t.db, 'boss@example.com');
    expect(again).toEqual({ ...first, created: false });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.isMaster).toBe(true);
    const roles = await t.db.select().from(accountUsers).where(eq(accountUsers.userId, user.id));
    expect(roles.map((r) => [r.accountId, r.permission]).sort()).toEqual(
      [
        [account.id, 'owner'],
        [first.accountId, 'master'],
      ].sort(),
    );
    await expect(makeMaster(t.db, 'nobody@example.com')).rejects.toBeInstanceOf(CliError);
  });

  it('mints a link only for a master, and it signs in once as the user with the impersonator recorded', async () => {
    const { user: target } = await createUser(t.db, { email: 'ana@example.com' });
    const { user: boss } = await createUser(t.db, { email: 'boss@example.com', name: 'Boss' });
    await expect(mintImpersonationLink(t.db, t.config.appUrl, 'ana@example.com')).rejects.toThrow(
      /no master yet/,
    );
    await makeMaster(t.db, 'boss@example.com');
    await expect(
      mintImpersonationLink(t.db, t.config.appUrl, 'ana@example.com', 'ana@example.com'),
    ).rejects.toThrow(/is not a master/);
    await expect(mintImpersonationLink(t.db, t.config.appUrl, 'boss@example.com')).rejects.toThrow(
      /themselves/,
    );
    // Support access is the user's choice (profile support_enabled), off by default.
    await expect(mintImpersonationLink(t.db, t.config.appUrl, 'ana@example.com')).rejects.toThrow(
      /has not allowed support access/,
    );
    await t.db.update(users).set({ supportEnabled: true }).where(eq(users.id, target.id));

    const link = await mintImpersonationLink(t.db, t.config.appUrl, 'ANA@example.com');
    expect(link.masterEmail).toBe('boss@example.com');
    expect(link.url.startsWith(`${t.config.appUrl}/signin/impersonate?token=`)).toBe(true);
    expect(link.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const token = new URL(link.url).searchParams.get('token')!;

    const ok = await impersonate(token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ email: 'ana@example.com', token: expect.any(String) });
    const [session] = await t.db.select().from(sessions).where(eq(sessions.userId, target.id));
    expect(session!.impersonatorUserId).toBe(boss.id);

    const reused = await impersonate(token);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(
      'This impersonation link is invalid, has expired or has already been used.',
    );
  });

  it('refuses an expired link, a token of another kind, and a link whose master was demoted', async () => {
    const { user: ana } = await createUser(t.db, { email: 'ana@example.com' });
    const { user: boss } = await createUser(t.db, { email: 'boss@example.com' });
    await makeMaster(t.db, 'boss@example.com');
    await t.db.update(users).set({ supportEnabled: true }).where(eq(users.id, ana.id));
    const magic = await issueToken(t.db, {
      kind: 'magic',
      userId: ana.id,
      data: { impersonatorUserId: boss.id },
      ttlMs: TOKEN_TTL_MS.magic,
    });
    expect((await impersonate(magic)).statusCode).toBe(401);
    const expired = new URL(
      (await mintImpersonationLink(t.db, t.config.appUrl, 'ana@example.com')).url,
    ).searchParams.get('token')!;
    await t.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.tokenHash, sha256(expired)), eq(oneTimeTokens.kind, 'impersonate')));
    expect((await impersonate(expired)).statusCode).toBe(401);

    const demoted = new URL(
      (await mintImpersonationLink(t.db, t.config.appUrl, 'ana@example.com')).url,
    ).searchParams.get('token')!;
    const withdrawn = new URL(
      (await mintImpersonationLink(t.db, t.config.appUrl, 'ana@example.com')).url,
    ).searchParams.get('token')!;
    await t.db.update(users).set({ isMaster: false }).where(eq(users.id, boss.id));
    expect((await impersonate(demoted)).statusCode).toBe(401);
    // The user turned support access off after the link was minted.
    await t.db.update(users).set({ isMaster: true }).where(eq(users.id, boss.id));
    await t.db.update(users).set({ supportEnabled: false }).where(eq(users.id, ana.id));
    expect((await impersonate(withdrawn)).statusCode).toBe(401);
    expect((await impersonate('')).statusCode).toBe(400);
  });

  it('parses the CLI arguments', () => {
    expect(parseImpersonateArgs(['ana@example.com'])).toEqual({ email: 'ana@example.com' });
    expect(parseImpersonateArgs(['ana@example.com', '--as', 'boss@example.com'])).toEqual({
      email: 'ana@example.com',
      as: 'boss@example.com',
    });
    expect(parseImpersonateArgs([])).toBeNull();
    expect(parseImpersonateArgs(['a@x.com', 'b@x.com'])).toBeNull();
    expect(parseImpersonateArgs(['a@x.com', '--as'])).toBeNull();
  });
});
