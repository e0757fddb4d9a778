import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { consumeToken } from '../auth-otp/service';
import { mailOneTimeLink, openSession, type TSignInAnswer } from '../auth/service';
import { markVerifiedByLink } from '../identity/service';
import type { TServices, TCaller } from '../../core/services';

/**
 * Magic-link sign-in (server contract section 3): a 15-minute, single-use link mailed to the
 * address. The request never reveals whether the address has an account.
 */
export async function sendMagicLink(app: TServices, request: TCaller, email: string): Promise<void> {
  await mailOneTimeLink(app, request, email, 'magic', (token) => `/magic?token=${token}`);
}

/** Uses the link up and signs in (or answers `2fa_required`). Bad links count against the IP. */
export async function signInWithMagicLink(
  app: TServices,
  request: TCaller,
  token: string,
): Promise<TSignInAnswer> {
  const ipKey = attemptKey('ip', request.ip);
  await app.attempts.reserve([ipKey]);
  const row = await consumeToken(app.db, 'magic', token);
  if (!row?.userId) {
    throw new AppError('unauthenticated', { messageKey: 'error.magic_link_invalid', inputError: 'token' });
  }
  await app.attempts.release([ipKey]);
  // Following a link mailed to the address proves the address is the user's.
  if (!(await markVerifiedByLink(app.db, row.userId)))
    throw new AppError('unauthenticated', { messageKey: 'error.magic_link_invalid', inputError: 'token' });
  return openSession(app, request, { door: 'magic_link', userId: row.userId });
}
