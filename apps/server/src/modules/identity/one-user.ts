import { eq } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { TDb } from '../../db/client';
import { users } from '../../db/schema/users';

export interface TUserContact {
  id: string;
  name: string;
  email: string;
  locale: string;
}

/** A user's name, address and language, as mails and member lists name them. */
export const contactColumns = { id: users.id, name: users.name, email: users.email, locale: users.locale };

/**
 * The chosen columns of one user, found by id or by address (addresses are stored lower-case:
 * callers normalise what was typed); undefined when there is no such user. The look-up most of the
 * identity service's questions are.
 */
export async function oneUser<T extends SelectedFields>(
  db: TDb,
  columns: T,
  by: { id: string } | { email: string },
): Promise<SelectResultFields<T> | undefined> {
  const rows = await db
    .select(columns as SelectedFields)
    .from(users)
    .where('id' in by ? eq(users.id, by.id) : eq(users.email, by.email))
    .limit(1);
  // drizzle types a selection it knows; for one still generic here, the row type is stated.
  return rows[0] as SelectResultFields<T> | undefined;
}
