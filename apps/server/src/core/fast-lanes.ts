import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyServerFactoryHandler } from 'fastify';

/** Takes a request before Fastify's router does; answers false to leave it to Fastify. */
export type TFastLane = (request: IncomingMessage, response: ServerResponse) => boolean;

const lanesByServer = new WeakMap<http.Server, Map<string, TFastLane>>();

/** The server options Fastify hands its server factory (its defaults filled in). */
interface TServerOptions {
  http?: http.ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket?: number | null;
}

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would make itself, with the same timeouts,
 * except that a POST to a path with a fast lane goes to that lane first. The gateway's calls take
 * it (gateway/fast-lane.ts): Fastify's request lifecycle (request and reply objects, hooks, body
 * parser) cost a call more than the rest of the gateway's own work did (decision 038).
 */
export function serverWithFastLanes(
  handler: FastifyServerFactoryHandler,
  fastifyOptions: Record<string, unknown>,
): http.Server {
  // Fastify hands its own options object, typed loosely: these are the fields it always fills in.
  const options: TServerOptions = {
    http: fastifyOptions.http as http.ServerOptions | undefined,
    keepAliveTimeout: fastifyOptions.keepAliveTimeout as number,
    requestTimeout: fastifyOptions.requestTimeout as number,
    connectionTimeout: fastifyOptions.connectionTimeout as number,
    maxRequestsPerSocket: fastifyOptions.maxRequestsPerSocket as number | null | undefined,
  };
  const lanes = new Map<string, TFastLane>();
  const server = http.createServer(options.http ?? {}, (request, response) => {
    if (request.method === 'POST') {
      const lane = lanes.get(request.url!);
      if (lane !== undefined && lane(request, response)) return;
    }
    handler(request, response);
  });
  server.keepAliveTimeout = options.keepAliveTimeout;
  server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket && options.maxRequestsPerSocket > 0)
    server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  lanesByServer.set(server, lanes);
  return server;
}

/**
 * Sends POSTs to these exact paths (no query string) to `lane`. Once the app starts closing, they
 * go to Fastify again, which marks each answer `Connection: close`.
 */
export function installFastLane(app: FastifyInstance, paths: readonly string[], lane: TFastLane): void {
  const lanes = lanesByServer.get(app.server);
  if (!lanes) return; // a server made without the factory: every call takes the Fastify routes
  for (const path of paths) lanes.set(path, lane);
  app.addHook('preClose', (done) => {
    for (const path of paths) lanes.delete(path);
    done();
  });
}
