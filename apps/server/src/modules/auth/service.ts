import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { consumeToken, revokeTokens } from '../auth-otp/service';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../lib/password';
import { resetUserPassword, userContact, userPasswordByEmail } from '../identity/service';
import { mailOneTimeLink } from './mail-link';
import { announceRevoked, revokeUserSessionRows } from './sessions';
import { openSession, type TSignInAnswer } from './sign-in';
import type { TServices, TCaller } from '../../core/services';

// What other modules use of sign-in and sessions goes through this file (decision 013).
export { openSession, userPayload, type TSessionDoor, type TSignInAnswer } from './sign-in';
export { announceRevoked, revokeSession, revokeUserSessionRows, revokeUserSessions } from './sessions';
export { mailOneTimeLink } from './mail-link';

function invalidCredentials(): AppError {
  // One answer for an unknown email and a wrong password: no user enumeration.
  return new AppError('unauthenticated', { messageKey: 'error.invalid_credentials', inputError: 'password' });
}

/** `POST /api/auth` with email and password, limited per email and per IP. */
export async function signInWithPassword(
  app: TServices,
  request: TCaller,
  email: string,
  password: string,
): Promise<TSignInAnswer> {
  const keys = [attemptKey('email', email), attemptKey('ip', request.ip)];
  await app.attempts.reserve(keys);
  const user = await userPasswordByEmail(app.db, email.trim().toLowerCase());
  // An unknown email still costs one hash verification, so timing does not tell it apart.
  const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
  if (!user || !user.passwordHash || !ok) throw invalidCredentials();
  await app.attempts.reset([keys[0]!]);
  await app.attempts.release([keys[1]!]);
  return openSession(app, request, { door: 'password', userId: user.id });
}

/** `POST /api/auth` with a one-time `social` token minted by the social sign-in callback. */
export async function signInWithToken(
  app: TServices,
  request: TCaller,
  token: string,
): Promise<TSignInAnswer> {
  const ipKey = [attemptKey('ip', request.ip)];
  await app.attempts.reserve(ipKey);
  const row = await consumeToken(app.db, 'social', token);
  if (!row?.userId) throw new AppError('unauthenticated', { messageKey: 'error.signin_token_invalid' });
  await app.attempts.release(ipKey);
  const accountId = typeof row.data?.accountId === 'string' ? row.data.accountId : undefined;
  return openSession(app, request, { door: 'social', userId: row.userId, accountId });
}

/** Mails a reset link when the user exists; the caller always answers the same. */
export async function requestPasswordReset(app: TServices, request: TCaller, email: string) {
  await mailOneTimeLink(
    app,
    request,
    email,
    'reset',
    (token, to) => `/resetpassword?token=${token}&email=${to}`,
  );
}

/**
 * `POST /api/auth/password/reset`: a single-use 15-minute token for that email sets the new
 * password, proves the mailbox (verified) and signs every session out.
 */
export async function resetPassword(
  app: TServices,
  input: { jwt: string; email: string; password: string },
): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  // The token, the new password and the end of every session: all or nothing. A mismatched email
  // changes nothing, so the link still works with the right one.
  const { userId, email, revoked } = await app.db.transaction(async (tx) => {
    const row = await consumeToken(tx, 'reset', input.jwt);
    if (!row?.userId) throw new AppError('bad_request', { messageKey: 'error.link_invalid' });
    const email = (await userContact(tx, row.userId))?.email;
    if (email === undefined) throw new AppError('bad_request', { messageKey: 'error.link_invalid' });
    if (email !== input.email) {
      throw new AppError('bad_request', { messageKey: 'error.reset_email_mismatch', inputError: 'email' });
    }
    await resetUserPassword(tx, row.userId, passwordHash);
    await revokeTokens(tx, 'reset', row.userId);
    return { userId: row.userId, email, revoked: await revokeUserSessionRows(tx, row.userId) };
  });
  await announceRevoked(app, userId, revoked);
  await app.attempts.reset([attemptKey('email', email)]);
}
