import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema';
import { issueToken, TOKEN_TTL_MS } from '../../lib/one-time-tokens';
import { type TOidcFlow, type OidcClients, OidcError } from '../../lib/oidc';

export type TSocialError =
  'no_account' | 'email_unverified' | 'email_missing' | 'provider' | 'expired' | 'unknown_provider';

export type TSocialOutcome = { token: string } | { error: TSocialError };

/**
 * Finishes a social sign-in: exchanges the code, finds the user by the provider's verified email
 * and answers a 5-minute one-time token (kind `social`) that `POST /api/auth { token }` turns into
 * a session. An email with no user is refused: social sign-in never creates accounts.
 */
export async function finishSocialSignIn(
  app: FastifyInstance,
  clients: OidcClients,
  flow: TOidcFlow,
  callbackUrl: URL,
): Promise<TSocialOutcome> {
  let email: string;
  try {
    ({ email } = await clients.finish(flow, callbackUrl));
  } catch (error) {
    if (error instanceof OidcError && error.reason !== 'provider') return { error: error.reason };
    app.log.warn({ err: error, provider: flow.provider }, 'social sign-in failed at the provider');
    return { error: 'provider' };
  }
  const [user] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!user) return { error: 'no_account' };
  const token = await issueToken(app.db, {
    kind: 'social',
    userId: user.id,
    email,
    data: { provider: flow.provider },
    ttlMs: TOKEN_TTL_MS.social,
  });
  return { token };
}
