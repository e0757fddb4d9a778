import type { TSignUp } from '@air/shared/schemas/account';
import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { assertNotBot } from '../../lib/bot-trap';
import { hashPassword, verifyPassword } from '../../lib/password';
import { openSession, type TSignInAnswer } from '../auth/service';
import { createUser, markDuplicateUser, userForSignUp } from '../identity/service';
import { accountWithRole, addMember, createAccount } from '../membership/service';
import { addDefaultPrefs } from '../notification/service';
import { sendVerification } from '../user/service';
import { isUniqueViolation } from '../../db/errors';
import type { TServices, TCaller } from '../../core/services';
import { t } from '../../i18n';
import './messages';

/** Longest account name a rename accepts (ZUpdateUser's account_name). */
const MAX_ACCOUNT_NAME = 100;

/**
 * A new account's name until its owner renames it: "Ana's account", in the signer's language, so
 * an invitation never reads as being invited to a person.
 */
export function defaultAccountName(name: string, locale: string): string {
  const room = MAX_ACCOUNT_NAME - t(locale, 'account.default_name', { name: '' }).length;
  return t(locale, 'account.default_name', { name: name.trim().slice(0, room).trim() });
}

/**
 * An existing user signing up or accepting an invite proves they own the address with its current
 * password (counted as a failed attempt when wrong, so this is no password oracle).
 */
export async function assertExistingPassword(
  app: TServices,
  request: TCaller,
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
 * its own and `duplicate_user: true`, keeping their password (and two-factor: then the answer is
 * `2fa_required`). Answers with a session.
 */
export async function signUp(app: TServices, request: TCaller, body: TSignUp): Promise<TSignInAnswer> {
  assertNotBot(body.confirm_password);
  const existing = await userForSignUp(app.db, body.email);

  if (existing) {
    const owned = await accountWithRole(app.db, existing.id, 'owner');
    if (owned) throw new AppError('conflict', { messageKey: 'error.email_taken', inputError: 'email' });
    await assertExistingPassword(app, request, existing, body.password);
    const accountId = await app.db.transaction(async (tx) => {
      const accountId = await createAccount(tx, { name: defaultAccountName(body.name, request.locale) });
      await addMember(tx, { accountId, userId: existing.id, role: 'owner' });
      await markDuplicateUser(tx, existing.id);
      await addDefaultPrefs(tx, existing.id);
      return accountId;
    });
    await app.changes.publish({ kind: 'user', userId: existing.id });
    if (!existing.verified) await sendVerification(app, request, existing);
    // An existing user proved the password only: two-factor is asked when on.
    return openSession(app, request, { door: 'sign_up', userId: existing.id, accountId });
  }

  const passwordHash = await hashPassword(body.password);
  let created: { userId: string; accountId: string };
  try {
    created = await app.db.transaction(async (tx) => {
      const accountId = await createAccount(tx, { name: defaultAccountName(body.name, request.locale) });
      const userId = await createUser(tx, {
        name: body.name,
        email: body.email,
        passwordHash,
        locale: request.locale,
        defaultAccountId: accountId,
      });
      await addMember(tx, { accountId, userId, role: 'owner' });
      await addDefaultPrefs(tx, userId);
      return { userId, accountId };
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
  return openSession(app, request, { door: 'sign_up', ...created });
}
