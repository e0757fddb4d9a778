/** What of an upstream answer's headers the gateway reads or passes on (upstream.ts). */

/**
 * The upstream's response headers a caller gets: the body's description and the rate-limit and
 * model details OpenAI-compatible SDKs read. Anything else (cookies, server banners, CORS, internal
 * hosts) stays behind the gateway.
 */
const FORWARDED_RESPONSE_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'cache-control',
  'retry-after',
  'openai-model',
  'openai-organization',
  'openai-processing-ms',
  'openai-version',
]);

export function isForwardedHeader(lower: string): boolean {
  return FORWARDED_RESPONSE_HEADERS.has(lower) || lower.startsWith('x-ratelimit-');
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or -1. */
export function retryAfterMs(value: string): number {
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : -1;
  const at = Date.parse(value);
  return Number.isNaN(at) ? -1 : Math.max(0, at - Date.now());
}
