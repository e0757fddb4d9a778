import type { TCaller } from '../src/core/services';
import { eq } from 'drizzle-orm';
import type { TApp } from '../src/app';
import { accounts, accountUsers, mailOutbox, users } from '../src/db/schema';
import type { TDb } from '../src/db/client';
import { hashPassword } from '../src/lib/password';
import { completeSignIn } from '../src/modules/auth/sign-in';

/** Test fixtures for the identity-extra suites: users made straight in the database. */
export const PASSWORD = 'correct horse battery staple!';

export async function createUser(
  db: TDb,
  input: { email: string; name?: string; role?: 'owner' | 'admin' | 'developer' | 'user'; locale?: string },
) {
  const [account] = await db
    .insert(accounts)
    .values({ name: `${input.name ?? 'Ana'}'s team`, planId: 'free' })
    .returning();
  const [user] = await db
    .insert(users)
    .values({
      name: input.name ?? 'Ana',
      email: input.email.toLowerCase(),
      passwordHash: await hashPassword(PASSWORD),
      verified: true,
      onboarded: true,
      locale: input.locale ?? 'en',
      defaultAccountId: account!.id,
    })
    .returning();
  await db
    .insert(accountUsers)
    .values({ accountId: account!.id, userId: user!.id, permission: input.role ?? 'owner' });
  return { user: user!, account: account! };
}

/** A signed-in session token for `userId`, as the identity core would hand out. */
export async function sessionTokenFor(app: TApp, userId: string): Promise<string> {
  const request: TCaller = {
    ip: '127.0.0.1',
    locale: 'en',
    headers: { 'user-agent': 'vitest' },
    auth: null,
    log: app.log,
  };
  return (await completeSignIn(app, request, { userId })).token;
}

export async function mailsTo(db: TDb, email: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.to, email.toLowerCase()));
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
