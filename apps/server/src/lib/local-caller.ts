import type { IncomingMessage } from 'node:http';

/** Headers a proxy adds when it forwards a request (Caddy, nginx, load balancers). */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * A caller on this machine that no proxy forwarded: the socket's peer is loopback (not
 * `request.ip`, which a trusted proxy's X-Forwarded-For sets) and the request carries no
 * forwarding header. A proxy on the same machine connects from loopback too, so the peer alone
 * would let every client behind it through. Developer tools (the dev outbox, the billing clock)
 * and `/metrics` without its token answer only these callers.
 */
export function isLocalCaller(raw: IncomingMessage): boolean {
  if (!isLoopbackAddress(raw.socket.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => raw.headers[name] === undefined);
}
