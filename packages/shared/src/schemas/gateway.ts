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
