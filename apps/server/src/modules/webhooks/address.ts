import { isIP } from 'node:net';
import { AppError } from '../../lib/app-error';
import { assertUpstreamAllowed, isPrivateAddress, type TLookup } from '../../lib/upstream-address';

const FIELD = 'url';

/**
 * Where a webhook may point (contract 6e): the upstreams' address checks (absolute URL, no
 * credentials, no private address unless UPSTREAM_ALLOW_PRIVATE), and HTTPS only: plain HTTP
 * carries signed account events in clear, so it is taken only for a loopback or private address
 * (a receiver on the same machine or network) where UPSTREAM_ALLOW_PRIVATE allows those.
 * Sending re-checks each connection's resolved address (the worker's guarded agent).
 */
export async function assertWebhookUrl(
  raw: string,
  allowPrivate: boolean,
  lookup?: TLookup,
): Promise<string> {
  const href = await assertUpstreamAllowed(raw, allowPrivate, lookup, FIELD);
  const url = new URL(href);
  if (url.protocol === 'https:') return href;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const privateHost =
    host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isPrivateAddress(host));
  if (!allowPrivate || !privateHost)
    throw new AppError('validation', { inputError: FIELD, messageKey: 'validation.webhook_https' });
  return href;
}
