import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../db/errors';
import { consumeToken, issueToken, revokeTokens, TOKEN_TTL_MS } from '../auth-otp/service';
import { changeUserEmail, markVerifiedIfEmail } from '../identity/service';
import type { TServices, TCaller } from '../../core/services';

/**
 * Sends the verification mail (link APP_URL/signup/verify?token=…). Older verification links of the
 * user stop working. A delivery failure is logged, not raised: the user can ask for a new mail.
 */
export async function sendVerification(
  app: TServices,
  request: TCaller,
  user: { id: string; name: string; email: string; locale: string },
): Promise<void> {
  await revokeTokens(app.db, 'verify', user.id);
  const token = await issueToken(app.db, {
    kind: 'verify',
    userId: user.id,
    email: user.email,
    ttlMs: TOKEN_TTL_MS.verify,
  });
  const url = `${app.config.appUrl.replace(/\/+$/, '')}/signup/verify?token=${encodeURIComponent(token)}`;
  await app.mailer
    .send({ to: user.email, locale: user.locale, template: 'verify', params: { name: user.name, url } })
    .catch((error: unknown) => request.log.error({ err: error }, 'verification mail failed'));
}

/**
 * An email change: the NEW address gets a verification link (the change happens only when it is
 * followed) and the CURRENT address gets a notice with a way to report it. The address in use,
 * its verification and every session stay as they are until then.
 */
export async function requestEmailChange(
  app: TServices,
  request: TCaller,
  user: { id: string; name: string; email: string; locale: string },
  newEmail: string,
): Promise<void> {
  await revokeTokens(app.db, 'verify', user.id);
  const token = await issueToken(app.db, {
    kind: 'verify',
    userId: user.id,
    email: newEmail,
    data: { change: true },
    ttlMs: TOKEN_TTL_MS.verify,
  });
  const base = app.config.appUrl.replace(/\/+$/, '');
  const url = `${base}/signup/verify?token=${encodeURIComponent(token)}`;
  await app.mailer
    .send({ to: newEmail, locale: user.locale, template: 'verify', params: { name: user.name, url } })
    .catch((error: unknown) => request.log.error({ err: error }, 'email change mail failed'));
  await app.mailer
    .send({
      to: user.email,
      locale: user.locale,
      template: 'email_change',
      params: {
        name: user.name,
        email: newEmail,
        url: `${base}/forgotpassword`,
        // Without a support address, the sender's address is the one people can answer.
        support: app.config.supportEmail ?? app.config.mailFrom,
      },
    })
    .catch((error: unknown) => request.log.error({ err: error }, 'email change notice failed'));
}

/**
 * Uses a verification token up and marks its user verified; a token of an email change moves the
 * user to the new address (409 when another user took it meanwhile). Returns the user id.
 */
export async function verifyEmail(app: TServices, token: string): Promise<string> {
  // The token is spent only when the change it carries is made: an address taken meanwhile
  // answers 409 and leaves the link as it was.
  const userId = await app.db.transaction(async (tx) => {
    const row = await consumeToken(tx, 'verify', token);
    if (!row?.userId || !row.email)
      throw new AppError('bad_request', { messageKey: 'error.link_invalid', inputError: 'token' });
    if (row.data?.change === true) {
      let changed: boolean;
      try {
        changed = await changeUserEmail(tx, row.userId, row.email);
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('conflict', { messageKey: 'error.email_taken', inputError: 'email' });
        throw error;
      }
      if (!changed)
        throw new AppError('bad_request', { messageKey: 'error.link_invalid', inputError: 'token' });
      return row.userId;
    }
    // A link sent to an address the user has since changed proves nothing about the new one.
    if (!(await markVerifiedIfEmail(tx, row.userId, row.email)))
      throw new AppError('bad_request', { messageKey: 'error.link_invalid', inputError: 'token' });
    return row.userId;
  });
  await app.changes.publish({ kind: 'user', userId });
  return userId;
}
