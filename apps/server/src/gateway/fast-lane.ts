import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { apiKeyOf, isUnexpired, type TAuth, type TKeyAuth } from '../core/credentials';
import { clientIp, type TTrust } from '../core/client-ip';
import type { TFastLane } from '../core/fast-lanes';
import { genReqId } from '../core/request-context';
import type { TGatewayRequest } from './invoke';
import { BODY_TOO_LARGE, refuseRequest } from './request-errors';

type TInvoke = (request: TGatewayRequest, res: ServerResponse) => Promise<void>;

/** A call's request as the fast lane reads it: what the handler needs, and nothing made that it does not. */
class LaneRequest implements TGatewayRequest {
  auth: TAuth | null = null;
  keyExpired = false;
  body: Buffer | undefined = undefined;
  private address: string | undefined;
  private logger: FastifyBaseLogger | undefined;

  constructor(
    private readonly raw: IncomingMessage,
    readonly id: string,
    private readonly trust: TTrust,
    private readonly appLog: FastifyBaseLogger,
  ) {}

  get headers(): IncomingHttpHeaders {
    return this.raw.headers;
  }

  get ip(): string {
    return (this.address ??= clientIp(this.raw, this.trust));
  }

  /** Made on first use: a call logs nothing unless it fails. */
  get log(): FastifyBaseLogger {
    return (this.logger ??= this.appLog.child({ reqId: this.id }));
  }
}

/**
 * The gateway's calls (`POST /api/v1`, `/api/v1/chat/completions`) taken as they arrive, before
 * Fastify's router: the same checks and answers as the Fastify routes in routes.ts (which serve
 * `inject` and document the calls), without Fastify's request lifecycle around them. In order:
 * the request id (`x-request-id` when plain, core/request-context.ts), `x-air-instance`, the key
 * (auth hook's rules: cached keys cost nothing, unknown ones take from the client address's
 * budget, expired ones are refused saying so), the body (10 MiB, 413 once the client has sent
 * it all), then the handler.
 */
export function createFastLane(app: FastifyInstance, invoke: TInvoke, bodyLimit: number): TFastLane {
  const trust = app.clientTrust;
  const instance = app.config.instanceName;

  function withKey(request: LaneRequest, key: TKeyAuth | null, raw: IncomingMessage, res: ServerResponse) {
    if (isUnexpired(key)) request.auth = key;
    else request.keyExpired = true;
    readBody(request, raw, res);
  }

  function readBody(request: LaneRequest, raw: IncomingMessage, res: ServerResponse) {
    const headers = raw.headers;
    const declared = headers['content-length'];
    if (declared === undefined && headers['transfer-encoding'] === undefined) {
      void invoke(request, res);
      return;
    }
    if (declared !== undefined && Number(declared) > bodyLimit)
      return refuseRequest(raw, res, BODY_TOO_LARGE, request.id, request.log);
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (part: Buffer) => {
      size += part.length;
      if (size <= bodyLimit) return void parts.push(part);
      raw.off('data', onData);
      raw.off('end', onEnd);
      refuseRequest(raw, res, BODY_TOO_LARGE, request.id, request.log);
    };
    const onEnd = () => {
      request.body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
      void invoke(request, res);
    };
    raw.on('data', onData);
    raw.on('end', onEnd);
    // A client that goes away mid-body: its socket is closed, nothing to answer.
    raw.on('error', () => {});
  }

  return (raw, res) => {
    const request = new LaneRequest(raw, genReqId(raw), trust, app.log);
    if (instance) res.setHeader('x-air-instance', instance);
    // A session token is no gateway credential: only a key is looked up.
    const rawKey = apiKeyOf(raw.headers);
    if (rawKey === null) {
      readBody(request, raw, res);
      return true;
    }
    let key: ReturnType<typeof app.resolveApiKey>;
    try {
      key = app.resolveApiKey(rawKey, request);
    } catch (error) {
      refuseRequest(raw, res, error as { statusCode?: number }, request.id, request.log);
      return true;
    }
    if (key instanceof Promise)
      key.then(
        (found) => withKey(request, found, raw, res),
        (error: { statusCode?: number }) => refuseRequest(raw, res, error, request.id, request.log),
      );
    else withKey(request, key, raw, res);
    return true;
  };
}
