import type { TPasswordChange } from '@air/shared/schemas/user';
import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { hashPassword, verifyPassword } from '../../lib/password';
import { announceRevoked, revokeUserSessionRows } from '../auth/service';
import { sessionCreatedAt, setUserPassword, userPasswordById } from '../identity/service';
import type { TServices, TCaller } from '../../core/services';

/**
 * A signed-in user confirms a sensitive step with their password (close account, delete user,
 * change password). Wrong answers count against the brute-force limits. The answer is 400 on the
 * field, not 401, so the console keeps the user signed in and shows the message on the field. A
 * user without a password (social sign-in only) has nothing to type: their session must come from
 * a sign-in of the last 15 minutes instead, so a session token stolen earlier cannot create a
 * password (and with it change the email), close the account or delete the user.
 */
export async function assertPasswordConfirmed(
  app: TServices,
  request: TCaller,
  userId: string,
  password: string | undefined,
  field: string,
): Promise<void> {
  const user = await userPasswordById(app.db, userId);
  if (!user) throw new AppError('unauthenticated');
  if (!user.passwordHash) {
    await assertRecentSignIn(app, request);
    return;
  }
  if (!password)
    throw new AppError('validation', { messageKey: 'error.old_password_required', inputError: field });
  const keys = [attemptKey('email', user.email), attemptKey('ip', request.ip)];
  await app.attempts.reserve(keys);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError('validation', { messageKey: 'error.wrong_password', inputError: field });
  }
  await app.attempts.release(keys);
}

/** How recent a sign-in must be to stand in for a password the user does not have. */
export const RECENT_SIGN_IN_MS = 15 * 60_000;

async function assertRecentSignIn(app: TServices, request: TCaller) {
  const auth = request.auth;
  if (auth?.kind !== 'session') throw new AppError('forbidden');
  const createdAt = await sessionCreatedAt(app.db, auth.sessionId);
  if (!createdAt || Date.now() - createdAt.getTime() > RECENT_SIGN_IN_MS)
    // No field: the forms of a user without a password show none to put it on.
    throw new AppError('validation', { messageKey: 'error.recent_sign_in_required' });
}

/**
 * `PUT /api/user/password`: the old password is needed only when the user has one (the server
 * decides, whatever `has_password` says). Every other session of the user is signed out.
 */
export async function changePassword(
  app: TServices,
  request: TCaller,
  auth: { userId: string; sessionId: string },
  body: TPasswordChange,
): Promise<void> {
  await assertPasswordConfirmed(app, request, auth.userId, body.oldpassword, 'oldpassword');
  const passwordHash = await hashPassword(body.newpassword);
  // The new password and the end of every other session: all or nothing.
  const revoked = await app.db.transaction(async (tx) => {
    await setUserPassword(tx, auth.userId, passwordHash);
    return revokeUserSessionRows(tx, auth.userId, auth.sessionId);
  });
  await announceRevoked(app, auth.userId, revoked);
}
