import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sessions } from '../../db/schema';

/**
 * Session revocation. Every revocation is published on the change bus so cached look-ups (this
 * instance and, with Redis, every other) refuse the session at once.
 */
export async function revokeSession(app: FastifyInstance, sessionId: string): Promise<void> {
  await app.db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  await app.changes.publish({ kind: 'session', sessionId });
}

/** Revokes every session of a user, except `keepSessionId` when given (a password change). */
export async function revokeUserSessions(
  app: FastifyInstance,
  userId: string,
  keepSessionId?: string,
): Promise<number> {
  const revoked = await app.db
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
  for (const { id } of revoked) await app.changes.publish({ kind: 'session', sessionId: id });
  await app.changes.publish({ kind: 'user', userId });
  return revoked.length;
}
