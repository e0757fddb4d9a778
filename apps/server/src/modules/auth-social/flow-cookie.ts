import type { FastifyReply, FastifyRequest } from 'fastify';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import { OIDC_FLOW_TTL_MS, type TOidcFlow } from '../../lib/oidc';

/**
 * The secrets of a social sign-in in progress (state, nonce, PKCE verifier) travel in one
 * encrypted (AES-GCM, keyed from SECRET) HttpOnly cookie scoped to the social routes. Keeping them
 * in the browser that started the flow is what stops a forged callback (login CSRF): a callback
 * arriving in another browser has no cookie. SameSite=Lax still sends it on the provider's
 * top-level redirect back.
 */
export const FLOW_COOKIE = 'air_oidc';
const COOKIE_PATH = '/api/auth/social';

/** Cookie attributes (serialised by @fastify/cookie, registered in the social routes' scope). */
function attributes(appUrl: string) {
  return {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: appUrl.startsWith('https:'),
  };
}

export function setFlowCookie(reply: FastifyReply, secret: string, appUrl: string, flow: TOidcFlow): void {
  const sealed = encryptSecret(secret, JSON.stringify(flow));
  reply.setCookie(FLOW_COOKIE, sealed, { ...attributes(appUrl), maxAge: OIDC_FLOW_TTL_MS / 1000 });
}

export function clearFlowCookie(reply: FastifyReply, appUrl: string): void {
  reply.clearCookie(FLOW_COOKIE, attributes(appUrl));
}

function isFlow(value: unknown): value is TOidcFlow {
  const flow = value as Partial<TOidcFlow> | null;
  return (
    typeof flow === 'object' &&
    flow !== null &&
    typeof flow.provider === 'string' &&
    typeof flow.state === 'string' &&
    typeof flow.nonce === 'string' &&
    typeof flow.codeVerifier === 'string' &&
    typeof flow.expiresAt === 'number'
  );
}

/** The flow of this browser for `provider`, or null (absent, tampered, expired or another provider's). */
export function readFlowCookie(request: FastifyRequest, secret: string, provider: string): TOidcFlow | null {
  const raw = request.cookies[FLOW_COOKIE];
  if (!raw) return null;
  try {
    const flow: unknown = JSON.parse(decryptSecret(secret, raw));
    if (!isFlow(flow) || flow.provider !== provider || flow.expiresAt < Date.now()) return null;
    return flow;
  } catch {
    return null;
  }
}
