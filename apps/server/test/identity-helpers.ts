import { desc, eq } from 'drizzle-orm';
import type { TRole } from '@air/shared/permissions';
import type { TApp } from '../src/app';
import { accounts, accountUsers, mailOutbox, users } from '../src/db/schema';
import { hashPassword } from '../src/lib/password';

export const PASSWORD = 'Correct-horse-1';

/** Inserts a user (password PASSWORD unless null) as `role` of a new or given account. */
export async function seedUser(
  app: TApp,
  input: {
    email: string;
    name?: string;
    role?: TRole;
    accountId?: string;
    accountName?: string;
    password?: string | null;
    verified?: boolean;
    plan?: string | null;
    locale?: string;
  },
): Promise<{ userId: string; accountId: string }> {
  let accountId = input.accountId;
  if (!accountId) {
    const [account] = await app.db
      .insert(accounts)
      .values({
        name: input.accountName ?? `${input.email} account`,
        planId: input.plan === undefined ? 'free' : input.plan,
      })
      .returning({ id: accounts.id });
    accountId = account!.id;
  }
  const [user] = await app.db
    .insert(users)
    .values({
      name: input.name ?? input.email.split('@')[0]!,
      email: input.email.toLowerCase(),
      passwordHash: input.password === null ? null : await hashPassword(input.password ?? PASSWORD),
      verified: input.verified ?? true,
      locale: input.locale ?? 'en',
      defaultAccountId: accountId,
    })
    .returning({ id: users.id });
  await app.db
    .insert(accountUsers)
    .values({ accountId, userId: user!.id, permission: input.role ?? 'owner' });
  return { userId: user!.id, accountId };
}

export async function signIn(
  app: TApp,
  email: string,
  password = PASSWORD,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({ method: 'POST', url: '/api/auth', payload: { email, password }, headers });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { token: string; account_id: string; id: string } & Record<string, unknown>;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** The newest outbox mail to `to` (optionally of a template). */
export async function lastMail(app: TApp, to: string, template?: string) {
  const rows = await app.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to.toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt));
  return rows.find((row) => !template || row.template === template);
}

/** The `token` query parameter of the first link of a mail. */
export function tokenFrom(mail: { links: string[] } | undefined): string {
  const link = mail?.links.find((l) => l.includes('token='));
  if (!link) throw new Error('no token link in mail');
  return new URL(link).searchParams.get('token')!;
}
