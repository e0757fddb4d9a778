import { jwtVerify, SignJWT } from 'jose';
import { ROLES, type TRole } from '@air/shared/permissions';
import { deriveKey } from './crypto';

/** What a session token carries (server contract section 3). */
export interface TSessionClaims {
  userId: string;
  accountId: string;
  role: TRole;
  sessionId: string;
}

/** Sessions outlive a working day; revocation (the sessions row) ends them sooner. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;
const ISSUER = 'air';
const AUDIENCE = 'air-console';

function signingKey(secret: string): Uint8Array {
  return new Uint8Array(deriveKey(secret, 'session-jwt'));
}

/** An HS256 JWT keyed from SECRET (a key of its own, never the encryption key). */
export async function signSessionToken(secret: string, claims: TSessionClaims): Promise<string> {
  return new SignJWT({ acc: claims.accountId, perm: claims.role, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(signingKey(secret));
}

/** The claims of a valid, unexpired token signed with SECRET, or null for anything else. */
export async function verifySessionToken(secret: string, token: string): Promise<TSessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    const { sub, acc, perm, sid } = payload;
    if (typeof sub !== 'string' || typeof acc !== 'string' || typeof sid !== 'string') return null;
    if (typeof perm !== 'string' || !(ROLES as readonly string[]).includes(perm)) return null;
    return { userId: sub, accountId: acc, role: perm as TRole, sessionId: sid };
  } catch {
    return null;
  }
}
