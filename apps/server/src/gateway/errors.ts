import type { ServerResponse } from 'node:http';

/**
 * The gateway speaks OpenAI's error shape, not the console's `{ message }`: SDKs built for
 * OpenAI read `error.message` / `error.code`. Bodies are prebuilt once per code (they carry no
 * per-request detail) so an error costs one write.
 */
export const GATEWAY_ERRORS = {
  invalid_request: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The request body must be a JSON object.',
  },
  missing_route: {
    status: 400,
    type: 'invalid_request_error',
    message: 'Name the route in the x-route-name header or the body\'s "model".',
  },
  invalid_model: {
    status: 400,
    type: 'invalid_request_error',
    message: 'The body\'s "model" must not contain a NUL character.',
  },
  payload_too_large: {
    status: 413,
    type: 'invalid_request_error',
    message: 'The request body is too large.',
  },
  invalid_api_key: {
    status: 401,
    type: 'authentication_error',
    message: 'Invalid API key. Send an active AIR key as "Authorization: Bearer air_..." or "x-api-key".',
  },
  insufficient_scope: {
    status: 403,
    type: 'permission_error',
    message: 'This API key does not have the gateway.invoke scope.',
  },
  route_not_found: { status: 404, type: 'invalid_request_error', message: 'Route not found.' },
  quota_exceeded: {
    status: 402,
    type: 'insufficient_quota',
    message: "You have used this month's calls of your plan. Upgrade the plan to continue.",
  },
  rate_limit_exceeded: {
    status: 429,
    type: 'rate_limit_error',
    message: 'Too many calls with this API key in this minute. Retry after the time in Retry-After.',
  },
  too_many_unknown: {
    status: 429,
    type: 'rate_limit_error',
    message:
      'Too many calls with unknown API keys or routes from this address. Retry after the time in Retry-After.',
  },
  upstream_unreachable: {
    status: 502,
    type: 'api_error',
    message: 'The upstream endpoint could not be reached.',
  },
  upstream_timeout: {
    status: 504,
    type: 'api_error',
    message: 'The upstream endpoint did not answer in time.',
  },
  internal_error: { status: 500, type: 'api_error', message: 'Something went wrong.' },
} as const;

export type TGatewayErrorCode = keyof typeof GATEWAY_ERRORS;

const BODIES = Object.fromEntries(
  Object.entries(GATEWAY_ERRORS).map(([code, { type, message }]) => [
    code,
    Buffer.from(JSON.stringify({ error: { message, type, code } })),
  ]),
) as Record<TGatewayErrorCode, Buffer>;

export function gatewayErrorBody(code: TGatewayErrorCode): Buffer {
  return BODIES[code];
}

/** Writes a gateway error on the raw response (the gateway answers outside Fastify's reply). */
export function writeGatewayError(
  res: ServerResponse,
  code: TGatewayErrorCode,
  requestId: string,
  retryAfterSeconds?: number,
): number {
  const { status } = GATEWAY_ERRORS[code];
  const body = BODIES[code];
  if (res.headersSent) {
    res.destroy();
    return status;
  }
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
  };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = Math.max(1, Math.ceil(retryAfterSeconds));
  res.writeHead(status, headers);
  res.end(body);
  return status;
}
