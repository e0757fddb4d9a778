import { and, eq } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { permissionsFor } from '@air/shared/permissions';
import type { TSessionAuth, TSessionEnding, TSessionInfo } from '../../core/credentials';
import { verifySessionToken } from '../../lib/jwt';
import { LookupCache } from '../../lib/lookup-cache';
import { createSessionActivity, sessionLive, type TSessionActivity } from '../../lib/session-activity';
import { memberRoles } from '../membership/service';
import { sessionEnding } from './service';
import { markSessionsSeen, unrevokedSessions } from './session-check';

/** Sessions change more often than keys (sign-outs, role changes): a shorter backstop. */
const SESSION_TTL_MS = 30_000;
const MAX_SESSIONS = 10_000;

export type TSessionCache = LookupCache<TSessionInfo>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Cached session look-ups (tests drop them to see the database's answer). */
    sessionCache: TSessionCache;
    /** Batched `last_seen_at` of sessions (lib/session-activity.ts). */
    sessionActivity: TSessionActivity;
  }
}

/**
 * The session check (`app.resolveSession`, asked by the auth hook for a console token): the JWT's
 * signature, then its session row from an in-memory cache (30 s), dropped through the change bus
 * on every revocation, user change (role, verification, deletion) and account change, and all at
 * once when the bus says changes may have been missed.
 */
export default fp(
  async (app) => {
    // The two sub-selects are built once; each look-up only binds its session id.
    const session = unrevokedSessions(app.db);
    const member = memberRoles(app.db);
    /**
     * The live session behind a session id (not revoked, membership still there), or null. One
     * query: identity's sessions joined with membership's roles, both sub-selects PostgreSQL folds in.
     */
    const cache: TSessionCache = new LookupCache(
      async (sessionId) => {
        const [row] = await app.db
          .select({
            userId: session.userId,
            accountId: session.accountId,
            role: member.role,
            verified: session.verified,
            createdAt: session.createdAt,
            lastSeenAt: session.lastSeenAt,
            hasNotice: session.hasNotice,
          })
          .from(session)
          .innerJoin(member, and(eq(member.userId, session.userId), eq(member.accountId, session.accountId)))
          .where(eq(session.id, sessionId))
          .limit(1);
        return row
          ? { sessionId, ...row, createdAt: row.createdAt.getTime(), lastSeenAt: row.lastSeenAt.getTime() }
          : null;
      },
      { max: MAX_SESSIONS, ttlMs: SESSION_TTL_MS },
    );
    const activity = createSessionActivity(
      (sessionIds) => markSessionsSeen(app.db, sessionIds),
      (error) => app.log.error({ err: error }, 'storing session activity failed'),
    );
    app.decorate('sessionCache', cache);
    app.decorate('sessionActivity', activity);
    app.addHook('onClose', async () => activity.close());

    app.decorate('resolveSession', async (token: string): Promise<TSessionAuth | null> => {
      const claims = await verifySessionToken(app.config.secret, token);
      if (!claims) return null;
      const found = await cache.get(claims.sessionId);
      // The row is the truth about the account: removing a member moves their sessions to another
      // account of theirs (membership's `removeMember`), while the token still names the old one.
      if (!found || found.userId !== claims.userId) return null;
      // 7 days idle or 30 days old: over. Activity is stored in batches (lib/session-activity.ts).
      const now = Date.now();
      if (!sessionLive(found.createdAt, found.lastSeenAt, now)) return null;
      found.lastSeenAt = now;
      activity.touch(found.sessionId);
      return {
        kind: 'session',
        userId: found.userId,
        accountId: found.accountId,
        sessionId: found.sessionId,
        role: found.role,
        permission: permissionsFor(found.role),
        verified: found.verified,
        hasNotice: found.hasNotice,
      };
    });

    app.decorate('sessionEnding', async (token: string): Promise<TSessionEnding | null> => {
      const claims = await verifySessionToken(app.config.secret, token);
      if (!claims) return null;
      return (await sessionEnding(app.db, claims.sessionId)) ?? null;
    });

    const unsubscribe = app.changes.subscribe((change) => {
      if (change.kind === 'session') cache.invalidate(change.sessionId);
      else if (change.kind === 'user') cache.invalidateWhere((s) => s.userId === change.userId);
      else if (change.kind === 'account') cache.invalidateWhere((s) => s.accountId === change.accountId);
      else if (change.kind === 'reset') cache.clear();
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'identity' },
);
