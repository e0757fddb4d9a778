import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userIdentities, users } from '../src/db/schema';
import { OidcClients, OidcError } from '../src/lib/oidc';
import { createTestApp, type TTestApp } from './helpers';
import { createUser } from './identity-extra-helpers';
import { signInAtProvider, startOidcProvider, type TTestOidcProvider } from './identity-extra-oidc';

const APP_URL = 'http://127.0.0.1:3000';
const REDIRECT = `${APP_URL}/api/auth/social/testid/callback`;

describe('OIDC client against a real oidc-provider', () => {
  let idp: TTestOidcProvider;
  let clients: OidcClients;
  beforeAll(async () => {
    idp = await startOidcProvider(REDIRECT);
    clients = new OidcClients(
      [{ name: 'testid', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }],
      APP_URL,
      false,
    );
  });
  afterAll(() => idp.close());

  it('runs the code flow with PKCE and answers the verified email', async () => {
    const { url, flow } = await clients.start('testid');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await signInAtProvider(url.href, 'Ana@Example.com', REDIRECT);
    expect(callback.searchParams.get('state')).toBe(flow.state);
    await expect(clients.finish(flow, callback)).resolves.toMatchObject({
      email: 'ana@example.com',
      emailVerified: true,
      subject: 'Ana@Example.com',
    });
  });

  it('answers an unverified or unclaimed email as not verified, and refuses a state mismatch', async () => {
    for (const login of ['unverified:bob@example.com', 'noclaim:bob@example.com']) {
      const started = await clients.start('testid');
      const callback = await signInAtProvider(started.url.href, login, REDIRECT);
      await expect(clients.finish(started.flow, callback)).resolves.toMatchObject({
        email: 'bob@example.com',
        emailVerified: false,
      });
    }
    const second = await clients.start('testid');
    const other = await signInAtProvider(second.url.href, 'carol@example.com', REDIRECT);
    await expect(clients.finish({ ...second.flow, state: 'forged' }, other)).rejects.toBeInstanceOf(
      OidcError,
    );
  });
});

describe('social sign-in routes', () => {
  let idp: TTestOidcProvider;
  let t: TTestApp;
  const callbackPrefix = `${APP_URL}/api/auth/social/testid/callback`;

  beforeAll(async () => {
    idp = await startOidcProvider(callbackPrefix);
  });
  afterAll(() => idp.close());
  beforeEach(async () => {
    t = await createTestApp({
      appUrl: APP_URL,
      oidcProviders: [
        { name: 'testid', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
      ],
    });
  });
  afterEach(() => t.close());

  /** Browser steps: AIR start → provider login and consent → AIR callback; answers the final landing URL. */
  async function socialSignIn(login: string, options: { dropCookie?: boolean } = {}) {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/social/testid' });
    expect(start.statusCode).toBe(302);
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toMatch(/^air_oidc=v1\./);
    expect(String(start.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
    const callback = await signInAtProvider(String(start.headers.location), login, callbackPrefix);
    const back = await t.app.inject({
      method: 'GET',
      url: callback.pathname + callback.search,
      headers: options.dropCookie ? {} : { cookie },
    });
    expect(back.statusCode).toBe(302);
    expect(String(back.headers['set-cookie'])).toMatch(/^air_oidc=; .*Max-Age=0/);
    return new URL(String(back.headers.location));
  }

  it('lists the configured providers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(response.json()).toEqual({ data: [{ name: 'testid', label: 'Testid' }] });
  });

  it('signs a known user in: callback token, then POST /api/auth { token } once', async () => {
    await createUser(t.db, { email: 'ana@example.com' });
    const landing = await socialSignIn('Ana@Example.com');
    expect(landing.origin + landing.pathname).toBe(`${APP_URL}/signin/social`);
    expect(landing.searchParams.get('provider')).toBe('testid');
    expect(landing.searchParams.get('error')).toBeNull();
    const token = landing.searchParams.get('token')!;
    expect(token).toBeTruthy();

    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth', payload: { token } });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().data).toMatchObject({ email: 'ana@example.com', token: expect.any(String) });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth', payload: { token } })).statusCode).toBe(
      401,
    );
  });

  it('refuses an email with no account (no account is created), and a callback from another browser', async () => {
    const landing = await socialSignIn('stranger@example.com');
    expect(landing.searchParams.get('token')).toBeNull();
    expect(landing.searchParams.get('error')).toBe(
      'No account uses the email address of your Testid account. Sign up first, or sign in another way.',
    );
    expect(await t.db.select().from(users).where(eq(users.email, 'stranger@example.com'))).toHaveLength(0);

    await createUser(t.db, { email: 'ana@example.com' });
    const forged = await socialSignIn('ana@example.com', { dropCookie: true });
    expect(forged.searchParams.get('token')).toBeNull();
    expect(forged.searchParams.get('error')).toMatch(/took too long or was started in another browser/);
  });

  it('redirects with an error for an unknown provider and an unverified email', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/auth/social/nope',
      headers: { 'accept-language': 'es' },
    });
    expect(unknown.statusCode).toBe(302);
    expect(new URL(String(unknown.headers.location)).searchParams.get('error')).toBe(
      'Este proveedor de inicio de sesión no está disponible.',
    );
    await createUser(t.db, { email: 'bob@example.com' });
    const landing = await socialSignIn('unverified:bob@example.com');
    expect(landing.searchParams.get('error')).toMatch(/has not verified your email address/);
  });

  it('links by email only when email_verified is true, then matches on provider + subject', async () => {
    const { user } = await createUser(t.db, { email: 'dee@example.com' });
    // No email_verified claim at all: not linked, no token.
    const unclaimed = await socialSignIn('noclaim:dee@example.com');
    expect(unclaimed.searchParams.get('token')).toBeNull();
    expect(unclaimed.searchParams.get('error')).toMatch(/has not verified your email address/);
    expect(await t.db.select().from(userIdentities)).toHaveLength(0);

    const verified = await socialSignIn('dee@example.com');
    expect(verified.searchParams.get('token')).toBeTruthy();
    expect(await t.db.select().from(userIdentities)).toMatchObject([
      { userId: user.id, provider: 'testid', subject: 'dee@example.com' },
    ]);
    // The user's email changes: the linked subject still signs them in.
    await t.db.update(users).set({ email: 'dee.new@example.com' }).where(eq(users.id, user.id));
    const again = await socialSignIn('dee@example.com');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { token: again.searchParams.get('token') },
    });
    expect(signIn.json().data).toMatchObject({ id: user.id, email: 'dee.new@example.com' });
  });
});
