import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSignUp } from '@air/shared/schemas/account';
import type { TSignInData } from '@air/shared/schemas/user';
import { accountUsers } from '../../db/schema/account-users';
import { accounts } from '../../db/schema/accounts';
import { users } from '../../db/schema/users';
import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { assertNotBot } from '../../lib/bot-trap';
import { hashPassword, verifyPassword } from '../../lib/password';
import { completeSignIn } from '../auth/service';
import { addDefaultPrefs } from '../notification/service';
import { sendVerification } from '../user/service';
import { isUniqueViolation } from '../../db/errors';

/**
 * An existing user signing up or accepting an invite proves they own the address with its current
 * password (counted as a failed attempt when wrong, so this is no password oracle).
 */
export async function assertExistingPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  user: { email: string; passwordHash: string | null },
  password: string,
): Promise<void> {
  const keys = [attemptKey('email', user.email), attemptKey('ip', request.ip)];
  await app.attempts.reserve(keys);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError('conflict', { messageKey: 'error.email_registered', inputError: 'email' });
  }
  await app.attempts.release(keys);
}

/**
 * `POST /api/account`: a new account owned by the signer. A new email gets a user, an owner
 * membership, default notification preferences and a verification mail. An email that already
 * owns an account is refused (409). An existing non-owner (invited elsewhere) gets an account of
 * its own and `duplicate_user: true`, keeping their password. Answers with a session.
 */
export async function signUp(
  app: FastifyInstance,
  request: FastifyRequest,
  body: TSignUp,
): Promise<TSignInData> {
  assertNotBot(body.confirm_password);
  const [existing] = await app.db.select().from(users).where(eq(users.email, body.email)).limit(1);

  if (existing) {
    const [owned] = await app.db
      .select({ accountId: accountUsers.accountId })
      .from(accountUsers)
      .where(and(eq(accountUsers.userId, existing.id), eq(accountUsers.permission, 'owner')))
      .limit(1);
    if (owned) throw new AppError('conflict', { messageKey: 'error.email_taken', inputError: 'email' });
    await assertExistingPassword(app, request, existing, body.password);
    const accountId = await app.db.transaction(async (tx) => {
      const [account] = await tx.insert(accounts).values({ name: body.name }).returning({ id: accounts.id });
      await tx
        .insert(accountUsers)
        .values({ accountId: account!.id, userId: existing.id, permission: 'owner' });
      await tx.update(users).set({ duplicateUser: true }).where(eq(users.id, existing.id));
      await addDefaultPrefs(tx, existing.id);
      return account!.id;
    });
    await app.changes.publish({ kind: 'user', userId: existing.id });
    if (!existing.verified) await sendVerification(app, request, existing);
    return completeSignIn(app, request, { userId: existing.id, accountId });
  }

  const passwordHash = await hashPassword(body.password);
  let created: { userId: string; accountId: string };
  try {
    created = await app.db.transaction(async (tx) => {
      const [account] = await tx.insert(accounts).values({ name: body.name }).returning({ id: accounts.id });
      const [user] = await tx
        .insert(users)
        .values({
          name: body.name,
          email: body.email,
          passwordHash,
          locale: request.locale,
          defaultAccountId: account!.id,
        })
        .returning({ id: users.id });
      await tx.insert(accountUsers).values({ accountId: account!.id, userId: user!.id, permission: 'owner' });
      await addDefaultPrefs(tx, user!.id);
      return { userId: user!.id, accountId: account!.id };
    });
  } catch (error) {
    // Two sign-ups with one email at once: the loser sees the same 409 as a later attempt.
    if (isUniqueViolation(error))
      throw new AppError('conflict', { messageKey: 'error.email_taken', inputError: 'email' });
    throw error;
  }
  await sendVerification(app, request, {
    id: created.userId,
    name: body.name,
    email: body.email,
    locale: request.locale,
  });
  return completeSignIn(app, request, created);
}
