import type { TPermissionMap, TRole } from '@air/shared/permissions';
import type { IncomingHttpHeaders } from 'node:http';
import type { TApiKeyScope } from '@air/shared/schemas/api-key';

/** A console session: who, in which account, with which role now. */
export interface TSessionAuth {
  kind: 'session';
  userId: string;
  accountId: string;
  sessionId: string;
  role: TRole;
  permission: TPermissionMap;
  verified: boolean;
  /** The session holds a one-time notice (it was moved here from an account the user left). */
  hasNotice: boolean;
}

/**
 * An API key, the one shape every step uses: the keys module's loader builds it, the key cache
 * keeps it, the auth hook puts it on `request.auth` as it is (no copy per request), and the
 * console's scope check and the gateway read it. It is shared by every request of the key, so it
 * is frozen. Something new about a key (an expiry, the routes it may call, a monthly cap) is a
 * field here and a column its loader reads (`modules/keys/service.ts`, `activeKeyByHash`); the
 * cache, the hook and the gateway carry it unchanged.
 */
export interface TKeyAuth {
  readonly kind: 'key';
  readonly keyId: string;
  readonly accountId: string;
  readonly scopes: readonly TApiKeyScope[];
  /** Milliseconds since the epoch after which the key is refused (contract 6b), or null. */
  readonly expiresAt: number | null;
  /** The only route names the key may call, or null for all it may reach. */
  readonly routes: ReadonlySet<string> | null;
  /** The key's own cap of calls per plan period, or null. */
  readonly monthlyCalls: number | null;
  /** The key's own tokens per minute (contract 6e), or null: the plan's alone apply. */
  readonly tokensPerMinute: number | null;
  /** The key's marketplace budget per plan period in minor units (contract 6e), or null. */
  readonly monthlySpendMinor: number | null;
  /** Page origins that may use the key from a browser (contract 6c, CORS); empty: none. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** The only MCP tools it may call, each `route tool` (contract 6d), or null for every tool. */
  readonly tools: ReadonlySet<string> | null;
  /** Only MCP tools their server marks read-only (`readOnlyHint`). */
  readonly toolsReadOnly: boolean;
}

/** Who is calling: a console session or an API key. */
export type TAuth = TSessionAuth | TKeyAuth;

/**
 * Why a session ended: its member was removed from (or left) their only account, or its owner
 * closed it; the account is named here.
 */
export interface TSessionEnding {
  reason: 'removed' | 'left' | 'closed';
  accountName: string;
}

/** What a session id resolves to: who, in which account, with which role now. */
export interface TSessionInfo {
  sessionId: string;
  userId: string;
  accountId: string;
  role: TRole;
  verified: boolean;
  /** A one-time notice waits on the session (identity's `takeSessionNotice` clears it). */
  hasNotice: boolean;
  /** Milliseconds since the epoch: sign-in, and the last activity known (kept current in memory). */
  createdAt: number;
  lastSeenAt: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The live session a console token stands for, or null (identity's session check,
     * `modules/identity/plugin.ts`).
     */
    resolveSession(token: string): Promise<TSessionAuth | null>;
    /**
     * Why the session of a validly signed console token ended, when a removal from the member's
     * only account ended it (their user is gone); null otherwise (identity's session check).
     */
    sessionEnding(token: string): Promise<TSessionEnding | null>;
    /**
     * The active key (of an open account) an `air_…` string stands for, or null: synchronous on a
     * cache hit (keys' look-up, `modules/keys/plugin.ts`). With a client, a look-up of an uncached
     * key takes from its address's budget of unknown look-ups (429 past it); the address is read
     * only then (behind a trusted proxy it is worked out from X-Forwarded-For).
     */
    resolveApiKey(
      rawKey: string,
      client?: { readonly ip: string },
    ): TKeyAuth | null | Promise<TKeyAuth | null>;
  }
  interface FastifyRequest {
    /** Who is calling (read once from the headers by plugins/auth.ts), or null. */
    auth: TAuth | null;
  }
}

/** `Authorization: Bearer <token>`. */
export const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The caller's AIR key: `Authorization: Bearer air_…`, else `x-api-key: air_…`. */
export function apiKeyOf(headers: IncomingHttpHeaders): string | null {
  const authorization = headers.authorization;
  if (authorization) {
    const match = BEARER.exec(authorization);
    if (match && match[1]!.startsWith('air_')) return match[1]!;
  }
  const header = headers['x-api-key'];
  return typeof header === 'string' && header.startsWith('air_') ? header : null;
}

/** A key past its expiry is no credential; every instance decides it from the clock alone. */
export function isUnexpired(key: TKeyAuth | null): boolean {
  return key === null || key.expiresAt === null || Date.now() < key.expiresAt;
}
