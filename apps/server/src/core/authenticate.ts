import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { apiKeyOf, BEARER, isUnexpired, type TAuth, type TKeyAuth } from './credentials';

/**
 * Who is calling, read once per request from its headers (architecture item 11): the key or
 * console session (`auth`, frozen and shared by every request of that key or session), or none;
 * `keyExpired` when the request named a key that exists but expired (refused saying so).
 */
export interface TAuthenticatedCaller {
  readonly auth: TAuth | null;
  readonly keyExpired: boolean;
}

const NOBODY: TAuthenticatedCaller = Object.freeze({ auth: null, keyExpired: false });
const EXPIRED: TAuthenticatedCaller = Object.freeze({ auth: null, keyExpired: true });

/** Which credentials a door takes: the gateway takes keys only (a session token is no gateway credential). */
export type TCredentialKinds = 'keys' | 'keys-and-sessions';

function bearerOf(headers: IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  return header ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/**
 * The one authentication of every door (the gateway's fast lane, the console API's auth hook):
 * an API key from `Authorization: Bearer air_…` or `x-api-key`, else (where sessions are taken) a
 * session token from `Authorization: Bearer`. Keys and sessions are resolved by their owners
 * (keys and identity hand out `resolveApiKey` and `resolveSession`); a cached key costs no
 * promise. An unknown key past its address's look-up budget throws (or rejects) a 429 AppError.
 */
export function createAuthenticateCaller(app: FastifyInstance) {
  const ofKey = (key: TKeyAuth | null): TAuthenticatedCaller => {
    if (key === null) return NOBODY;
    if (!isUnexpired(key)) return EXPIRED;
    return Object.freeze({ auth: key, keyExpired: false });
  };
  return function authenticateCaller(
    headers: IncomingHttpHeaders,
    client: { readonly ip: string },
    kinds: TCredentialKinds,
  ): TAuthenticatedCaller | Promise<TAuthenticatedCaller> {
    const rawKey = apiKeyOf(headers);
    if (rawKey !== null) {
      const key = app.resolveApiKey(rawKey, client);
      return key instanceof Promise ? key.then(ofKey) : ofKey(key);
    }
    if (kinds === 'keys') return NOBODY;
    const token = bearerOf(headers);
    if (token === null) return NOBODY;
    return app
      .resolveSession(token)
      .then((session): TAuthenticatedCaller =>
        session ? Object.freeze({ auth: session, keyExpired: false }) : NOBODY,
      );
  };
}

export type TAuthenticateCaller = ReturnType<typeof createAuthenticateCaller>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The one authentication of every door (core/authenticate.ts). */
    authenticateCaller: TAuthenticateCaller;
  }
}
