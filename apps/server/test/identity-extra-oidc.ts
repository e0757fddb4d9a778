import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (panva's oidc-provider) on a loopback port, for social sign-in tests,
 * plus a fetch-driven browser that signs in through its development login and consent pages.
 * The account id typed at the login page is used as the account's email address; a login of
 * `unverified:<email>` yields that email with `email_verified: false`, and `noclaim:<email>` that
 * email without any `email_verified` claim.
 */
export interface TTestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<TTestOidcProvider> {
  const clientId = 'air-test-client';
  const clientSecret = 'air-test-client-secret-with-enough-entropy';
  // The issuer URL needs the port, so the server starts first and the provider is plugged in after.
  const route: { handler?: RequestListener } = {};
  const server: Server = createServer((req, res) => {
    if (route.handler) route.handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx: unknown, id: string) => {
      const unverified = id.startsWith('unverified:');
      const noClaim = id.startsWith('noclaim:');
      const email = id.replace(/^(unverified|noclaim):/, '');
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email,
          ...(noClaim ? {} : { email_verified: !unverified }),
          name: email.split('@')[0],
        }),
      };
    },
    cookies: { keys: ['air-test-oidc-cookie-key'] },
    // Explicit lifetimes (seconds) keep the provider from printing a notice per default it uses.
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    features: { devInteractions: { enabled: true } },
  });
  route.handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A minimal cookie jar: name → value, dropping cookies the server expires. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [key = '', v = ''] = a.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (key.toLowerCase() === 'expires') return new Date(v).getTime() < Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Walks the provider from `authorizationUrl` through login (as `login`) and consent, like a
 * browser would, and answers the URL the provider finally redirects to (the app's callback).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, callbackPrefix: string) {
  const jar = new CookieJar();
  let next = new URL(authorizationUrl);
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(next, {
      method,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    jar.store(response);
    const location = response.headers.get('location');
    if (location) {
      const target = new URL(location, next);
      if (target.href.startsWith(callbackPrefix)) return target;
      next = target;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`Provider answered ${response.status}: ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!prompt || !action) throw new Error(`Unexpected provider page: ${html.slice(0, 300)}`);
    next = new URL(action.replace(/&amp;/g, '&'), next);
    method = 'POST';
    body =
      prompt === 'login'
        ? new URLSearchParams({ prompt, login, password: 'any' })
        : new URLSearchParams({ prompt });
  }
  throw new Error('Too many hops at the provider');
}
