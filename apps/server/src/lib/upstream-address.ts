import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { upstreamUrlProblem } from '@air/shared/validation';
import { registerMessages } from '../i18n';
import { AppError } from './app-error';

/**
 * Where an endpoint may point (server contract section 5): an absolute http(s) URL, and loopback
 * or private addresses only when UPSTREAM_ALLOW_PRIVATE is on. The registry checks at save time
 * (`assertUpstreamAllowed`); the gateway checks every connection's resolved address with
 * `isPrivateAddress`, because a name can resolve differently later (DNS rebinding).
 */

registerMessages({
  en: {
    'validation.route_endpoint_url': 'Please enter an absolute http:// or https:// URL',
    'validation.route_endpoint_credentials':
      'Do not put credentials in the URL: add them as an upstream header instead',
    'validation.route_endpoint_private': 'Private, loopback and link-local addresses are not allowed',
    'validation.route_endpoint_unresolved': 'The host name of this URL could not be resolved',
  },
  es: {
    'validation.route_endpoint_url': 'Introduce una URL absoluta http:// o https://',
    'validation.route_endpoint_credentials':
      'No pongas credenciales en la URL: añádelas como cabecera del servicio de destino',
    'validation.route_endpoint_private': 'No se permiten direcciones privadas, locales ni de enlace local',
    'validation.route_endpoint_unresolved': 'No se ha podido resolver el nombre de host de esta URL',
  },
});

/** Every range that is not the public internet: private, loopback, link-local, CGNAT, reserved. */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address carries (mapped `::ffff:`, translated `::ffff:0:`, compatible
 * `::`, NAT64, 6to4), if any, in dotted or hex form: `[::127.0.0.1]` is normalised by URL to
 * `[::7f00:1]`, which must be seen as loopback too.
 */
function embeddedIpv4(ip: string): string | undefined {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(lower);
  const parts = hex ?? sixToFour;
  if (!parts) return undefined;
  const high = parseInt(parts[1]!, 16);
  const low = parseInt(parts[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for any address that is not a public unicast one (including unparseable input: fail closed). */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return isPrivateAddress(v4);
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export type TLookup = (hostname: string) => Promise<string[]>;

const DNS_TIMEOUT_MS = 5_000;

async function systemLookup(hostname: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), DNS_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([dnsLookup(hostname, { all: true, verbatim: true }), timeout]);
    return answers.map((answer) => answer.address);
  } finally {
    clearTimeout(timer);
  }
}

function refuser(field: string) {
  return (messageKey: string): never => {
    throw new AppError('validation', { inputError: field, messageKey });
  };
}

/**
 * Validates an endpoint URL for saving and returns it normalised. Throws a 400 on `route_endpoint`
 * when it is not an absolute http(s) URL, carries credentials, or (unless `allowPrivate`) names or
 * resolves to a non-public address.
 */
export async function assertUpstreamAllowed(
  rawUrl: string,
  allowPrivate: boolean,
  lookup: TLookup = systemLookup,
  /** The field a refusal names (`config.upstreams.1.url` for a routed endpoint's other upstreams). */
  field = 'route_endpoint',
): Promise<string> {
  const refuse: (messageKey: string) => never = refuser(field);
  // The form rule (absolute http(s), no credentials) is the shared one the request schema and the
  // console apply; repeated here because callers other than the route may save an upstream.
  const problem = upstreamUrlProblem(rawUrl);
  if (problem) refuse(problem);
  const url = new URL(rawUrl.trim());
  if (allowPrivate) return url.href;

  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host)) {
    if (isPrivateAddress(host)) refuse('validation.route_endpoint_private');
    return url.href;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) refuse('validation.route_endpoint_private');
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch {
    refuse('validation.route_endpoint_unresolved');
  }
  if (addresses.length === 0) refuse('validation.route_endpoint_unresolved');
  if (addresses.some(isPrivateAddress)) refuse('validation.route_endpoint_private');
  return url.href;
}
