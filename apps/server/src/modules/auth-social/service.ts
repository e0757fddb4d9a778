import { and, eq } from 'drizzle-orm';
import { userIdentities } from '../../db/schema/user-identities';
import { issueToken, TOKEN_TTL_MS } from '../auth-otp/service';
import { type TOidcFlow, type TOidcIdentity, type OidcClients, OidcError } from '../../lib/oidc';
import { userIdByEmail } from '../identity/service';
import type { TServices } from '../../core/services';

export type TSocialError =
  'no_account' | 'email_unverified' | 'email_missing' | 'provider' | 'expired' | 'unknown_provider';

export type TSocialOutcome = { token: string } | { error: TSocialError };

/**
 * Finishes a social sign-in: exchanges the code and finds the user by the provider + subject pair
 * linked before, else by email, linking the pair, but only when the provider says
 * `email_verified: true` (an unverified address would let anyone claim anyone's account). Answers
 * a 5-minute one-time token (kind `social`) that `POST /api/auth { token }` turns into a session.
 * An email with no user is refused: social sign-in never creates accounts.
 */
export async function finishSocialSignIn(
  app: TServices,
  clients: OidcClients,
  flow: TOidcFlow,
  callbackUrl: URL,
): Promise<TSocialOutcome> {
  let identity: TOidcIdentity;
  try {
    identity = await clients.finish(flow, callbackUrl);
  } catch (error) {
    if (error instanceof OidcError && error.reason !== 'provider') return { error: error.reason };
    app.log.warn({ err: error, provider: flow.provider }, 'social sign-in failed at the provider');
    return { error: 'provider' };
  }
  const { email, subject } = identity;
  const provider = flow.provider;
  const [linked] = await app.db
    .select({ id: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
    .limit(1);
  let userId = linked?.id;
  if (!userId) {
    if (!identity.emailVerified) return { error: 'email_unverified' };
    userId = await userIdByEmail(app.db, email);
    if (!userId) return { error: 'no_account' };
    await app.db.insert(userIdentities).values({ userId, provider, subject }).onConflictDoNothing();
  }
  const token = await issueToken(app.db, {
    kind: 'social',
    userId,
    email,
    data: { provider: flow.provider },
    ttlMs: TOKEN_TTL_MS.social,
  });
  return { token };
}
