import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';
import { oneUser } from './one-user';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../lib/session-activity';

/*
 * What the signed-in user's own pages (profile, password, verification, two-factor, sessions,
 * deleting themself, accepting an invite) read and write of users and sessions (decision 016).
 */

/** The user's whole row, secrets included: the profile and two-factor pages read most of it. */
export async function userRecord(db: TDb, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return user;
}

/** Whether a user other than `userId` has this address (an email change must not take it). */
export async function emailTakenByOther(db: TDb, email: string, userId: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId)))
    .limit(1);
  return Boolean(taken);
}

/** What `PATCH /api/user` may change on the user's row (the address goes through verification). */
export type TProfileChanges = Partial<
  Pick<
    typeof users.$inferInsert,
    'name' | 'defaultAccountId' | 'supportEnabled' | 'onboarded' | 'darkMode' | 'locale' | 'avatar'
  >
>;

/** Applies the profile changes, inside the caller's transaction; nothing when there are none. */
export async function updateProfile(tx: TDb, userId: string, changes: TProfileChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await tx.update(users).set(changes).where(eq(users.id, userId));
}

/** Marks the user's address verified. */
export async function markUserVerified(tx: TDb, userId: string): Promise<void> {
  await tx.update(users).set({ verified: true }).where(eq(users.id, userId));
}

/** Marks the user verified only while their address is still `email`; false when it is not. */
export async function markVerifiedIfEmail(tx: TDb, userId: string, email: string): Promise<boolean> {
  const [user] = await tx
    .update(users)
    .set({ verified: true })
    .where(and(eq(users.id, userId), eq(users.email, email)))
    .returning({ id: users.id });
  return Boolean(user);
}

/**
 * Moves the user to a new, verified address; false when the user no longer exists. Raises the
 * unique violation when another user has the address.
 */
export async function changeUserEmail(tx: TDb, userId: string, email: string): Promise<boolean> {
  const changed = await tx
    .update(users)
    .set({ email, verified: true })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return changed.length > 0;
}

/** The user's address (what their attempt limits are keyed on) and password hash (null: none). */
export async function userPasswordById(
  db: TDb,
  userId: string,
): Promise<{ email: string; passwordHash: string | null } | undefined> {
  return oneUser(db, { email: users.email, passwordHash: users.passwordHash }, { id: userId });
}

/** Sets a new password hash, inside the caller's transaction. */
export async function setUserPassword(tx: TDb, userId: string, passwordHash: string): Promise<void> {
  await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** Stores a two-factor secret awaiting its first code (encrypted); the active one stays as it is. */
export async function setPendingTotpSecret(db: TDb, userId: string, secretEnc: string): Promise<void> {
  await db.update(users).set({ totpPendingSecretEnc: secretEnc }).where(eq(users.id, userId));
}

/** Turns two-factor off: the secrets, the last accepted step and the backup code go. */
export async function clearTwoFactor(db: TDb, userId: string): Promise<void> {
  await db
    .update(users)
    .set({
      totpEnabled: false,
      totpSecretEnc: null,
      totpPendingSecretEnc: null,
      totpLastStep: null,
      backupCodeHash: null,
    })
    .where(eq(users.id, userId));
}

/**
 * Makes the pending secret the active one, with its first accepted step and the backup code's
 * hash; false when the pending secret is no longer `pendingSecretEnc` (a concurrent re-setup made
 * the code stale).
 */
export async function activatePendingTotp(
  db: TDb,
  userId: string,
  confirmed: { pendingSecretEnc: string; step: number; backupCodeHash: string },
): Promise<boolean> {
  const [updated] = await db
    .update(users)
    .set({
      totpEnabled: true,
      totpSecretEnc: confirmed.pendingSecretEnc,
      totpPendingSecretEnc: null,
      totpLastStep: confirmed.step,
      backupCodeHash: confirmed.backupCodeHash,
    })
    .where(and(eq(users.id, userId), eq(users.totpPendingSecretEnc, confirmed.pendingSecretEnc)))
    .returning({ id: users.id });
  return Boolean(updated);
}

/**
 * Records `step` as the user's last accepted TOTP step if it is newer than the stored one; false
 * when it is not (the code was used already). One conditional UPDATE: of two concurrent uses of a
 * code, one passes.
 */
export async function acceptTotpStep(db: TDb, userId: string, step: number): Promise<boolean> {
  const [accepted] = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return Boolean(accepted);
}

/** Clears the user's backup code if its hash is `codeHash`; false when it is not (or was used). */
export async function useBackupCode(db: TDb, userId: string, codeHash: string): Promise<boolean> {
  const [used] = await db
    .update(users)
    .set({ backupCodeHash: null })
    .where(and(eq(users.id, userId), eq(users.backupCodeHash, codeHash)))
    .returning({ id: users.id });
  return Boolean(used);
}

/** When the session was created (a recent sign-in stands in for a password); undefined if none. */
export async function sessionCreatedAt(db: TDb, sessionId: string): Promise<Date | undefined> {
  const [session] = await db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return session?.createdAt;
}

/**
 * The user's live sessions, most recently used first: not revoked, not idle 7 days, not older
 * than 30. Sessions opened by impersonation are left out: they are the support staff's, not the
 * user's.
 */
export async function liveSessionsOf(db: TDb, userId: string) {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        isNull(sessions.impersonatorUserId),
        gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${SESSION_IDLE_MS / 1000})`),
        gt(sessions.createdAt, sql`now() - make_interval(secs => ${SESSION_ABSOLUTE_MS / 1000})`),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

/** Whether this session is the user's and not revoked (another user's session id is not theirs). */
export async function ownsLiveSession(db: TDb, userId: string, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .limit(1);
  return Boolean(row);
}

/** The ids of every session (revoked or not) of the user, to announce once they are deleted. */
export async function userSessionIds(tx: TDb, userId: string): Promise<string[]> {
  const rows = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  return rows.map((row) => row.id);
}
