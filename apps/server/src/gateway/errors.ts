import type { ServerResponse } from 'node:http';
import { errorFromChat } from './formats/anthropic-in';

/**
 * The gateway speaks OpenAI's error shape, not the console's `{ message }`: SDKs built for
 * OpenAI read `error.message` / `error.code`. Bodies are prebuilt once per code (they carry no
 * per-request detail) so an error costs one write.
 *
 * `final: true` marks a refusal that cannot succeed on retry within the period (contract 6): it
 * goes out with `x-should-retry: false` and never with `Retry-After`, so the official OpenAI SDKs
 * stop at once instead of retrying it (they retry any 429 by default, three requests in all).
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
  key_expired: {
    status: 401,
    type: 'authentication_error',
    message: 'This API key has expired. Create a new key or extend its expiry.',
    // The contract's code for any refused key: SDKs treat it as an authentication failure.
    wire: 'invalid_api_key',
  },
  route_not_found: { status: 404, type: 'invalid_request_error', message: 'Route not found.' },
  quota_exceeded: {
    status: 402,
    type: 'insufficient_quota',
    message: "You have used this month's calls of your plan. Upgrade the plan to continue.",
    final: true,
  },
  payment_required: {
    status: 402,
    type: 'insufficient_quota',
    message: 'This route is priced: add a card to your account (Billing) to call it.',
    final: true,
  },
  spend_limit_reached: {
    status: 402,
    type: 'insufficient_quota',
    message:
      "This call would pass your account's marketplace spend limit for this month. Raise the limit (Usage) to continue.",
    final: true,
  },
  key_budget_exceeded: {
    status: 402,
    type: 'insufficient_quota',
    message:
      "This call would pass this API key's marketplace budget for this month (monthly_spend). Raise the key's budget or use another key.",
    final: true,
  },
  token_rate_limit_exceeded: {
    status: 429,
    type: 'rate_limit_error',
    message:
      'This call would pass the tokens per minute of this API key (prompt plus max_tokens). Retry after the time in Retry-After.',
  },
  token_request_too_large: {
    status: 429,
    type: 'rate_limit_error',
    message:
      "This call alone reserves more tokens (prompt plus max_tokens) than this API key's tokens per minute: lower max_tokens or shorten the prompt.",
    // The contract's code; waiting cannot help, so it is final (x-should-retry: false).
    wire: 'token_rate_limit_exceeded',
    final: true,
  },
  rate_limit_exceeded: {
    status: 429,
    type: 'rate_limit_error',
    message: 'Too many calls with this API key in this minute. Retry after the time in Retry-After.',
  },
  key_quota_exceeded: {
    status: 429,
    type: 'insufficient_quota',
    message: "This API key has used this month's calls of its own cap.",
    final: true,
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
  upstreams_unavailable: {
    status: 503,
    type: 'api_error',
    message:
      "Every upstream of this route is failing and skipped for its circuit's cooldown. Retry after the time in Retry-After.",
  },
  origin_not_allowed: {
    status: 403,
    type: 'permission_error',
    message: "This API key may not be used from this page's origin: add it to the key's allowed origins.",
  },
  unsupported_endpoint: {
    status: 404,
    type: 'invalid_request_error',
    message: 'This route does not serve this endpoint.',
  },
  unsupported_parameter: {
    status: 400,
    type: 'invalid_request_error',
    message: "A field of this request is not translated to this route's upstream format.",
  },
  unknown_path: { status: 404, type: 'invalid_request_error', message: 'Unknown API path.' },
  method_not_allowed: {
    status: 405,
    type: 'invalid_request_error',
    message: 'This method is not allowed on this path.',
  },
  internal_error: { status: 500, type: 'api_error', message: 'Something went wrong.' },
} as const;

export type TGatewayErrorCode = keyof typeof GATEWAY_ERRORS;

/** The refusals that retrying cannot turn into a success (see `final` above). */
const FINAL_CODES: ReadonlySet<TGatewayErrorCode> = new Set(
  (Object.keys(GATEWAY_ERRORS) as TGatewayErrorCode[]).filter(
    (code) => (GATEWAY_ERRORS[code] as { final?: boolean }).final === true,
  ),
);

function errorBody(code: TGatewayErrorCode, message: string): Buffer {
  const entry = GATEWAY_ERRORS[code] as { type: string; wire?: string };
  return Buffer.from(JSON.stringify({ error: { message, type: entry.type, code: entry.wire ?? code } }));
}

const BODIES = Object.fromEntries(
  Object.keys(GATEWAY_ERRORS).map((code) => [
    code,
    errorBody(code as TGatewayErrorCode, GATEWAY_ERRORS[code as TGatewayErrorCode].message),
  ]),
) as Record<TGatewayErrorCode, Buffer>;

/** The key's monthly cap reached (contract 6b): the message names the cap. */
export function keyQuotaBody(cap: number): Buffer {
  return errorBody(
    'key_quota_exceeded',
    `This API key has used its cap of ${cap} calls this month. Raise the key's monthly_calls or use another key.`,
  );
}

/** A protocol the route does not serve (contract 6c): the message names those it does. */
export function unsupportedEndpointBody(path: string, served: readonly string[]): Buffer {
  return errorBody(
    'unsupported_endpoint',
    `This route does not serve ${path}; it serves: ${served.join(', ')}.`,
  );
}

/** A chat request an upstream of another format cannot carry (formats/): the message names the field. */
export function unsupportedParameterBody(message: string): Buffer {
  return errorBody('unsupported_parameter', message);
}

/** A request body the gateway refuses for one field (the message names it). */
export function invalidRequestBody(message: string): Buffer {
  return errorBody('invalid_request', message);
}

/** A model id none of whose providers this call may use (contract 5b). */
export function noProviderBody(modelId: string): Buffer {
  return errorBody(
    'route_not_found',
    `No provider of model ${modelId} that this key may call meets the request's provider preferences.`,
  );
}

/** An unknown path or method under /api/v1 (contract 6): OpenAI's shape, naming what there is. */
export function unknownPathBody(method: string, path: string, allow: string | null): Buffer {
  if (allow === null) return errorBody('unknown_path', `Unknown API path: ${method} ${path}.`);
  return errorBody('method_not_allowed', `${method} is not allowed on ${path}; allowed: ${allow}.`);
}

export function gatewayErrorBody(code: TGatewayErrorCode): Buffer {
  return BODIES[code];
}

/** Answers of Anthropic clients' calls (`/v1/messages`): the gateway's errors go out in Anthropic's shape. */
const ANTHROPIC_ANSWERS = new WeakSet<ServerResponse>();

export function answersInAnthropicShape(res: ServerResponse): void {
  ANTHROPIC_ANSWERS.add(res);
}

/** Writes a gateway error on the raw response (the gateway answers outside Fastify's reply). */
export function writeGatewayError(
  res: ServerResponse,
  code: TGatewayErrorCode,
  requestId: string,
  retryAfterSeconds?: number,
  /** Headers of the routing (`x-air-route`, `x-air-attempts`…), as name, value pairs. */
  extraHeaders?: readonly string[] | null,
  body: Buffer = BODIES[code],
): number {
  const { status } = GATEWAY_ERRORS[code];
  if (res.headersSent) {
    res.destroy();
    return status;
  }
  if (ANTHROPIC_ANSWERS.has(res)) body = errorFromChat(status, body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
  };
  if (FINAL_CODES.has(code)) headers['x-should-retry'] = 'false';
  else if (retryAfterSeconds !== undefined)
    headers['retry-after'] = Math.max(1, Math.ceil(retryAfterSeconds));
  if (extraHeaders)
    for (let i = 0; i < extraHeaders.length; i += 2) headers[extraHeaders[i]!] = extraHeaders[i + 1]!;
  res.writeHead(status, headers);
  res.end(body);
  return status;
}
