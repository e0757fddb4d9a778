import { eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { users } from '../../db/schema/users';

/*
 * The identity service: who a user is (the users table), for every module that is not identity
 * itself. A module that needs a user's name or address asks here instead of querying `users`
 * (decision 016). Functions take the database or a transaction, never Fastify, so a job or a
 * worker can call them. The sign-in, profile and two-factor modules still query `users` and
 * `sessions` themselves (decision 016 lists them).
 */

export interface TUserContact {
  id: string;
  name: string;
  email: string;
  locale: string;
}

const contactColumns = { id: users.id, name: users.name, email: users.email, locale: users.locale };

/** A user's name, address and language; undefined when the user no longer exists. */
export async function userContact(db: TDb, userId: string): Promise<TUserContact | undefined> {
  const [user] = await db.select(contactColumns).from(users).where(eq(users.id, userId)).limit(1);
  return user;
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
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return user?.id;
}

/** Name and address of each of these users that still exists, by id. */
export async function userContacts(db: TDb, userIds: readonly string[]): Promise<Map<string, TUserContact>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select(contactColumns).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}
