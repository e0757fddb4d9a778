import type { TSignInData } from '@air/shared/schemas/user';
import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { consumeToken, peekToken } from './service';
import { openSession } from '../auth/service';
import { userContact } from '../identity/service';
import { useSignInCode } from '../two-factor/service';
import type { TServices, TCaller } from '../../core/services';

/**
 * `POST /api/auth/otp`: the second step of a sign-in. A wrong code counts against the user's email
 * and the caller's IP (429 past the limit) but leaves the pending token usable; a right code uses
 * the code up, then the token, then signs in. An impersonation's code is the master's.
 */
export async function signInWithCode(
  app: TServices,
  request: TCaller,
  input: { code: string; jwt: string },
): Promise<TSignInData> {
  const ipKey = attemptKey('ip', request.ip);
  const pending = await peekToken(app.db, 'otp', input.jwt);
  // The code is the person's at the keyboard: the user's, or the impersonating master's.
  const impersonatorUserId =
    typeof pending?.data?.impersonatorUserId === 'string' ? pending.data.impersonatorUserId : undefined;
  const holder = impersonatorUserId ?? pending?.userId;
  const email = holder ? (await userContact(app.db, holder))?.email : undefined;
  if (!pending?.userId || !holder || email === undefined) {
    await app.attempts.reserve([ipKey]);
    throw new AppError('unauthenticated', { messageKey: 'error.signin_token_invalid' });
  }
  const keys = [attemptKey('email', email), ipKey];
  await app.attempts.reserve(keys);
  if (!(await useSignInCode(app, holder, input.code))) {
    throw new AppError('unauthenticated', { messageKey: 'error.otp_invalid', inputError: 'code' });
  }
  if (!(await consumeToken(app.db, 'otp', input.jwt))) {
    throw new AppError('unauthenticated', { messageKey: 'error.signin_token_invalid' });
  }
  await app.attempts.reset([attemptKey('email', email)]);
  await app.attempts.release([ipKey]);
  const accountId = typeof pending.data?.accountId === 'string' ? pending.data.accountId : undefined;
  return openSession(app, request, { door: 'otp', userId: pending.userId, accountId, impersonatorUserId });
}
