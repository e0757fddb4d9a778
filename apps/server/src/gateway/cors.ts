import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/*
 * Browser clients of `/api/v1` (contract 6c) and `/api/mcp` (6d): a preflight is answered without a key (it carries
 * none), and the call itself is answered to a page only when its key lists the page's origin in
 * `allowed_origins` (none by default, so a server key cannot be used from a page by mistake). The
 * gateway's fast lane answers calls before Fastify, so this is done where the call is answered,
 * not by @fastify/cors.
 */

/** What a page's script may read of an answer, besides the CORS-safelisted headers. */
const EXPOSED = [
  'x-request-id',
  'x-air-route',
  'x-air-attempts',
  'x-air-cache',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'retry-after',
  'x-should-retry',
  // MCP (contract 6d): a browser client keeps its session and reads the negotiated version.
  'mcp-session-id',
  'mcp-protocol-version',
].join(', ');

/** Headers a page may send: the OpenAI SDKs' and AIR's own. */
const ALLOWED_HEADERS = /^[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*$/i;

/**
 * The page origin of a cross-origin request, or null: no `Origin` (a server client), or the
 * console's own pages (same host: its playground calls the gateway with a key).
 */
export function crossOrigin(headers: IncomingHttpHeaders): string | null {
  const origin = headers.origin;
  if (origin === undefined) return null;
  // An opaque origin (a sandboxed frame, a file): cross-origin, and no key can list it.
  if (origin === 'null') return origin;
  const host = headers.host;
  const at = origin.indexOf('://');
  if (host !== undefined && at > 0 && origin.slice(at + 3).toLowerCase() === host.toLowerCase()) return null;
  return origin.toLowerCase();
}

/** The answer may be read by this page (its key allows the origin). */
export function allowOrigin(res: ServerResponse, origin: string): void {
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', EXPOSED);
  res.setHeader('vary', 'Origin');
}

/**
 * A preflight (`OPTIONS` with `Access-Control-Request-Method`): which method the path takes and
 * the headers asked for; no key is read. A page whose key does not allow its origin is refused
 * when it calls (no `access-control-allow-origin` on that answer: its script cannot read it).
 */
export function answerPreflight(
  headers: IncomingHttpHeaders,
  res: ServerResponse,
  requestId: string,
  allow: string,
): void {
  const origin = headers.origin;
  const asked = headers['access-control-request-headers'];
  const answer: Record<string, string> = {
    'x-request-id': requestId,
    allow: `${allow}, OPTIONS`,
    vary: 'Origin, Access-Control-Request-Headers',
  };
  if (origin !== undefined) {
    answer['access-control-allow-origin'] = origin;
    answer['access-control-allow-methods'] = allow;
    answer['access-control-max-age'] = '600';
    if (typeof asked === 'string' && asked.length <= 1000 && ALLOWED_HEADERS.test(asked))
      answer['access-control-allow-headers'] = asked;
  }
  res.writeHead(204, answer);
  res.end();
}
