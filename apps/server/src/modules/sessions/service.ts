import type { TSession } from '@air/shared/schemas/session';
import { AppError } from '../../lib/app-error';
import { revokeSession, revokeUserSessions } from '../auth/service';
import { liveSessionsOf, ownsLiveSession } from '../identity/service';
import type { TServices } from '../../core/services';

/** The user's live sessions (not revoked, not idle 7 days, not older than 30), most recent first. */
export async function listSessions(
  app: TServices,
  auth: { userId: string; sessionId: string },
): Promise<TSession[]> {
  // What this instance has not written yet still counts as activity.
  await app.sessionActivity.flush();
  const rows = await liveSessionsOf(app.db, auth.userId);
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
  if (!(await ownsLiveSession(app.db, auth.userId, sessionId))) throw new AppError('not_found');
  await revokeSession(app, sessionId);
}

/** Signs out every session of the user but the caller's. */
export function signOutOtherSessions(
  app: TServices,
  auth: { userId: string; sessionId: string },
): Promise<number> {
  return revokeUserSessions(app, auth.userId, auth.sessionId);
}
