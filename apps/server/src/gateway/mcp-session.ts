import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from '../lib/crypto';

/*
 * MCP sessions through AIR (contract 6d, decision 055). The proxy keeps no session table: the
 * `Mcp-Session-Id` AIR gives the client is the upstream's session id sealed (AES-256-GCM, a key
 * of its own derived from SECRET) together with the route and the key it was opened with. Any
 * instance holding SECRET opens it and forwards to the upstream with the upstream's id, so
 * consecutive requests of one session may land on different instances with nothing shared
 * between them but SECRET (not even Redis); the client cannot read or change the upstream's id,
 * and a session opened with one key or on one route is unknown to any other.
 */

const PURPOSE = 'mcp-session';
const VERSION = 'm1';
/** An upstream session id longer than this is not sealed (the spec's ids are short: UUIDs, tokens). */
export const MAX_UPSTREAM_SESSION_ID = 512;

export interface TMcpSession {
  routeName: string;
  keyId: string;
  /** The upstream's own `Mcp-Session-Id`. */
  upstream: string;
}

/** The client's `Mcp-Session-Id` for an upstream session (visible ASCII: `m1.` and base64url). */
export function sealSession(secret: string, session: TMcpSession): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, PURPOSE), iv);
  const plain = JSON.stringify([session.routeName, session.keyId, session.upstream]);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url')}`;
}

/** The session a client's `Mcp-Session-Id` names, or null when it is no session AIR sealed. */
export function openSession(secret: string, sealed: string): TMcpSession | null {
  if (!sealed.startsWith(`${VERSION}.`) || sealed.length > 4 * MAX_UPSTREAM_SESSION_ID) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64url');
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', deriveKey(secret, PURPOSE), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const parsed = JSON.parse(plain) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((part) => typeof part === 'string'))
      return null;
    const [routeName, keyId, upstream] = parsed as [string, string, string];
    return { routeName, keyId, upstream };
  } catch {
    return null;
  }
}
