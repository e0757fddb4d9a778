import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { consumeToken, issueToken, TOKEN_TTL_MS } from '../../lib/one-time-tokens';
import { finishFirstFactor, type TSignInAnswer } from '../auth/service';

/**
 * Magic-link sign-in (server contract section 3): a 15-minute, single-use link mailed to the
 * address. The request never reveals whether the address has an account.
 */
export async function sendMagicLink(
  app: FastifyInstance,
  request: FastifyRequest,
  email: string,
): Promise<void> {
  // Caps the links one address can be sent (mail bombing), counted whether or not it exists.
  const keys = [`magic:${email}`];
  await app.attempts.assertAllowed(keys);
  await app.attempts.recordFailure(keys);
  const [user] = await app.db
    .select({ id: users.id, name: users.name, email: users.email, locale: users.locale })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!user) return;
  const token = await issueToken(app.db, {
    kind: 'magic',
    userId: user.id,
    email: user.email,
    ttlMs: TOKEN_TTL_MS.magic,
  });
  const url = `${app.config.appUrl}/magic?token=${encodeURIComponent(token)}`;
  // A mail failure is logged, not answered: the answer must look the same for every address.
  await app.mailer
    .send({ to: user.email, locale: user.locale, template: 'magic', params: { name: user.name, url } })
    .catch((error: unknown) => request.log.error({ err: error }, 'magic link mail failed'));
}

/** Uses the link up and signs in (or answers `2fa_required`). Bad links count against the IP. */
export async function signInWithMagicLink(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<TSignInAnswer> {
  const ipKey = attemptKey('ip', request.ip);
  await app.attempts.assertAllowed([ipKey]);
  const row = await consumeToken(app.db, 'magic', token);
  if (!row?.userId) {
    await app.attempts.recordFailure([ipKey]);
    throw new AppError('unauthenticated', { messageKey: 'error.magic_link_invalid', inputError: 'token' });
  }
  // Following a link mailed to the address proves the address is the user's.
  const [user] = await app.db
    .update(users)
    .set({ verified: true })
    .where(eq(users.id, row.userId))
    .returning({ email: users.email });
  if (!user)
    throw new AppError('unauthenticated', { messageKey: 'error.magic_link_invalid', inputError: 'token' });
  return finishFirstFactor(app, request, row.userId);
}
