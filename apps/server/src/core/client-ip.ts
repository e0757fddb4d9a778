import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';

declare module 'fastify' {
  interface FastifyInstance {
    /** TRUST_PROXY as the one function Fastify's `request.ip` and the gateway's fast lane use. */
    clientTrust: TTrust;
  }
}

/** Which proxies may name the client in X-Forwarded-For (TRUST_PROXY), as a function, or false: none. */
export type TTrust = false | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as one function, given to Fastify (`request.ip`) and used by the gateway's fast lane,
 * so both name the same client: a hop count trusts that many proxies nearest the server, `true`
 * every proxy, a list those addresses and ranges.
 */
export function trustOf(setting: boolean | number | string): TTrust {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  if (setting === true) return () => true;
  if (setting === false || setting === '') return false;
  return proxyAddr.compile(setting.split(',').map((entry) => entry.trim()));
}

/** The client's address, as Fastify's `request.ip` reads it under the same trust. */
export function clientIp(request: IncomingMessage, trust: TTrust): string {
  if (trust === false) return request.socket.remoteAddress ?? '';
  const addresses = proxyAddr.all(request, trust);
  return addresses[addresses.length - 1] ?? '';
}
