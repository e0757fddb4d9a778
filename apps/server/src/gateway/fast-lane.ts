import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { TAuth } from '../core/credentials';
import type { TAuthenticatedCaller } from '../core/authenticate';
import { clientIp, type TTrust } from '../core/client-ip';
import type { TFastLane } from '../core/fast-lanes';
import { genReqId } from '../core/request-context';
import type { TGatewayRequest, TInvoke } from './invoke';
import { BODY_TOO_LARGE, refuseRequest } from './request-errors';

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
 * it all), then the handler. `prepare` marks an Anthropic client's answer first, so what is
 * refused here (a 413, the unknown keys' budget) is in Anthropic's shape too.
 */
export function createFastLane(
  app: FastifyInstance,
  invoke: TInvoke,
  bodyLimit: number,
  /** Marks the answer before anything is refused (`/v1/messages`: errors in Anthropic's shape). */
  prepare: ((res: ServerResponse) => void) | null = null,
): TFastLane {
  const trust = app.clientTrust;
  const instance = app.config.instanceName;

  function withCaller(
    request: LaneRequest,
    caller: TAuthenticatedCaller,
    raw: IncomingMessage,
    res: ServerResponse,
  ) {
    request.auth = caller.auth;
    request.keyExpired = caller.keyExpired;
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
    if (prepare !== null) prepare(res);
    if (instance) res.setHeader('x-air-instance', instance);
    // The one authentication of every door; a session token is no gateway credential.
    let caller: ReturnType<typeof app.authenticateCaller>;
    try {
      caller = app.authenticateCaller(raw.headers, request, 'keys');
    } catch (error) {
      refuseRequest(raw, res, error as { statusCode?: number }, request.id, request.log);
      return true;
    }
    if (caller instanceof Promise)
      caller.then(
        (found) => withCaller(request, found, raw, res),
        (error: { statusCode?: number }) => refuseRequest(raw, res, error, request.id, request.log),
      );
    else withCaller(request, caller, raw, res);
    return true;
  };
}
