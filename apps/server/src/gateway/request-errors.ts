import type { FastifyBaseLogger } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAppError } from '../lib/app-error';
import { drainRequest } from '../lib/drain-request';
import { writeGatewayError, type TGatewayErrorCode } from './errors';

/**
 * A call refused before its handler ran (the key look-up's budget, the body), in OpenAI's shape:
 * the Fastify routes' error handler and the fast lane answer through this one function. An
 * over-limit body's 413 goes out once the client has finished sending (drainRequest).
 */
export function refuseRequest(
  raw: IncomingMessage,
  res: ServerResponse,
  error: { statusCode?: number },
  requestId: string,
  log: Pick<FastifyBaseLogger, 'error'>,
): void {
  const status = error.statusCode ?? 500;
  // 429 here is the budget of unknown keys per client address.
  const code: TGatewayErrorCode =
    status === 429
      ? 'too_many_unknown'
      : status === 413
        ? 'payload_too_large'
        : status >= 400 && status < 500
          ? 'invalid_request'
          : 'internal_error';
  if (code === 'internal_error') log.error({ err: error }, 'gateway: request failed');
  const write = () =>
    writeGatewayError(res, code, requestId, isAppError(error) ? error.retryAfter : undefined);
  if (code === 'payload_too_large') void drainRequest(raw).then(write);
  else write();
}

/** The error of a body over the gateway's limit, as Fastify's parser reports one. */
export const BODY_TOO_LARGE = { statusCode: 413 } as const;
