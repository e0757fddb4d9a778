import { z } from 'zod';
import { ZPrice } from './price';

/**
 * The gateway's wire (`/api/v1`, `/api/v1/chat/completions`, `/api/v1/models`): OpenAI-compatible.
 * The request body is forwarded to the upstream unchanged, so these schemas document it; the
 * gateway itself only reads the route name (`x-route-name` header or the body's `model`).
 */
export const ZGatewayRequest = z
  .looseObject({
    model: z
      .string()
      .optional()
      .describe('The route name (`provider/name`) when no x-route-name header is sent'),
    messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).optional(),
    stream: z.boolean().optional().describe('true answers text/event-stream, piped chunk by chunk'),
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
