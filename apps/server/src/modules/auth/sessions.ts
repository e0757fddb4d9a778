import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { sessions } from '../../db/schema/sessions';
import type { TServices } from '../../core/services';

/**
 * Session revocation. Every revocation is published on the change bus so cached look-ups (this
 * instance and, with Redis, every other) refuse the session at once.
 */
export async function revokeSession(app: TServices, sessionId: string): Promise<void> {
  await app.db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  await app.changes.publish({ kind: 'session', sessionId });
}

/**
 * Marks every session of a user revoked, except `keepSessionId` when given (a password change),
 * inside the caller's transaction. Announce the answer with `announceRevoked` once it commits.
 */
export async function revokeUserSessionRows(
  db: TDb,
  userId: string,
  keepSessionId?: string,
): Promise<string[]> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return revoked.map(({ id }) => id);
}

/** Tells every cache (this instance and, with Redis, the others) that these sessions are over. */
export async function announceRevoked(app: TServices, userId: string, sessionIds: string[]) {
  for (const sessionId of sessionIds) await app.changes.publish({ kind: 'session', sessionId });
  await app.changes.publish({ kind: 'user', userId });
}

/** Revokes every session of a user, except `keepSessionId` when given. */
export async function revokeUserSessions(
  app: TServices,
  userId: string,
  keepSessionId?: string,
): Promise<number> {
  const revoked = await revokeUserSessionRows(app.db, userId, keepSessionId);
  await announceRevoked(app, userId, revoked);
  return revoked.length;
}
