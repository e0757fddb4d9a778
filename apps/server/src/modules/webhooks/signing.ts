import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
 * 24 random bytes; the signature of a delivery is `v1,` + base64 HMAC-SHA256, keyed with those
 * bytes, of `${id}.${timestamp}.${body}` (timestamp in seconds). Any receiver library of the
 * standard verifies it.
 */
const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** A delivery's `webhook-id`: unique, stable across retries (receivers deduplicate on it). */
export function newDeliveryId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

export function signatureOf(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt (the timestamp is the attempt's, as the standard asks). */
export function signedHeaders(
  secret: string,
  id: string,
  body: string,
  nowMs: number,
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, id, timestamp, body),
  };
}
