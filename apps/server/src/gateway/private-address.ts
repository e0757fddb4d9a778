import { BlockList, isIP } from 'node:net';

/**
 * Loopback, private, link-local, carrier-grade NAT, unspecified and unique-local ranges: what an
 * upstream may not resolve to when UPSTREAM_ALLOW_PRIVATE is false. The gateway checks this at
 * connect time (every DNS answer), so a name that resolved publicly at save time and privately
 * later is still refused.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(ip: string): boolean {
  const bare = ip.startsWith('[') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    // IPv4-mapped IPv6 (::ffff:10.0.0.1) is the IPv4 address in disguise.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  return false;
}
