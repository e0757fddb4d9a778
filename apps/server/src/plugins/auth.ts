import { and, eq } from 'drizzle-orm';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { hasPermission, permissionsFor, type TPermissionMap, type TRole } from '@air/shared/permissions';
import type { TApiKeyScope } from '@air/shared/schemas/api-key';
import { AppError } from '../lib/app-error';
import { verifySessionToken } from '../lib/jwt';
import { createSessionActivity, sessionLive, type TSessionActivity } from '../lib/session-activity';
import { createSessionCache, type TSessionInfo } from '../lib/session-cache';
import { markSessionsSeen, unrevokedSessions } from '../modules/identity/service';
import { memberRoles } from '../modules/membership/service';
import '../i18n/identity';

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
  /** The API-key scopes that may call this route (any one of them); without one, keys are refused. */
  scope?: TApiKeyScope | readonly TApiKeyScope[];
  /** Refuse API keys even when they carry a scope. */
  sessionOnly?: boolean;
  /** Sessions of users who have not verified their email are refused (403). */
  verified?: boolean;
}

export interface TRouteRequirement {
  method: string;
  url: string;
  permission: TRole | 'signed-in';
  scopes: readonly TApiKeyScope[];
  sessionOnly: boolean;
}

const REQUIREMENT = Symbol('air.authorize');

function scopesOf(options: TAuthorizeOptions): readonly TApiKeyScope[] {
  if (options.scope === undefined) return [];
  return typeof options.scope === 'string' ? [options.scope] : options.scope;
}
type TTaggedHandler = preHandlerAsyncHookHandler & { [REQUIREMENT]?: TAuthorizeOptions };

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler: 401 without valid credentials, 403 when the role or key scope does not allow the route. */
    authorize(options?: TAuthorizeOptions): preHandlerAsyncHookHandler;
    /** Every route that calls `authorize`, with what it requires (the role matrix test reads it). */
    routeRequirements: TRouteRequirement[];
    /** Drops cached session look-ups (tests and services that changed sessions without the bus). */
    sessionCache: ReturnType<typeof createSessionCache>;
    /** Batched `last_seen_at` of sessions (lib/session-activity.ts). */
    sessionActivity: TSessionActivity;
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
    const activity = createSessionActivity(
      (sessionIds) => markSessionsSeen(app.db, sessionIds),
      (error) => app.log.error({ err: error }, 'storing session activity failed'),
    );
    app.decorate('sessionActivity', activity);
    app.addHook('onClose', async () => activity.close());

    // The two sub-selects are built once; each look-up only binds its session id.
    const session = unrevokedSessions(app.db);
    const member = memberRoles(app.db);
    /**
     * The live session behind a session id (not revoked, membership still there), or null. One
     * query: identity's sessions joined with membership's roles, both sub-selects PostgreSQL folds in.
     */
    async function lookupSession(sessionId: string): Promise<TSessionInfo | null> {
      const cached = cache.get(sessionId);
      if (cached !== undefined) return cached;
      const startedAt = cache.generation();
      const [row] = await app.db
        .select({
          userId: session.userId,
          accountId: session.accountId,
          role: member.role,
          verified: session.verified,
          createdAt: session.createdAt,
          lastSeenAt: session.lastSeenAt,
        })
        .from(session)
        .innerJoin(member, and(eq(member.userId, session.userId), eq(member.accountId, session.accountId)))
        .where(eq(session.id, sessionId))
        .limit(1);
      const value = row
        ? { sessionId, ...row, createdAt: row.createdAt.getTime(), lastSeenAt: row.lastSeenAt.getTime() }
        : null;
      cache.set(sessionId, value, startedAt);
      return value;
    }

    async function resolve(request: FastifyRequest): Promise<TAuth | null> {
      const token = bearerOf(request);
      if (!token) return null;
      if (token.startsWith('air_')) {
        if (!app.hasDecorator('resolveApiKey')) return null;
        const key = await app.resolveApiKey(token, request.ip);
        return key
          ? { kind: 'key', accountId: key.accountId, keyId: key.keyId, scopes: [...key.scopes] }
          : null;
      }
      const claims = await verifySessionToken(app.config.secret, token);
      if (!claims) return null;
      const session = await lookupSession(claims.sessionId);
      if (!session || session.userId !== claims.userId || session.accountId !== claims.accountId) return null;
      // 7 days idle or 30 days old: over. Activity is stored in batches (lib/session-activity.ts).
      const now = Date.now();
      if (!sessionLive(session.createdAt, session.lastSeenAt, now)) return null;
      session.lastSeenAt = now;
      activity.touch(session.sessionId);
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
      const handler: TTaggedHandler = async (request) => {
        const auth = request.auth;
        if (!auth) throw new AppError('unauthenticated');
        if (auth.kind === 'key') {
          if (options.sessionOnly || !scopesOf(options).some((scope) => auth.scopes.includes(scope))) {
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
      handler[REQUIREMENT] = options;
      return handler;
    });

    // Access is decided before the body is validated: a caller without the role gets 403, never a
    // validation answer that would tell them about the route's payload. So an `authorize` handler
    // given as preHandler moves to preValidation, and each route's requirement is recorded.
    const requirements: TRouteRequirement[] = [];
    app.decorate('routeRequirements', requirements);
    app.addHook('onRoute', (route) => {
      const asList = <T>(value: T | T[] | undefined): T[] =>
        value === undefined ? [] : Array.isArray(value) ? value : [value];
      const preHandlers = asList(route.preHandler as TTaggedHandler | TTaggedHandler[] | undefined);
      const moved = preHandlers.filter((h) => h[REQUIREMENT]);
      if (moved.length > 0) {
        route.preHandler = preHandlers.filter((h) => !h[REQUIREMENT]) as typeof route.preHandler;
        route.preValidation = [
          ...moved,
          ...asList(route.preValidation as TTaggedHandler | TTaggedHandler[] | undefined),
        ] as typeof route.preValidation;
      }
      const tagged = asList(route.preValidation as TTaggedHandler | TTaggedHandler[] | undefined).find(
        (h) => h[REQUIREMENT],
      );
      const options = tagged?.[REQUIREMENT];
      if (!options) return;
      for (const method of asList(route.method)) {
        requirements.push({
          method,
          url: route.url,
          permission: options.permission ?? 'signed-in',
          scopes: scopesOf(options),
          sessionOnly: options.sessionOnly === true,
        });
      }
    });

    // The change bus loads after this file (file-name order): subscribe once every plugin is in.
    let unsubscribe = () => {};
    app.addHook('onReady', async () => {
      unsubscribe = app.changes.subscribe((change) => {
        if (change.kind === 'session') cache.dropSession(change.sessionId);
        else if (change.kind === 'user') cache.dropWhere((s) => s.userId === change.userId);
        else if (change.kind === 'account') cache.dropWhere((s) => s.accountId === change.accountId);
        else if (change.kind === 'reset') cache.clear();
      });
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'auth' },
);
