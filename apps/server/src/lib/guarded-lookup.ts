import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { isPrivateAddress } from './upstream-address';

type TLookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `lookup` for net.connect that refuses private answers: every connection is checked against what
 * DNS answered at that moment (DNS rebinding). The gateway's upstream agent and webhooks' use it.
 */
export function refusePrivateLookup(
  hostname: string,
  options: LookupOptions,
  callback: TLookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const list = addresses as LookupAddress[];
    if (list.length === 0 || list.some((entry) => isPrivateAddress(entry.address))) {
      const denied: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private address`);
      denied.code = 'EAI_PRIVATE';
      return callback(denied, '');
    }
    if (options.all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
}

/** An undici agent for outbound calls to addresses users chose (webhooks), private ones only when allowed. */
export function outboundAgent(allowPrivate: boolean, connections = 16): Agent {
  return new Agent({
    connections,
    keepAliveTimeout: 10_000,
    ...(allowPrivate ? {} : { connect: { lookup: refusePrivateLookup as never } }),
  });
}
