import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';

/*
 * What code outside the modules needs of users and sessions (decision 016): the session check on
 * every console request (plugins/auth.ts, lib/session-activity.ts).
 * The session check stays one query per uncached look-up by joining sub-selects handed out here
 * and by membership, rather than asking each service in turn.
 */

/**
 * The sessions not revoked, with their user's verified flag, for joining into one query: the
 * session check joins membership's `memberRoles` on user and account and picks one session by id.
 * A plain sub-select of `sessions` and `users`, which PostgreSQL folds into the outer query.
 */
export function unrevokedSessions(db: TDb, alias = 'unrevoked_sessions') {
  return db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      accountId: sessions.accountId,
      verified: users.verified,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      hasNotice: sql<boolean>`${sessions.notice} is not null`.as('has_notice'),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(isNull(sessions.revokedAt))
    .as(alias);
}

/**
 * Stores "seen now" on these sessions, in one statement (the session check batches them: see
 * lib/session-activity.ts). A revoked session keeps the time it was last used.
 */
export async function markSessionsSeen(db: TDb, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(inArray(sessions.id, [...sessionIds]), isNull(sessions.revokedAt)));
}
