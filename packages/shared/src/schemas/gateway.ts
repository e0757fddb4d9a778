import { z } from 'zod';
import { ZPrice } from './price';

/**
 * The gateway's wire (`/api/v1`, `/api/v1/chat/completions`, `/api/v1/models`): OpenAI-compatible.
 * The request body is forwarded to the upstream unchanged, so these schemas document it; the
 * gateway itself only reads the route name (`x-route-name` header or the body's `model`).
 */
/** How a call that names a model id chooses among its providers (contract 5b: OpenRouter's `sort`). */
export const PROVIDER_SORTS = ['price', 'latency', 'throughput', 'reliability'] as const;
export type TProviderSort = (typeof PROVIDER_SORTS)[number];

/** A provider slug (a route name's part before the slash), any case. */
const ZProviderSlug = z.string().min(1).max(128).toLowerCase();
/** A price bound in the currency's main unit (1.5 = 1.50), per million tokens or per call. */
const ZPriceBound = z.number().nonnegative().max(1_000_000);

/**
 * The body's `provider` object of a call whose `model` is a model id (contract 5b), with
 * OpenRouter's field names and meanings; OpenRouter's other fields (`order`, `data_collection`…)
 * are accepted and ignored, and so is the whole object on a call that names a route.
 */
export const ZProviderPreferences = z
  .looseObject({
    sort: z.enum(PROVIDER_SORTS).nullish().describe('The order providers are tried in (default: price)'),
    only: z.array(ZProviderSlug).max(100).nullish().describe('Only these providers (slugs)'),
    ignore: z.array(ZProviderSlug).max(100).nullish().describe('Never these providers (slugs)'),
    max_price: z
      .looseObject({
        prompt: ZPriceBound.nullish().describe('Most per million prompt tokens'),
        completion: ZPriceBound.nullish().describe('Most per million completion tokens'),
        request: ZPriceBound.nullish().describe('Most per call'),
      })
      .nullish()
      .describe("Providers priced above any bound are left out (the currency's main unit)"),
    allow_fallbacks: z
      .boolean()
      .nullish()
      .describe('false: only the first provider is tried (default true: the next ones on a failure)'),
  })
  .describe("How AIR chooses among a model id's providers");
export type TProviderPreferences = z.infer<typeof ZProviderPreferences>;

export const ZGatewayRequest = z
  .looseObject({
    model: z
      .string()
      .optional()
      .describe(
        'The route name (`provider/name`) when no x-route-name header is sent, or a model id that endpoints declare (`model_id`)',
      ),
    messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).optional(),
    stream: z.boolean().optional().describe('true answers text/event-stream, piped chunk by chunk'),
    provider: ZProviderPreferences.optional(),
  })
  .describe('An OpenAI-style request, forwarded to the upstream as is');

/** What the upstream answered (an OpenAI chat completion for model routes), passed through. */
export const ZGatewayAnswer = z.looseObject({}).describe("The upstream's answer, passed through unchanged");

/** Every error the gateway itself answers, in OpenAI's shape. */
export const ZGatewayError = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.string() }),
});
export type TGatewayError = z.infer<typeof ZGatewayError>;

/** One route the key may call, as an OpenAI model (`GET /api/v1/models/{provider}/{name}`). */
export const ZModel = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  /** What a call costs this key's account (AIR's addition; minor units as the marketplace shows them); null: free to it. */
  price: ZPrice.nullable(),
  /**
   * A model id (contract 5b) rather than a route: how many providers the key may call serve it,
   * and the lowest and highest of their prices, each part on its own (free counts as 0).
   */
  providers: z.number().int().positive().optional(),
  price_range: z.object({ min: ZPrice, max: ZPrice }).optional(),
});
export type TModel = z.infer<typeof ZModel>;

/** `GET /api/v1/models`: the active routes the key may call. */
export const ZModelList = z.object({
  object: z.literal('list'),
  data: z.array(ZModel),
});
export type TModelList = z.infer<typeof ZModelList>;

/** `POST /api/v1/messages`: an Anthropic Messages API request (contract 6c); the route is its `model`. */
export const ZMessagesRequest = z
  .looseObject({
    model: z.string().describe('The route name (`provider/name`)'),
    max_tokens: z.number().int().positive(),
    messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.unknown() })),
    system: z.unknown().optional(),
    stream: z.boolean().optional().describe("true answers Anthropic's event stream"),
  })
  .describe("An Anthropic Messages API request, translated to the route's upstream format");

/** An Anthropic message (the upstream's, or an answer translated to one). */
export const ZMessagesAnswer = z
  .looseObject({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    content: z.array(z.looseObject({ type: z.string() })),
    stop_reason: z.string().nullable(),
    usage: z.looseObject({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  })
  .describe('An Anthropic message');

/** Errors of Anthropic clients' calls, in Anthropic's shape. */
export const ZMessagesError = z.object({
  type: z.literal('error'),
  error: z.object({ type: z.string(), message: z.string() }),
});

/** `POST /api/v1/messages/count_tokens`: the request's prompt, counted with the gateway's tokenizer. */
export const ZCountTokensRequest = z.looseObject({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })),
  system: z.unknown().optional(),
  tools: z.array(z.unknown()).optional(),
});
export const ZCountTokensAnswer = z.object({ input_tokens: z.number().int().min(0) });
