import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { consumeToken, issueToken, revokeTokens, TOKEN_TTL_MS } from '../../lib/one-time-tokens';

/**
 * Sends the verification mail (link APP_URL/signup/verify?token=…). Older verification links of the
 * user stop working. A delivery failure is logged, not raised: the user can ask for a new mail.
 */
export async function sendVerification(
  app: FastifyInstance,
  request: FastifyRequest,
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

/** Uses a verification token up and marks its user verified; returns the user id. */
export async function verifyEmail(app: FastifyInstance, token: string): Promise<string> {
  const row = await consumeToken(app.db, 'verify', token);
  if (!row?.userId || !row.email)
    throw new AppError('bad_request', { messageKey: 'error.link_invalid', inputError: 'token' });
  // A link sent to an address the user has since changed proves nothing about the new one.
  const [user] = await app.db
    .update(users)
    .set({ verified: true })
    .where(and(eq(users.id, row.userId), eq(users.email, row.email)))
    .returning({ id: users.id });
  if (!user) throw new AppError('bad_request', { messageKey: 'error.link_invalid', inputError: 'token' });
  await app.changes.publish({ kind: 'user', userId: user.id });
  return user.id;
}
