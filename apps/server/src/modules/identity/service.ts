import { and, eq, inArray, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { sessionEndings } from '../../db/schema/session-endings';
import { sessions, type TSessionNoticeRow } from '../../db/schema/sessions';
import { SESSION_TTL_SECONDS } from '../../lib/jwt';
import { users } from '../../db/schema/users';
import { contactColumns, oneUser, type TUserContact } from './one-user';

export type { TUserContact } from './one-user';

/*
 * The identity service: who a user is and where they are signed in (the users and sessions
 * tables). Only this module queries them: every other module, the sign-in flows and the profile
 * pages included, asks here (decision 016). Functions take the database or a transaction, never
 * Fastify, so a job or a worker can call them and a caller can run several of them, with other
 * modules' services, in one transaction. The queries of the sign-in flows, the profile pages and
 * the session check live in the files re-exported at the end.
 */

/** A user's name, address and language; undefined when the user no longer exists. */
export async function userContact(db: TDb, userId: string): Promise<TUserContact | undefined> {
  return oneUser(db, contactColumns, { id: userId });
}

/**
 * The same, with the user's row locked until the transaction ends: callers that count something
 * per user (support messages an hour) serialise on it.
 */
export async function lockUserContact(tx: TDb, userId: string): Promise<TUserContact | undefined> {
  const [user] = await tx.select(contactColumns).from(users).where(eq(users.id, userId)).for('update');
  return user;
}

/** The id of the user registered with this address, if any (addresses are stored lower-case). */
export async function userIdByEmail(db: TDb, email: string): Promise<string | undefined> {
  return (await oneUser(db, { id: users.id }, { email }))?.id;
}

/** Name and address of each of these users that still exists, by id. */
export async function userContacts(db: TDb, userIds: readonly string[]): Promise<Map<string, TUserContact>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select(contactColumns).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Users as other modules list them, for joining into one query (a member list joins it on its
 * user id): `db.select({ name: profiles.name }).from(x).innerJoin(profiles, eq(profiles.id, x.userId))`.
 * A plain sub-select of `users`, which PostgreSQL folds into the outer query.
 */
export function userProfiles(db: TDb, alias = 'user_profiles') {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      locale: users.locale,
      verified: users.verified,
      lastLogin: users.lastLogin,
    })
    .from(users)
    .as(alias);
}

/** What signing up with an address that already has a user needs to know about that user. */
export interface TSignUpUser extends TUserContact {
  passwordHash: string | null;
  verified: boolean;
}

/** The user registered with this address (stored lower-case), with their password hash. */
export async function userForSignUp(db: TDb, email: string): Promise<TSignUpUser | undefined> {
  return oneUser(
    db,
    { ...contactColumns, passwordHash: users.passwordHash, verified: users.verified },
    { email },
  );
}

/**
 * Creates a user, inside the caller's transaction; answers the new id. A sign-up is unverified
 * until its mail's link; an invited user is `verified` already (the invite's link proved the
 * address) and not `onboarded`.
 */
export async function createUser(
  tx: TDb,
  values: {
    name: string;
    email: string;
    passwordHash: string | null;
    locale: string;
    defaultAccountId: string;
    verified?: boolean;
    onboarded?: boolean;
  },
): Promise<string> {
  const [user] = await tx.insert(users).values(values).returning({ id: users.id });
  return user!.id;
}

/** Marks a user who signed up again with their address, now owning an account of their own. */
export async function markDuplicateUser(tx: TDb, userId: string): Promise<void> {
  await tx.update(users).set({ duplicateUser: true }).where(eq(users.id, userId));
}

/** Deletes a user; their sessions and memberships go with them (foreign keys cascade). */
export async function deleteUser(tx: TDb, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}

/**
 * Deletes those of these users for whom `onlyIf(users.id)` holds, in one statement: the
 * condition is evaluated per row, e.g. membership's `noMembershipOutside` (closing an account
 * deletes the members who belong nowhere else).
 */
export async function deleteUsersWhere(
  tx: TDb,
  userIds: readonly string[],
  onlyIf: (userId: typeof users.id) => SQL,
): Promise<void> {
  if (userIds.length === 0) return;
  await tx.delete(users).where(and(inArray(users.id, [...userIds]), onlyIf(users.id)));
}

/** Points the user's default account at `toAccountId` when it was `fromAccountId`. */
export async function moveDefaultAccount(
  tx: TDb,
  userId: string,
  fromAccountId: string,
  toAccountId: string,
): Promise<void> {
  await tx
    .update(users)
    .set({ defaultAccountId: toAccountId })
    .where(and(eq(users.id, userId), eq(users.defaultAccountId, fromAccountId)));
}

/** The ids of every session (revoked or not) signed in to this account. */
export async function accountSessionIds(db: TDb, accountId: string): Promise<string[]> {
  const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.accountId, accountId));
  return rows.map((row) => row.id);
}

/** Revokes the user's live sessions in this account; answers their ids (to publish). */
export async function revokeSessionsIn(tx: TDb, userId: string, accountId: string): Promise<string[]> {
  const revoked = await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), eq(sessions.accountId, accountId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.map((row) => row.id);
}

/**
 * Why a member's sessions in an account end or move (an admin removed them, they left, or the
 * owner closed the account), and that account's name.
 */
export type TSessionNotice = TSessionNoticeRow;

/** Why a member's sessions in an account end or move. */
export type TRemovalReason = TSessionNoticeRow['reason'];

/**
 * A member removed from an account (or leaving it, or whose account its owner closed) who belongs
 * to another: their live sessions in the old account (not a master's impersonation) move to
 * `toAccountId`, each with a one-time notice naming the old account, which the console's next
 * check answers (`takeSessionNotice`). The token keeps naming the old account;
 * the session row is the truth (the session check accepts a moved row). Answers the moved ids (to
 * publish, so no instance keeps the old account cached).
 */
export async function moveSessionsOnRemoval(
  tx: TDb,
  input: {
    userId: string;
    fromAccountId: string;
    toAccountId: string;
    notice: TSessionNoticeRow;
    /** A session that is not to move (the owner's, closing the account: it simply ends). */
    exceptSessionId?: string;
  },
): Promise<string[]> {
  const moved = await tx
    .update(sessions)
    .set({ accountId: input.toAccountId, notice: input.notice })
    .where(
      and(
        eq(sessions.userId, input.userId),
        eq(sessions.accountId, input.fromAccountId),
        isNull(sessions.revokedAt),
        isNull(sessions.impersonatorUserId),
        input.exceptSessionId === undefined ? undefined : ne(sessions.id, input.exceptSessionId),
      ),
    )
    .returning({ id: sessions.id });
  return moved.map((row) => row.id);
}

/**
 * Records why these sessions end (their user is about to be deleted with them): the console's next
 * check with such a token reads the reason (`sessionEnding`). Rows older than a token's lifetime
 * are pruned here.
 */
export async function recordSessionEndings(
  tx: TDb,
  sessionIds: readonly string[],
  ending: TSessionNoticeRow,
): Promise<void> {
  await tx
    .delete(sessionEndings)
    .where(lt(sessionEndings.createdAt, new Date(Date.now() - SESSION_TTL_SECONDS * 1000)));
  if (sessionIds.length === 0) return;
  await tx
    .insert(sessionEndings)
    .values(sessionIds.map((sessionId) => ({ sessionId, ...ending })))
    .onConflictDoUpdate({
      target: sessionEndings.sessionId,
      set: { reason: ending.reason, accountName: ending.accountName, createdAt: sql`now()` },
    });
}

const REMOVAL_REASONS: readonly string[] = ['removed', 'left', 'closed'] satisfies TRemovalReason[];

function isRemovalReason(reason: string): reason is TRemovalReason {
  return REMOVAL_REASONS.includes(reason);
}

/** Why this session ended, when a removal ended it (see `recordSessionEndings`). */
export async function sessionEnding(db: TDb, sessionId: string): Promise<TSessionNoticeRow | undefined> {
  const [row] = await db
    .select({ reason: sessionEndings.reason, accountName: sessionEndings.accountName })
    .from(sessionEndings)
    .where(eq(sessionEndings.sessionId, sessionId))
    .limit(1);
  if (!row || !isRemovalReason(row.reason)) return undefined;
  return { reason: row.reason, accountName: row.accountName };
}

/**
 * The session's one-time notice (see `moveSessionsOnRemoval`), cleared as it is read: of two
 * requests racing for it, one gets it.
 */
export async function takeSessionNotice(db: TDb, sessionId: string): Promise<TSessionNoticeRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ notice: sessions.notice })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), isNotNull(sessions.notice)))
      .for('update');
    if (!row?.notice) return undefined;
    await tx.update(sessions).set({ notice: null }).where(eq(sessions.id, sessionId));
    return row.notice;
  });
}

export * from './sign-in';
export * from './profile';
export * from './session-check';
