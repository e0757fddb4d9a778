import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { hasPermission, permissionsFor, type TPermissionMap, type TRole } from '@air/shared/permissions';
import { accountUsers, sessions, users } from '../db/schema';
import { AppError } from '../lib/app-error';
import { verifySessionToken } from '../lib/jwt';
import { createSessionCache, type TSessionInfo } from '../lib/session-cache';
import '../modules/auth/messages';

export type TAuth =
  | {
      kind: 'session';
      userId: string;
      accountId: string;
      sessionId: string;
      role: TRole;
      permission: TPermissionMap;
      verified: boolean;
    }
  | { kind: 'key'; accountId: string; keyId: string; scopes: string[] };

export interface TAuthorizeOptions {
  /** The permission the route needs (spec section 6 matrix), or any signed-in user. */
  permission?: TRole | 'signed-in';
  /** The API-key scope that may call this route; without one, keys are refused. */
  scope?: string;
  /** Refuse API keys even when they carry a scope. */
  sessionOnly?: boolean;
  /** Sessions of users who have not verified their email are refused (403). */
  verified?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler: 401 without valid credentials, 403 when the role or key scope does not allow the route. */
    authorize(options?: TAuthorizeOptions): preHandlerAsyncHookHandler;
    /** Drops cached session look-ups (tests and services that changed sessions without the bus). */
    sessionCache: ReturnType<typeof createSessionCache>;
  }
  interface FastifyRequest {
    /** Who is calling: a console session, an API key, or null. */
    auth: TAuth | null;
  }
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export default fp(
  async (app) => {
    const cache = createSessionCache();
    app.decorate('sessionCache', cache);

    /** The live session behind a session id (not revoked, membership still there), or null. */
    async function lookupSession(sessionId: string): Promise<TSessionInfo | null> {
      const cached = cache.get(sessionId);
      if (cached !== undefined) return cached;
      const startedAt = cache.generation();
      const [row] = await app.db
        .select({
          userId: sessions.userId,
          accountId: sessions.accountId,
          role: accountUsers.permission,
          verified: users.verified,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(
          accountUsers,
          and(eq(accountUsers.userId, sessions.userId), eq(accountUsers.accountId, sessions.accountId)),
        )
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
        .limit(1);
      const value = row ? { sessionId, ...row } : null;
      cache.set(sessionId, value, startedAt);
      return value;
    }

    async function resolve(request: FastifyRequest): Promise<TAuth | null> {
      const token = bearerOf(request);
      if (!token) return null;
      if (token.startsWith('air_')) {
        if (!app.hasDecorator('resolveApiKey')) return null;
        const key = await app.resolveApiKey(token);
        return key
          ? { kind: 'key', accountId: key.accountId, keyId: key.keyId, scopes: [...key.scopes] }
          : null;
      }
      const claims = await verifySessionToken(app.config.secret, token);
      if (!claims) return null;
      const session = await lookupSession(claims.sessionId);
      if (!session || session.userId !== claims.userId || session.accountId !== claims.accountId) return null;
      return {
        kind: 'session',
        userId: session.userId,
        accountId: session.accountId,
        sessionId: session.sessionId,
        role: session.role,
        permission: permissionsFor(session.role),
        verified: session.verified,
      };
    }

    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      request.auth = await resolve(request);
    });

    app.decorate('authorize', (options: TAuthorizeOptions = {}): preHandlerAsyncHookHandler => {
      return async (request) => {
        const auth = request.auth;
        if (!auth) throw new AppError('unauthenticated');
        if (auth.kind === 'key') {
          if (options.sessionOnly || !options.scope || !auth.scopes.includes(options.scope)) {
            throw new AppError('forbidden', { messageKey: 'error.key_scope' });
          }
          return;
        }
        const permission = options.permission ?? 'signed-in';
        if (permission !== 'signed-in' && !hasPermission(auth.role, permission))
          throw new AppError('forbidden');
        if (options.verified && !auth.verified) {
          throw new AppError('forbidden', { messageKey: 'error.email_not_verified' });
        }
      };
    });

    // The change bus loads after this file (file-name order): subscribe once every plugin is in.
    let unsubscribe = () => {};
    app.addHook('onReady', async () => {
      unsubscribe = app.changes.subscribe((change) => {
        if (change.kind === 'session') cache.dropSession(change.sessionId);
        else if (change.kind === 'user') cache.dropWhere((s) => s.userId === change.userId);
        else if (change.kind === 'account') cache.dropWhere((s) => s.accountId === change.accountId);
      });
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'auth' },
);
