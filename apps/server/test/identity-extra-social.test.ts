import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcClients, OidcError } from '../src/lib/oidc';
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
    await expect(clients.finish(flow, callback)).resolves.toMatchObject({ email: 'ana@example.com' });
  });

  it('refuses an email the provider marks unverified, and a state mismatch', async () => {
    const first = await clients.start('testid');
    const callback = await signInAtProvider(first.url.href, 'unverified:bob@example.com', REDIRECT);
    await expect(clients.finish(first.flow, callback)).rejects.toMatchObject({ reason: 'email_unverified' });
    const second = await clients.start('testid');
    const other = await signInAtProvider(second.url.href, 'carol@example.com', REDIRECT);
    await expect(clients.finish({ ...second.flow, state: 'forged' }, other)).rejects.toBeInstanceOf(
      OidcError,
    );
  });
});
