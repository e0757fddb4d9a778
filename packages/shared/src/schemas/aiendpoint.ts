import { z } from 'zod';
import { upstreamUrlProblem } from '../validation';
import { ZPrice, ZPricePart } from './price';

/**
 * The AI endpoint registry (server contract section 5).
 *
 * Wire shapes:
 * - `GET /api/aiendpoint` → `{ data: TAiEndpoint[] }` (the caller's account).
 * - `POST /api/aiendpoint` → `{ data: { data: id, id } }` (the spec reads `data.data` as the new id).
 * - `GET /api/aiendpoint/{id}` → `{ data: TAiEndpoint }` for an own endpoint, or
 *   `{ data: TSharedAiEndpoint & { editable: false } }` for another account's shared public one.
 * - `GET /api/aiendpointShared` → `{ data: TSharedAiEndpoint[] }` (the marketplace).
 */

export const ROUTE_TYPES = ['agent', 'model', 'datasource'] as const;
export const ZRouteType = z.enum(ROUTE_TYPES);
export type TRouteType = z.infer<typeof ZRouteType>;

/**
 * Lower-case `provider/name`: the provider is letters, digits, `-`, `_`, `.`; the name after the
 * slash may also hold `:` (e.g. `acme/llama-3.1:8b`).
 */
export const ROUTE_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*\/[a-z0-9._:-]+$/;
export const ROUTE_NAME_MAX_LENGTH = 128;

/** What upstream header values look like on the wire; sending it back keeps the stored value. */
export const MASKED_HEADER_VALUE = '********';
/** An HTTP header field name (RFC 9110 token). */
export const HEADER_NAME_PATTERN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Headers the gateway owns: an endpoint may not configure them. */
export const RESERVED_HEADER_NAMES = [
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
  'x-route-name',
] as const;
export const MAX_UPSTREAM_HEADERS = 20;
export const DESCRIPTION_MAX_LENGTH = 20_000;
export const UPSTREAM_TIMEOUT_MIN_MS = 1_000;
export const UPSTREAM_TIMEOUT_MAX_MS = 600_000;

export const AIENDPOINT_MESSAGES = {
  routeNameFormat: 'validation.route_name_format',
  headerName: 'validation.header_name',
  headerValue: 'validation.header_value',
} as const;

export const ZRouteName = z
  .string()
  .trim()
  .min(1)
  .max(ROUTE_NAME_MAX_LENGTH)
  .regex(ROUTE_NAME_PATTERN, { error: AIENDPOINT_MESSAGES.routeNameFormat });

/**
 * An absolute http(s) URL without credentials (`upstreamUrlProblem`); the server checks further
 * for private addresses, per its configuration.
 */
export const ZRouteEndpoint = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = value ? upstreamUrlProblem(value) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const ZEndpointName = z.string().trim().min(1).max(200);
const ZDescription = z.string().max(DESCRIPTION_MAX_LENGTH);

/**
 * An HTTP field value (RFC 9110 `field-value`): visible ASCII and obs-text (0x80-0xFF), with spaces
 * and tabs only between them. Anything else (a character outside Latin-1, a control character, a
 * line break, whitespace at either end) cannot be sent: the HTTP client refuses the request, so a
 * value saved with it would turn every call of the route into a 502 that never reaches the upstream.
 */
export const HEADER_VALUE_PATTERN =
  /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** `{ name: value }`; a value equal to MASKED_HEADER_VALUE keeps the stored one, null removes it. */
export const ZUpstreamHeaders = z
  .record(
    z.string().regex(HEADER_NAME_PATTERN, { error: AIENDPOINT_MESSAGES.headerName }),
    z
      .string()
      .max(4096)
      .nullable()
      .describe(
        'An HTTP field value: visible ASCII and Latin-1 (0x80-0xFF), spaces and tabs only between them',
      ),
  )
  .superRefine((headers, ctx) => {
    // Checked here rather than on the value schema so the message can name the header.
    for (const [name, value] of Object.entries(headers)) {
      if (value !== null && !HEADER_VALUE_PATTERN.test(value))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: AIENDPOINT_MESSAGES.headerValue,
          params: { name },
        });
    }
  })
  .refine((headers) => Object.keys(headers).length <= MAX_UPSTREAM_HEADERS, {
    error: AIENDPOINT_MESSAGES.headerName,
  });

/*
 * Routing and resilience (server contract section 6a): every field optional; an endpoint without
 * them is forwarded as before (one upstream, no retry, no circuit, no cache).
 */
export const ROUTING_LIMITS = {
  upstreams: { min: 1, max: 8 },
  weight: { min: 1, max: 100, default: 1 },
  attempts: { min: 0, max: 5, default: 0 },
  backoffMs: { min: 0, max: 10_000, default: 250 },
  fallbacks: { max: 3 },
  failures: { min: 1, max: 100, default: 5 },
  cooldownS: { min: 1, max: 3600, default: 30 },
  cacheTtlS: { min: 0, max: 86_400, default: 0 },
} as const;

export const ROUTING_MESSAGES = {
  upstreamDuplicate: 'validation.upstream_duplicate',
  fallbackSelf: 'validation.fallback_self',
  fallbackDuplicate: 'validation.fallback_duplicate',
  fallbackUnknown: 'validation.fallback_unknown',
} as const;

const int = (range: { min: number; max: number }) => z.number().int().min(range.min).max(range.max);

/**
 * The API an upstream speaks (contract 6c): `openai` (chat completions, the default), `anthropic`
 * (Messages API) or `gemini` (generateContent). Calls are translated to it and its answers back;
 * its auth header (`authorization`, `x-api-key` + `anthropic-version`, `x-goog-api-key`) is one of
 * the endpoint's encrypted upstream headers.
 */
export const UPSTREAM_FORMATS = ['openai', 'anthropic', 'gemini'] as const;
export const ZUpstreamFormat = z.enum(UPSTREAM_FORMATS);
export type TUpstreamFormat = z.infer<typeof ZUpstreamFormat>;

export const ZUpstream = z.strictObject({
  url: ZRouteEndpoint,
  weight: int(ROUTING_LIMITS.weight).default(ROUTING_LIMITS.weight.default),
  format: ZUpstreamFormat.default('openai'),
});
export type TUpstream = z.infer<typeof ZUpstream>;

export const ZUpstreams = z
  .array(ZUpstream)
  .min(ROUTING_LIMITS.upstreams.min)
  .max(ROUTING_LIMITS.upstreams.max)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((upstream, index) => {
      const url = upstream.url.trim();
      if (seen.has(url))
        ctx.addIssue({ code: 'custom', path: [index, 'url'], message: ROUTING_MESSAGES.upstreamDuplicate });
      seen.add(url);
    });
  });

export const ZRetry = z.strictObject({
  attempts: int(ROUTING_LIMITS.attempts),
  backoff_ms: int(ROUTING_LIMITS.backoffMs).default(ROUTING_LIMITS.backoffMs.default),
});
export type TRetry = z.infer<typeof ZRetry>;

export const ZCircuit = z.strictObject({
  failures: int(ROUTING_LIMITS.failures),
  cooldown_s: int(ROUTING_LIMITS.cooldownS),
});
export type TCircuit = z.infer<typeof ZCircuit>;

export const ZFallbacks = z
  .array(ZRouteName)
  .max(ROUTING_LIMITS.fallbacks.max)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((name, index) => {
      if (seen.has(name))
        ctx.addIssue({ code: 'custom', path: [index], message: ROUTING_MESSAGES.fallbackDuplicate });
      seen.add(name);
    });
  });

export const ZCacheTtl = int(ROUTING_LIMITS.cacheTtlS);

/** What is stored in `ai_endpoints.routing` (each part absent when not set). */
export const ZRoutingConfig = z.object({
  /** `format` is absent for `openai` (what every stored entry was before formats). */
  upstreams: z
    .array(z.object({ url: z.string(), weight: z.number().int(), format: ZUpstreamFormat.optional() }))
    .optional(),
  retry: z.object({ attempts: z.number().int(), backoff_ms: z.number().int() }).optional(),
  fallbacks: z.array(z.string()).optional(),
  circuit: z.object({ failures: z.number().int(), cooldown_s: z.number().int() }).optional(),
  cache_ttl_s: z.number().int().optional(),
});
export type TRoutingConfig = z.infer<typeof ZRoutingConfig>;

/** A tool's name as its MCP server gives it: visible ASCII, at most 128 characters (contract 6d). */
export const ZMcpToolName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/);

/** Tools an MCP endpoint may price one by one. */
export const TOOL_PRICES_MAX = 500;
/**
 * An MCP endpoint's per-tool prices (contract 6d, decision 063): tool name -> micros per call of
 * that tool, in place of `price.per_call` for it (0: that tool is free). Null or `{}`: none.
 */
export const ZToolPrices = z
  .record(ZMcpToolName, ZPricePart)
  .refine((prices) => Object.keys(prices).length <= TOOL_PRICES_MAX, {
    error: `At most ${TOOL_PRICES_MAX} tools may be priced`,
  });
export type TToolPrices = z.infer<typeof ZToolPrices>;

export const ZAiEndpointConfigInput = z.strictObject({
  description: ZDescription.optional(),
  upstream_model: z.string().trim().max(200).nullable().optional(),
  timeout_ms: z
    .number()
    .int()
    .min(UPSTREAM_TIMEOUT_MIN_MS)
    .max(UPSTREAM_TIMEOUT_MAX_MS)
    .nullable()
    .optional(),
  headers: ZUpstreamHeaders.optional(),
  /** The marketplace price (contract 5a), or null for free; all parts 0 is free too. */
  price: ZPrice.nullable().optional(),
  /** An MCP endpoint's per-tool prices, the whole set (null or `{}`: none); refused on an OpenAI one. */
  tool_prices: ZToolPrices.nullable().optional(),
  /** The whole set of upstreams; `route_endpoint` follows `upstreams[0].url`. */
  upstreams: ZUpstreams.optional(),
  /** null: back to the default (no retries). */
  retry: ZRetry.nullable().optional(),
  fallbacks: ZFallbacks.nullable().optional(),
  /** null: back to the default (5 failures, 30 s). */
  circuit: ZCircuit.nullable().optional(),
  cache_ttl_s: ZCacheTtl.nullable().optional(),
  /**
   * Let the operator's OpenTelemetry traces carry this endpoint's prompts and answers (bounded
   * events on the call's span); off by default: spans hold ids and figures only.
   */
  trace_content: z.boolean().optional(),
});
export type TAiEndpointConfigInput = z.infer<typeof ZAiEndpointConfigInput>;

/** The OpenAI protocols the gateway serves (contract 6c), each at `/api/v1/<path>`. */
export const ENDPOINT_PROTOCOLS = ['chat', 'responses', 'embeddings', 'completions'] as const;
export const ZEndpointProtocol = z.enum(ENDPOINT_PROTOCOLS);
export type TEndpointProtocol = z.infer<typeof ZEndpointProtocol>;
/** Which protocols an endpoint serves; null (the default) for all its URL serves. */
const ZEndpointProtocols = z
  .array(ZEndpointProtocol)
  .min(1)
  .max(ENDPOINT_PROTOCOLS.length)
  .transform((names) => ENDPOINT_PROTOCOLS.filter((name) => names.includes(name)))
  .nullable();

/**
 * What an endpoint speaks (contract 6d): `openai` (the gateway's `/api/v1`, the default) or `mcp`
 * (a Model Context Protocol server over Streamable HTTP, called through `/api/mcp/{route}`).
 */
export const API_PROTOCOLS = ['openai', 'mcp'] as const;
export const ZApiProtocol = z.enum(API_PROTOCOLS);
export type TApiProtocol = z.infer<typeof ZApiProtocol>;

export const PROTOCOL_MESSAGES = {
  /** An MCP endpoint is priced per tool call only. */
  mcpTokenPrice: 'validation.mcp_token_price',
  /** Only an MCP endpoint has tools to price. */
  toolPricesNotMcp: 'validation.tool_prices_not_mcp',
} as const;

/**
 * The model an endpoint serves (contract 5b), e.g. `meta-llama/llama-3.1-70b-instruct`: free text
 * in its normalized form (trimmed, lower-case, each run of spaces one `-`), so callers naming it
 * in `model` find every provider serving it whatever case or spacing each owner typed.
 */
export const MODEL_ID_MAX_LENGTH = 128;
export const AIENDPOINT_MODEL_MESSAGES = { modelIdFormat: 'validation.model_id_format' } as const;
export function normalizeModelId(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, '-');
}
export const ZModelId = z
  .string()
  .transform(normalizeModelId)
  .pipe(
    z
      .string()
      .max(MODEL_ID_MAX_LENGTH)
      // Visible characters only (no control characters; spaces became `-` above).
      .regex(/^[^\p{C}\s]*$/u, { error: AIENDPOINT_MODEL_MESSAGES.modelIdFormat }),
  )
  // An empty text clears it.
  .transform((id) => (id === '' ? null : id))
  .nullable();
/** Tools an owner may switch off on one MCP endpoint. */
export const DISABLED_TOOLS_MAX = 500;
const ZDisabledTools = z
  .array(ZMcpToolName)
  .max(DISABLED_TOOLS_MAX)
  .transform((names) => [...new Set(names)].sort());

/** Everything an owner may change; `description` is accepted at the top level (as the spec sends it) or in config. */
export const ZUpdateAiEndpoint = z.strictObject({
  name: ZEndpointName.optional(),
  description: ZDescription.optional(),
  isActive: z.boolean().optional(),
  isPrivate: z.boolean().optional(),
  isShared: z.boolean().optional(),
  route_name: ZRouteName.optional(),
  route_endpoint: ZRouteEndpoint.optional(),
  route_type: ZRouteType.optional(),
  config: ZAiEndpointConfigInput.optional(),
  protocols: ZEndpointProtocols.optional(),
  /** `openai` (default) or `mcp`: an MCP endpoint's URL is its server's Streamable HTTP address. */
  protocol: ZApiProtocol.optional(),
  /** The model it serves (contract 5b); null or '' for none. Callers may name it in `model`. */
  model_id: ZModelId.optional(),
  /** An MCP endpoint's tools its owner switched off: not listed, and a call is refused as unknown. */
  disabled_tools: ZDisabledTools.optional(),
});
export type TUpdateAiEndpoint = z.infer<typeof ZUpdateAiEndpoint>;

/** The spec's create form sends route_name, route_endpoint, name, isShared, isPrivate, route_type. */
export const ZCreateAiEndpoint = ZUpdateAiEndpoint.extend({
  route_name: ZRouteName,
  route_endpoint: ZRouteEndpoint,
});
export type TCreateAiEndpoint = z.infer<typeof ZCreateAiEndpoint>;

/** `DELETE /api/aiendpoint/{ids}`: comma-separated ids. */
export const ZAiEndpointIdsParams = z.strictObject({ ids: z.string().min(1).max(20_000) });

export const ZSharedAiEndpoint = z.object({
  id: z.uuid(),
  name: z.string(),
  route_name: z.string(),
  route_type: ZRouteType,
  isActive: z.boolean(),
  isPrivate: z.boolean(),
  isShared: z.boolean(),
  /** `openai` or `mcp` (contract 6d). */
  protocol: ZApiProtocol,
  /** The model it serves, normalized (contract 5b); null when it declares none. */
  model_id: z.string().nullable(),
  account_orgDisplayName: z.string(),
  config: z.object({ description: z.string() }),
});
export type TSharedAiEndpoint = z.infer<typeof ZSharedAiEndpoint>;

export const ZAiEndpoint = ZSharedAiEndpoint.extend({
  route_endpoint: z.string(),
  config: z.object({
    description: z.string(),
    upstream_model: z.string().nullable(),
    timeout_ms: z.number().nullable(),
    /** Names only; every value is MASKED_HEADER_VALUE. */
    headers: z.record(z.string(), z.string()),
    /** Null when free. */
    price: ZPrice.nullable(),
    /** An MCP endpoint's per-tool prices (micros per call of the tool), `{}` when none; absent on an OpenAI one. */
    tool_prices: z.record(z.string(), z.number().int()).optional(),
    /** Always at least `[{ url: route_endpoint, weight: 1, format: 'openai' }]`. */
    upstreams: z.array(z.object({ url: z.string(), weight: z.number().int(), format: ZUpstreamFormat })),
    /** The effective settings (defaults filled in). */
    retry: z.object({ attempts: z.number().int(), backoff_ms: z.number().int() }),
    fallbacks: z.array(z.string()),
    circuit: z.object({ failures: z.number().int(), cooldown_s: z.number().int() }),
    cache_ttl_s: z.number().int(),
    /** Traces may record its prompts and answers (false by default). */
    trace_content: z.boolean(),
  }),
  /**
   * The OpenAI protocols the endpoint serves (contract 6c), as registered; null: every one its URL
   * serves (all of them when it ends in `/chat/completions`, else chat alone).
   */
  protocols: z.array(ZEndpointProtocol).nullable(),
  /** An MCP endpoint's tools switched off by its owner (contract 6d), by name; empty: none. */
  disabled_tools: z.array(z.string()),
  /** True for the caller's own endpoint; false for another account's shared one (read-only). */
  editable: z.boolean(),
  date_created: z.string(),
  date_updated: z.string(),
});
export type TAiEndpoint = z.infer<typeof ZAiEndpoint>;

export const ZCreatedAiEndpoint = z.object({ data: z.uuid(), id: z.uuid() });

/** `GET /api/aiendpoint/{id}`: an own endpoint, or another account's shared public one read-only. */
export const ZAiEndpointRead = z.union([
  ZAiEndpoint,
  ZSharedAiEndpoint.extend({ editable: z.literal(false) }),
]);
export type TAiEndpointRead = z.infer<typeof ZAiEndpointRead>;

/**
 * `GET /api/aiendpoint/{id}/tools` (the owner, an MCP endpoint, contract 6d): the server's tools
 * as its `tools/list` answers them now, read by AIR as an MCP client with the endpoint's headers;
 * `error` says why none could be read (the list is then empty).
 */
export const ZMcpTool = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** The tool's JSON Schema for its arguments, as the server declares it. */
  input_schema: z.record(z.string(), z.unknown()),
  /** The server's `readOnlyHint` and `destructiveHint` annotations; null when it gives none. */
  read_only: z.boolean().nullable(),
  destructive: z.boolean().nullable(),
});
export type TMcpTool = z.infer<typeof ZMcpTool>;

/** Why no tools could be read: unreachable, no answer in 10 s, an HTTP status, a JSON-RPC error, no answer to the call, over 4 MiB. */
export const MCP_READ_ERRORS = [
  'unreachable',
  'timeout',
  'http_status',
  'rpc_error',
  'no_answer',
  'too_large',
] as const;

export const ZMcpTools = z.object({
  tools: z.array(ZMcpTool),
  error: z.enum(MCP_READ_ERRORS).nullable(),
  /** With `error`: the HTTP status or the server's error message, as it sent it; else null. */
  detail: z.string().nullable(),
  read_at: z.iso.datetime(),
});
export type TMcpTools = z.infer<typeof ZMcpTools>;

export const UPSTREAM_STATES = ['closed', 'open', 'probing'] as const;

/**
 * Why an upstream's circuit is open for everyone (contract 6a): failures that cannot depend on the
 * body (connection refused or reset, DNS, connect timeout), the owner's own failing calls, or
 * failing calls of at least two caller accounts.
 */
export const OPEN_REASONS = ['connection', 'owner', 'callers'] as const;

/**
 * `GET /api/aiendpoint/{id}/upstreams` (the owner): each upstream's circuit as the answering
 * instance knows it (shared through Redis), its last failure, and the last hour's calls and
 * failures on that instance. `routed` is false for an endpoint without routing settings (its one
 * upstream has no circuit and is not counted here).
 */
export const ZUpstreamHealth = z.object({
  routed: z.boolean(),
  upstreams: z.array(
    z.object({
      url: z.string(),
      weight: z.number().int(),
      state: z.enum(UPSTREAM_STATES),
      last_failure_at: z.string().nullable(),
      attempts_1h: z.number().int().min(0),
      failures_1h: z.number().int().min(0),
      /** Why it is open for everyone; null while it is not. */
      open_reason: z.enum(OPEN_REASONS).nullable(),
      /** With `open_reason` `callers`: how many caller accounts' failures opened it. */
      opened_by_callers: z.number().int().min(0),
      /** Caller accounts it is open for only (their own calls failed; everyone else is served). */
      open_for_callers: z.number().int().min(0),
    }),
  ),
});
export type TUpstreamHealth = z.infer<typeof ZUpstreamHealth>;
