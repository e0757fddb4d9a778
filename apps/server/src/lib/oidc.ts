import * as client from 'openid-client';
import type { TOidcProvider } from '../config';

/**
 * OpenID Connect sign-in (authorization-code flow with PKCE, S256) for the providers configured
 * through OIDC_<NAME>_* variables. Provider metadata is discovered once per provider and cached;
 * a failed discovery is forgotten so the next attempt retries.
 */

/** What the callback needs to finish a flow; kept sealed in a short-lived cookie (see auth-social). */
export interface TOidcFlow {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface TOidcIdentity {
  subject: string;
  /** Lower-cased. */
  email: string;
  /** The provider said `email_verified: true` (missing counts as not verified). */
  emailVerified: boolean;
}

export class OidcError extends Error {
  constructor(
    /** Why it failed, for the sign-in page: `email_missing`, `email_unverified` or `provider`. */
    readonly reason: 'email_missing' | 'email_unverified' | 'provider',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OidcError';
  }
}

export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;
const SCOPE = 'openid email profile';

const KNOWN_LABELS: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  gitlab: 'GitLab',
  microsoft: 'Microsoft',
  apple: 'Apple',
  okta: 'Okta',
  auth0: 'Auth0',
  keycloak: 'Keycloak',
};

/** The button label of a provider: a known brand spelling, else the name capitalised. */
export function providerLabel(name: string): string {
  return KNOWN_LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export class OidcClients {
  private readonly configurations = new Map<string, Promise<client.Configuration>>();

  constructor(
    private readonly providers: readonly TOidcProvider[],
    private readonly appUrl: string,
    private readonly isProduction: boolean,
  ) {}

  list(): { name: string; label: string }[] {
    return this.providers.map((p) => ({ name: p.name, label: providerLabel(p.name) }));
  }

  has(name: string): boolean {
    return this.providers.some((p) => p.name === name);
  }

  redirectUri(name: string): string {
    return `${this.appUrl}/api/auth/social/${encodeURIComponent(name)}/callback`;
  }

  private configuration(name: string): Promise<client.Configuration> {
    let pending = this.configurations.get(name);
    if (!pending) {
      const provider = this.providers.find((p) => p.name === name);
      if (!provider) return Promise.reject(new OidcError('provider', `Unknown provider ${name}`));
      const issuer = new URL(provider.issuer);
      // Plain http is for local identity providers (development, tests); production allows it only on loopback.
      const insecure = issuer.protocol === 'http:' && (!this.isProduction || isLoopback(issuer.hostname));
      pending = client.discovery(
        issuer,
        provider.clientId,
        { client_secret: provider.clientSecret, redirect_uris: [this.redirectUri(name)] },
        client.ClientSecretBasic(provider.clientSecret),
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      );
      pending.catch(() => this.configurations.delete(name));
      this.configurations.set(name, pending);
    }
    return pending;
  }

  /** The provider's authorization URL and the flow secrets the callback must present. */
  async start(name: string, now = Date.now()): Promise<{ url: URL; flow: TOidcFlow }> {
    const config = await this.configuration(name);
    const flow: TOidcFlow = {
      provider: name,
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      expiresAt: now + OIDC_FLOW_TTL_MS,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(name),
      scope: SCOPE,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, flow };
  }

  /**
   * Exchanges the code of the callback URL (checking state, PKCE, nonce, issuer and the ID token)
   * and answers who signed in. The email must be present; whether the provider verified it is
   * answered, for the caller to decide (linking to an existing user needs it).
   */
  async finish(flow: TOidcFlow, callbackUrl: URL): Promise<TOidcIdentity> {
    const config = await this.configuration(flow.provider);
    let tokens;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new OidcError('provider', 'The provider refused the sign-in', { cause: error });
    }
    const claims = tokens.claims();
    if (!claims) throw new OidcError('provider', 'The provider sent no ID token');
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified;
    if (!email) {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = typeof info.email === 'string' ? info.email : undefined;
      verified = info.email_verified;
    }
    if (!email) throw new OidcError('email_missing', 'The provider shared no email address');
    return { subject: claims.sub, email: email.trim().toLowerCase(), emailVerified: verified === true };
  }
}
