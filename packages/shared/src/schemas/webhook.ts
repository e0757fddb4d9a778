import { z } from 'zod';
import { pageQuery, ZPage } from './page';
import { upstreamUrlProblem } from '../validation';

/**
 * Outbound webhooks (server contract 6e): an account's admins register HTTPS endpoints that
 * receive its events, each delivery signed per Standard Webhooks.
 */
export const WEBHOOK_EVENTS = [
  'limit.threshold',
  'limit.reached',
  'key.created',
  'key.revoked',
  'endpoint.circuit_opened',
  'invoice.paid',
  'invoice.payment_failed',
  'payout.paid',
] as const;
export const ZWebhookEvent = z.enum(WEBHOOK_EVENTS, { error: 'validation.webhook_events' });
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;

/** The synthetic event `POST /api/webhook/{id}/test` sends (not subscribable). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Webhooks one account may register. */
export const MAX_WEBHOOKS = 10;
const MAX_URL = 2048;

const ZWebhookUrl = z
  .string({ error: 'validation.route_endpoint_url' })
  .trim()
  .max(MAX_URL, { error: 'validation.route_endpoint_url' })
  .superRefine((value, ctx) => {
    const problem = upstreamUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const ZWebhookEvents = z
  .array(ZWebhookEvent, { error: 'validation.webhook_events' })
  .min(1, { error: 'validation.webhook_events' })
  .max(WEBHOOK_EVENTS.length, { error: 'validation.webhook_events' })
  .refine((events) => new Set(events).size === events.length, { error: 'validation.webhook_events' });

/** `POST /api/webhook`: where to send and which events. Example: `{ "url": "https://hooks.example.com/air", "events": ["key.created"] }`. */
export const ZCreateWebhook = z.strictObject({ url: ZWebhookUrl, events: ZWebhookEvents });
export type TCreateWebhook = z.infer<typeof ZCreateWebhook>;

/** `PATCH /api/webhook/{id}`: any of the fields; `active: false` pauses deliveries. */
export const ZUpdateWebhook = z.strictObject({
  url: ZWebhookUrl.optional(),
  events: ZWebhookEvents.optional(),
  active: z.boolean().optional(),
});
export type TUpdateWebhook = z.infer<typeof ZUpdateWebhook>;

/** A registered webhook as listed (never its secret). */
export const ZWebhook = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(ZWebhookEvent),
  active: z.boolean(),
  created_at: z.string(),
});
export type TWebhook = z.infer<typeof ZWebhook>;

/** The creation answer: the signing secret (`whsec_` + base64), shown this once. */
export const ZCreatedWebhook = ZWebhook.extend({ secret: z.string().startsWith('whsec_') });
export type TCreatedWebhook = z.infer<typeof ZCreatedWebhook>;

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

/** One delivery in the log: its event, state, tries and the receiver's last answer. */
export const ZWebhookDelivery = z.object({
  id: z.string(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int().min(0),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** `GET /api/webhook/{id}/deliveries?cursor=&limit=`: newest first, cursor pages (default 50, at most 100). */
export const DELIVERY_PAGE = 50;
export const ZDeliveryQuery = z.strictObject(pageQuery({ default: DELIVERY_PAGE, max: 100 }));
export const ZDeliveryPage = ZPage(ZWebhookDelivery);
export type TDeliveryPage = z.infer<typeof ZDeliveryPage>;

/** `POST /api/webhook/{id}/test`: the queued test delivery. */
export const ZWebhookTestQueued = z.object({ delivery_id: z.string() });
export type TWebhookTestQueued = z.infer<typeof ZWebhookTestQueued>;
