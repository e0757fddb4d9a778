import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../../lib/crypto';

const STATEMENT_LINK_TTL_MS = 60 * 60_000;

function signature(secret: string, payoutId: string, expires: number): string {
  return createHmac('sha256', deriveKey(secret, 'payout-statement'))
    .update(`${payoutId}.${expires}`)
    .digest('base64url');
}

/** A short-lived token that opens a payout's statement in a new tab without the bearer header. */
export function statementToken(secret: string, payoutId: string, now = Date.now()): string {
  const expires = now + STATEMENT_LINK_TTL_MS;
  return `${expires}.${signature(secret, payoutId, expires)}`;
}

export function statementTokenValid(
  secret: string,
  payoutId: string,
  token: string,
  now = Date.now(),
): boolean {
  const [expiresText, given] = token.split('.');
  const expires = Number(expiresText);
  if (!given || !Number.isFinite(expires) || expires < now) return false;
  const expected = Buffer.from(signature(secret, payoutId, expires));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
