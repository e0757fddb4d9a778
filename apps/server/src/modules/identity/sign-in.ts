import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';
import { contactColumns, oneUser, type TUserContact } from './one-user';

/*
 * What the sign-in flows (auth, auth-otp, auth-magic, auth-social, auth-impersonate) read and write
 * of users and sessions (decision 016). Addresses are stored lower-case: callers normalise what
 * was typed before asking by address.
 */

/** The user registered with this address and their password hash (null: no password set). */
export async function userPasswordByEmail(
  db: TDb,
  email: string,
): Promise<{ id: string; passwordHash: string | null } | undefined> {
  return oneUser(db, { id: users.id, passwordHash: users.passwordHash }, { email });
}

/** Whether the user has two-factor on; undefined when the user no longer exists. */
export async function totpEnabledOf(db: TDb, userId: string): Promise<boolean | undefined> {
  return (await oneUser(db, { totpEnabled: users.totpEnabled }, { id: userId }))?.totpEnabled;
}

/** The account a sign-in lands in when none is asked for; undefined when unset or no such user. */
export async function defaultAccountOf(db: TDb, userId: string): Promise<string | undefined> {
  const user = await oneUser(db, { defaultAccountId: users.defaultAccountId }, { id: userId });
  return user?.defaultAccountId ?? undefined;
}

/** Opens a session (a signed-in device), inside the caller's transaction; answers its id. */
export async function createSession(
  tx: TDb,
  values: {
    userId: string;
    accountId: string;
    impersonatorUserId: string | null;
    ip: string;
    userAgent: string;
  },
): Promise<string> {
  const [session] = await tx.insert(sessions).values(values).returning({ id: sessions.id });
  return session!.id;
}

/**
 * Stamps the user's last sign-in; answers their name, address and language (for the new-device
 * mail), undefined when the user no longer exists.
 */
export async function recordLastLogin(
  tx: TDb,
  userId: string,
): Promise<Omit<TUserContact, 'id'> | undefined> {
  const [user] = await tx
    .update(users)
    .set({ lastLogin: sql`now()` })
    .where(eq(users.id, userId))
    .returning({ name: users.name, email: users.email, locale: users.locale });
  return user;
}

/** Who a one-time link (magic sign-in, password reset) is mailed to, by address. */
export async function userContactByEmail(db: TDb, email: string): Promise<TUserContact | undefined> {
  return oneUser(db, contactColumns, { email });
}

/** Sets the password from a reset link, which also proves the user owns the address. */
export async function resetUserPassword(tx: TDb, userId: string, passwordHash: string): Promise<void> {
  await tx.update(users).set({ passwordHash, verified: true }).where(eq(users.id, userId));
}

/**
 * Marks the user's address verified (they followed a link mailed to it); answers false when the
 * user no longer exists.
 */
export async function markVerifiedByLink(db: TDb, userId: string): Promise<boolean> {
  const [user] = await db
    .update(users)
    .set({ verified: true })
    .where(eq(users.id, userId))
    .returning({ email: users.email });
  return user !== undefined;
}

export interface TImpersonationUser {
  id: string;
  email: string;
  isMaster: boolean;
  supportEnabled: boolean;
}

/** What minting an impersonation link needs to know of the user with this address. */
export async function userForImpersonation(db: TDb, email: string): Promise<TImpersonationUser | undefined> {
  const columns = {
    id: users.id,
    email: users.email,
    isMaster: users.isMaster,
    supportEnabled: users.supportEnabled,
  };
  return oneUser(db, columns, { email });
}

/** The first `limit` masters, oldest first (a link minted without `--as` needs exactly one). */
export async function oldestMasters(
  db: TDb,
  limit: number,
): Promise<{ id: string; email: string; isMaster: boolean }[]> {
  return db
    .select({ id: users.id, email: users.email, isMaster: users.isMaster })
    .from(users)
    .where(eq(users.isMaster, true))
    .orderBy(asc(users.createdAt))
    .limit(limit);
}

/** Makes the user a master (`create-master`), inside the caller's transaction. */
export async function markMaster(tx: TDb, userId: string): Promise<void> {
  await tx.update(users).set({ isMaster: true }).where(eq(users.id, userId));
}

/**
 * Whether the user is a master and allows support access, now: an impersonation link is checked
 * again when it is used. Undefined when the user no longer exists.
 */
export async function impersonationFlags(
  db: TDb,
  userId: string,
): Promise<{ isMaster: boolean; supportEnabled: boolean } | undefined> {
  return oneUser(db, { isMaster: users.isMaster, supportEnabled: users.supportEnabled }, { id: userId });
}

/** Marks one session revoked, unless it already is. */
export async function revokeSessionById(db: TDb, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Marks every live session of a user revoked, except `keepSessionId` when given (a password
 * change keeps the caller's), inside the caller's transaction; answers their ids, for the caller
 * to announce once the transaction commits.
 */
export async function revokeUserSessionRows(
  tx: TDb,
  userId: string,
  keepSessionId?: string,
): Promise<string[]> {
  const revoked = await tx
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
