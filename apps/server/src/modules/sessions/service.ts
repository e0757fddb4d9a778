import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TSession } from '@air/shared/schemas/session';
import { sessions } from '../../db/schema/sessions';
import { AppError } from '../../lib/app-error';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../lib/session-activity';
import { revokeSession, revokeUserSessions } from '../auth/service';
import type { TServices } from '../../core/services';

/** The user's live sessions (not revoked, not idle 7 days, not older than 30), most recent first. */
export async function listSessions(
  app: TServices,
  auth: { userId: string; sessionId: string },
): Promise<TSession[]> {
  // What this instance has not written yet still counts as activity.
  await app.sessionActivity.flush();
  const rows = await app.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, auth.userId),
        isNull(sessions.revokedAt),
        isNull(sessions.impersonatorUserId),
        gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${SESSION_IDLE_MS / 1000})`),
        gt(sessions.createdAt, sql`now() - make_interval(secs => ${SESSION_ABSOLUTE_MS / 1000})`),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
  return rows.map((row) => ({
    id: row.id,
    device: row.userAgent,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    current: row.id === auth.sessionId,
  }));
}

/** Signs out one of the user's own sessions; another user's session id is a 404. */
export async function signOutSession(
  app: TServices,
  auth: { userId: string },
  sessionId: string,
): Promise<void> {
  const [row] = await app.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, auth.userId), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row) throw new AppError('not_found');
  await revokeSession(app, row.id);
}

/** Signs out every session of the user but the caller's. */
export function signOutOtherSessions(
  app: TServices,
  auth: { userId: string; sessionId: string },
): Promise<number> {
  return revokeUserSessions(app, auth.userId, auth.sessionId);
}
