import { revokeSessionById, revokeUserSessionRows } from '../identity/service';
import type { TServices } from '../../core/services';

// Revoking sessions inside a transaction (a password change or reset) is identity's; announce
// the ids it answers with `announceRevoked` once the transaction commits.
export { revokeUserSessionRows };

/**
 * Session revocation. Every revocation is published on the change bus so cached look-ups (this
 * instance and, with Redis, every other) refuse the session at once.
 */
export async function revokeSession(app: TServices, sessionId: string): Promise<void> {
  await revokeSessionById(app.db, sessionId);
  await app.changes.publish({ kind: 'session', sessionId });
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
