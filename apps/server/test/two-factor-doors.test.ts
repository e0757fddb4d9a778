import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZSignInData } from '@air/shared/schemas/user';
import { sessions, users } from '../src/db/schema';
import { issueToken, TOKEN_TTL_MS } from '../src/modules/auth-otp/service';
import { totpCode } from '../src/lib/totp';
import { makeMaster } from '../src/modules/auth-impersonate/service';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createUser, PASSWORD, sessionTokenFor } from './identity-extra-helpers';
import { inviteToken } from './teams-helpers';

/*
 * Issue 21, item 2: two-factor holds through every door. Every route that can answer with a
 * session is found in the route table (its response schema carries the sign-in data); each one
 * must have a scenario below that drives it as a user with two-factor on and sees `2fa_required`
 * and no new session, or (the code step itself, and switching within a live session) shows why it
 * is the second factor or continues one. A new session-creating route without a scenario fails
 * the first test. The second test holds the code to one door: only `openSession` opens a session.
 */

let t: TTestApp;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  t = await createTestApp({}, { onRoute: (route) => void routes.push(route) });
});
afterAll(async () => {
  await t?.close();
});

/** Does a response schema answer the sign-in data (a session token and the user)? */
function answersSession(schema: unknown): boolean {
  const data = (schema as { shape?: { data?: z.ZodType } } | undefined)?.shape?.data;
  if (!data) return false;
  if (data === ZSignInData) return true;
  return data instanceof z.ZodUnion && (data.options as unknown[]).includes(ZSignInData);
}

function sessionRoutes(): string[] {
  const found = new Set<string>();
  for (const route of routes) {
    const responses = Object.values((route.schema?.response ?? {}) as Record<string, unknown>);
    if (!responses.some(answersSession)) continue;
    for (const method of [route.method].flat()) found.add(`${method} ${route.url}`);
  }
  return [...found].sort();
}

let seq = 0;
/** A user with two-factor on (through the API), signed in once to turn it on. */
async function twoFactorUser(role: 'owner' | 'user' = 'owner') {
  const email = `door-${process.pid}-${seq++}@example.com`;
  const { user, account } = await createUser(t.db, { email, role });
  const token = await sessionTokenFor(t.app, user.id);
  const setup = await t.app.inject({
    method: 'PUT',
    url: '/api/user/2fa',
    headers: bearer(token),
    payload: { '2fa_enabled': true },
  });
  const secret = setup.json().data.secret as string;
  const verify = await t.app.inject({
    method: 'POST',
    url: '/api/user/2fa/verify',
    headers: bearer(token),
    payload: { code: totpCode(secret, Date.now() - 30_000) },
  });
  expect(verify.statusCode, verify.body).toBe(200);
  return { user, account, email, secret, token };
}

async function sessionCount(userId: string): Promise<number> {
  return (await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).length;
}

/** The answer is the pending second factor and no session was opened for `userId`. */
async function expectCodeAsked(
  answer: { statusCode: number; body: string; json(): { data: Record<string, unknown> } },
  userId: string,
  before: number,
) {
  expect(answer.statusCode, answer.body).toBeLessThan(300);
  expect(Object.keys(answer.json().data).sort()).toEqual(['2fa_required', 'token']);
  expect(answer.json().data['2fa_required']).toBe(true);
  expect(await sessionCount(userId)).toBe(before);
  return answer.json().data.token as string;
}

function post(url: string, payload: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload, headers });
}

const SCENARIOS: Record<string, () => Promise<void>> = {
  'POST /api/auth': async () => {
    // Password, and the one-time token the social sign-in callback hands the console.
    const u = await twoFactorUser();
    const before = await sessionCount(u.user.id);
    await expectCodeAsked(await post('/api/auth', { email: u.email, password: PASSWORD }), u.user.id, before);
    const social = await issueToken(t.db, {
      kind: 'social',
      userId: u.user.id,
      data: {},
      ttlMs: TOKEN_TTL_MS.social,
    });
    await expectCodeAsked(await post('/api/auth', { token: social }), u.user.id, before);
  },

  'POST /api/auth/magic/verify': async () => {
    const u = await twoFactorUser();
    const before = await sessionCount(u.user.id);
    const magic = await issueToken(t.db, {
      kind: 'magic',
      userId: u.user.id,
      data: {},
      ttlMs: TOKEN_TTL_MS.magic,
    });
    await expectCodeAsked(await post('/api/auth/magic/verify', { token: magic }), u.user.id, before);
  },

  'POST /api/user': async () => {
    // The finding: an invite accepted with the password opened a full session, no code asked.
    const inviter = await createUser(t.db, { email: `inviter-${process.pid}-${seq++}@example.com` });
    const inviterToken = await sessionTokenFor(t.app, inviter.user.id);
    const u = await twoFactorUser('user');
    const invited = await post(
      '/api/invite',
      { email: u.email, permission: 'developer' },
      bearer(inviterToken),
    );
    expect(invited.statusCode, invited.body).toBe(200);
    const before = await sessionCount(u.user.id);
    const answer = await post('/api/user', {
      email: u.email,
      password: PASSWORD,
      invite_id: await inviteToken(t.app, u.email),
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const pending = await expectCodeAsked(answer, u.user.id, before);
    // The code then lands in the inviting account.
    const signedIn = await post('/api/auth/otp', { code: totpCode(u.secret), jwt: pending });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data.account_id).toBe(inviter.account.id);
    expect(signedIn.json().data.role).toBe('developer');
  },

  'POST /api/account': async () => {
    // An existing user (a member elsewhere, owning nothing) signing up for an account of their own.
    const u = await twoFactorUser('user');
    const before = await sessionCount(u.user.id);
    const answer = await post('/api/account', {
      name: 'Second',
      email: u.email,
      password: PASSWORD,
      confirm_password: '',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    await expectCodeAsked(answer, u.user.id, before);
  },

  'POST /api/auth/impersonate': async () => {
    // The second factor asked is the master's: the person who will hold the session.
    const master = await twoFactorUser();
    await makeMaster(t.db, master.email);
    const target = await createUser(t.db, { email: `target-${process.pid}-${seq++}@example.com` });
    await t.db.update(users).set({ supportEnabled: true }).where(eq(users.id, target.user.id));
    const link = () =>
      issueToken(t.db, {
        kind: 'impersonate',
        userId: target.user.id,
        data: { impersonatorUserId: master.user.id },
        ttlMs: TOKEN_TTL_MS.impersonate,
      });
    const before = await sessionCount(target.user.id);
    const pending = await expectCodeAsked(
      await post('/api/auth/impersonate', { token: await link() }),
      target.user.id,
      before,
    );
    const signedIn = await post('/api/auth/otp', { code: totpCode(master.secret), jwt: pending });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data.id).toBe(target.user.id);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.userId, target.user.id));
    expect(row?.impersonatorUserId).toBe(master.user.id);
  },

  'POST /api/auth/otp': async () => {
    // The second factor itself: a wrong code opens nothing; the right one opens the session.
    const u = await twoFactorUser();
    const before = await sessionCount(u.user.id);
    const pending = await expectCodeAsked(
      await post('/api/auth', { email: u.email, password: PASSWORD }),
      u.user.id,
      before,
    );
    const wrong = await post('/api/auth/otp', { code: '000000', jwt: pending });
    expect(wrong.statusCode).toBe(401);
    expect(await sessionCount(u.user.id)).toBe(before);
    const right = await post('/api/auth/otp', { code: totpCode(u.secret), jwt: pending });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().data.token).toEqual(expect.any(String));
    expect(await sessionCount(u.user.id)).toBe(before + 1);
  },

  'POST /api/auth/switch': async () => {
    // Continues a live session only: nothing, or the pending token, is no session to continue.
    const u = await twoFactorUser();
    const before = await sessionCount(u.user.id);
    const pending = await expectCodeAsked(
      await post('/api/auth', { email: u.email, password: PASSWORD }),
      u.user.id,
      before,
    );
    const body = { account: u.account.id };
    expect((await post('/api/auth/switch', body)).statusCode).toBe(401);
    expect((await post('/api/auth/switch', body, bearer(pending))).statusCode).toBe(401);
    expect(await sessionCount(u.user.id)).toBe(before);
    const switched = await post('/api/auth/switch', body, bearer(u.token));
    expect(switched.statusCode, switched.body).toBe(200);
  },
};

describe('two-factor through every door', () => {
  it('every route that answers a session has a two-factor scenario here (from the route table)', () => {
    const found = sessionRoutes();
    expect(found.length).toBeGreaterThanOrEqual(7);
    expect(found).toEqual(Object.keys(SCENARIOS).sort());
  });

  for (const [route, scenario] of Object.entries(SCENARIOS)) {
    it(route, scenario);
  }

  it('password reset opens no session (the console signs in afterwards, through POST /api/auth)', () => {
    const reset = routes.find((route) => route.url === '/api/auth/password/reset' && route.method === 'POST');
    expect(reset).toBeDefined();
    expect(
      Object.values((reset!.schema?.response ?? {}) as Record<string, unknown>).some(answersSession),
    ).toBe(false);
  });
});

describe('one function opens sessions', () => {
  const src = path.resolve(import.meta.dirname, '../src');
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return files(full);
      return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
    });
  }

  it('completeSignIn and createSession are called only on the way through openSession', () => {
    const callers: string[] = [];
    for (const file of files(src)) {
      const text = readFileSync(file, 'utf8');
      const relative = path.relative(src, file);
      for (const name of ['completeSignIn', 'createSession']) {
        const calls = text.match(new RegExp(`(?<!function )\\b${name}\\(`, 'g'))?.length ?? 0;
        if (calls > 0) callers.push(`${relative}: ${name} x${calls}`);
      }
    }
    expect(callers.sort()).toEqual([
      'modules/auth/sign-in.ts: completeSignIn x1',
      'modules/auth/sign-in.ts: createSession x1',
    ]);
  });
});
