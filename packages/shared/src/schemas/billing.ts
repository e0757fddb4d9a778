import { z } from 'zod';
import { pageQuery, ZPage } from './page';
import { missingError } from '../validation';
import { ZUser, ZUserSubscription } from './user';

/*
 * Billing wire contract (docs/decisions/007-billing.md; server contract section 7; spec sections
 * 3, 4 and 7). Amounts are minor units (cents). Every call needs a session of the account's owner
 * unless noted. Card errors answer 400 `{ message, code, inputError: 'token' }` (never 402, which
 * the console reserves for "choose a bigger plan"); a processor that cannot be reached answers 503
 * and changes nothing.
 */

/** Subscription statuses (server contract section 7 state machine). */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'requires_payment_method',
  'requires_action',
  'canceled',
] as const;
export const ZSubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export type TSubscriptionStatus = z.infer<typeof ZSubscriptionStatus>;

/** Which card processor the server runs; the console loads Stripe.js only for `stripe`. */
export const BILLING_PROVIDERS = ['local', 'stripe'] as const;
export const ZBillingProvider = z.enum(BILLING_PROVIDERS);
export type TBillingProvider = z.infer<typeof ZBillingProvider>;

/**
 * A card token made in the browser from the card fields: `tok_…` (local processor, or Stripe.js
 * `createToken`) or `pm_…` (Stripe.js `createPaymentMethod`). Single use.
 */
export const ZCardToken = z
  .string({ error: missingError('validation.card_required') })
  .min(1, { error: 'validation.card_required' })
  .max(255)
  .regex(/^(tok|pm)_[A-Za-z0-9_]+$/, { error: 'validation.card_required' });

/**
 * The payment result the generic form adds, under the field `payment`, when it repeats a request
 * after confirming a payment (3-D Secure). The server re-reads the payment from the processor:
 * the client's word is never trusted.
 */
export const ZPaymentResult = z.strictObject({
  payment_intent: z
    .string()
    .max(255)
    .regex(/^pi_[A-Za-z0-9_]+$/),
});
export type TPaymentResult = z.infer<typeof ZPaymentResult>;

/**
 * Optional client-made key (8-100 chars, e.g. a UUID per submit). Requests of one account with the
 * same key charge at most once; without it the server derives the key from the account, the
 * action, the plan and the card token, so a double click or a retried request still charges once.
 */
export const ZIdempotencyKey = z
  .string()
  .min(8)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/);

/**
 * `POST /api/account/plan` (sign-up plan step), `PATCH /api/account/plan` (change plan) and
 * `POST /api/account/upgrade` (the upgrade page): `{ plan, token?, payment?, idempotency_key? }`.
 * - free plan: no card. At sign-up it starts at once; from a paid plan it sets
 *   `cancel_at_period_end` and the message names the period end date; at period end the account
 *   moves to free.
 * - paid plan: `token` is required unless a card is on file (400 inputError `token`). The first
 *   payment (sign-up) or the prorated difference (upgrade, charged at once; a downgrade between
 *   paid plans is credited on the next invoice) is charged now.
 * Answers: 200 `ZPlanSaved` (the user, with plan and subscription), or 200
 * `ZPaymentActionRequired` when the charge needs 3-D Secure: the console confirms it with the
 * `client_secret` and repeats the same request with `payment: { payment_intent }`. A declined
 * card answers 400 with the processor's message on `token`; nothing changes.
 */
export const ZPlanChange = z.strictObject({
  plan: z
    .string({ error: missingError('validation.plan_required') })
    .min(1, { error: 'validation.plan_required' })
    .max(64),
  token: ZCardToken.optional(),
  payment: ZPaymentResult.optional(),
  idempotency_key: ZIdempotencyKey.optional(),
});
export type TPlanChange = z.infer<typeof ZPlanChange>;

/** `POST /api/account/upgrade`: same body and answers as the plan change. */
export const ZUpgrade = ZPlanChange;
export type TUpgrade = TPlanChange;

/**
 * The answer when a charge needs the card holder's authentication (HTTP 200, top level, no data):
 * `{ requires_payment_action: true, client_secret, message }`. Nothing is changed until the
 * request is repeated with the confirmed payment.
 */
export const ZPaymentActionRequired = z.object({
  requires_payment_action: z.literal(true),
  client_secret: z.string(),
  message: z.string().optional(),
});
export type TPaymentActionRequired = z.infer<typeof ZPaymentActionRequired>;

/** `GET /api/account/plan`: the account's plan id and subscription status (null before a plan). */
export const ZPlanState = z.object({
  plan: z.string().nullable(),
  status: ZSubscriptionStatus.nullable(),
});
export type TPlanState = z.infer<typeof ZPlanState>;

/**
 * `GET /api/account/subscription` `{ data: TSubscription | null }` (spec entity Subscription, plus
 * the plan id and plan name). `seat_price` is the price per seat (tiered) or the plan price (flat),
 * minor units; the console shows seat_price / 100 and seats × seat_price / 100 as the total.
 */
export const ZSubscription = ZUserSubscription.extend({
  plan: z.string(),
  plan_name: z.string(),
  status: ZSubscriptionStatus,
  /**
   * When an unpaid renewal (`requires_payment_method`, `requires_action`) is tried again on the
   * card on file (dunning: 1 and 3 days after it failed); null when nothing waits.
   */
  next_attempt_at: z.string().nullable(),
});
export type TSubscription = z.infer<typeof ZSubscription>;

/** `GET /api/account/plan/preview?plan=`: the plan a change would move to. */
export const ZPlanPreviewQuery = z.strictObject({
  plan: z
    .string({ error: missingError('validation.plan_required') })
    .min(1, { error: 'validation.plan_required' })
    .max(64),
});
export type TPlanPreviewQuery = z.infer<typeof ZPlanPreviewQuery>;

/**
 * What a plan change would do, before the button (read-only; the change itself computes the same
 * figures with the same function). Minor units.
 * - `free_now`: the free plan starts now; `free_at_period_end`: the paid plan runs to `period_end`
 *   and the account is on free then; `keep`: the plan already paid for, nothing charged;
 * - `new`: a first paid period, `seats` × `seat_price` charged now;
 * - `prorate`: a move between paid plans: `proration` is the difference for the rest of the
 *   period, charged now when above zero, credited on the next invoice when below.
 * `amount_due` is what the card is charged now (never below zero); `credit` what the next invoice
 * takes off; `renewal_amount` what each following period costs.
 */
export const ZPlanPreview = z.object({
  plan: z.string(),
  plan_name: z.string(),
  mode: z.enum(['free_now', 'free_at_period_end', 'keep', 'new', 'prorate']),
  seats: z.number().int().min(1),
  seat_price: z.number().int(),
  proration: z.number().int(),
  amount_due: z.number().int().min(0),
  credit: z.number().int().min(0),
  renewal_amount: z.number().int().min(0),
  currency: z.string(),
  currency_symbol: z.string(),
  interval: z.string(),
  /** The end of the paid period the change is measured against; null without one. */
  period_end: z.string().nullable(),
});
export type TPlanPreview = z.infer<typeof ZPlanPreview>;

/** The card on file (spec entity Card): only these four fields are ever stored. */
export const ZCard = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int(),
});
export type TCard = z.infer<typeof ZCard>;

/**
 * `PATCH /api/account/card` `{ token, payment?, idempotency_key? }`: replaces the card on file
 * (attached at the processor, checked there: a declined card answers 400 on `token`). When the
 * subscription is `requires_payment_method` / `requires_action`, the open invoice is retried on the
 * new card at once (which may answer `ZPaymentActionRequired`). Answers `{ data: TCard, message }`.
 */
export const ZCardUpdate = z.strictObject({
  token: ZCardToken,
  payment: ZPaymentResult.optional(),
  idempotency_key: ZIdempotencyKey.optional(),
});
export type TCardUpdate = z.infer<typeof ZCardUpdate>;

/**
 * `POST /api/account/subscription/authorize` `{ payment? }`: pays the renewal the bank holds for
 * the card holder's authentication (subscription `requires_action`, e.g. 3-D Secure needed off
 * session) with the card on file. Answers `ZPaymentActionRequired` (the payment's client secret):
 * the console confirms it (the "Authenticate payment" dialog, or Stripe.js) and repeats the call
 * with `payment: { payment_intent }`; then `{ data: TSubscription, message }` with the
 * subscription active again. 409 when no payment waits for authorization.
 */
export const ZSubscriptionAuthorize = z.strictObject({
  payment: ZPaymentResult.optional(),
});
export type TSubscriptionAuthorize = z.infer<typeof ZSubscriptionAuthorize>;

export const INVOICE_STATUSES = ['paid', 'open', 'void', 'uncollectible'] as const;
export const ZInvoiceStatus = z.enum(INVOICE_STATUSES);

export const ZInvoiceLine = z.object({
  description: z.string(),
  quantity: z.number().int(),
  /** Minor units. */
  unit_amount: z.number().int(),
  amount: z.number().int(),
});
export type TInvoiceLine = z.infer<typeof ZInvoiceLine>;

/**
 * An invoice (spec entity Invoice). `invoice_pdf` is a same-origin URL of the PDF that opens in a
 * new tab without the bearer header: it carries a short-lived signed `token` bound to the invoice.
 */
export const ZInvoice = z.object({
  id: z.uuid(),
  number: z.string(),
  date: z.iso.datetime({ offset: true }),
  status: ZInvoiceStatus,
  /** Minor units; tax is 0. */
  total: z.number().int(),
  currency: z.string(),
  currency_symbol: z.string(),
  lines: z.array(ZInvoiceLine),
  invoice_pdf: z.string(),
});
export type TInvoice = z.infer<typeof ZInvoice>;

/** `GET /api/account/invoice?cursor=&limit=`: newest first, cursor pages (default 50, at most 200). */
export const INVOICE_PAGE = 50;
export const ZInvoiceQuery = z.strictObject(pageQuery({ default: INVOICE_PAGE, max: 200 }));
/** A page of invoices. Kept after the plan goes free. */
export const ZInvoiceList = ZPage(ZInvoice);
export type TInvoiceList = z.infer<typeof ZInvoiceList>;

/**
 * `GET /api/account/invoice/:id/pdf?token=…`: `application/pdf` (seller, account, lines, seats,
 * subtotal, tax 0, total). Authorised by the signed `token` of `invoice_pdf` or by the owner's
 * session; another account's invoice is 404.
 */
export const ZInvoicePdfParams = z.strictObject({ id: z.uuid() });
export const ZInvoicePdfQuery = z.strictObject({ token: z.string().max(2000).optional() });

/**
 * `GET /api/billing/config` (public): which provider runs and, for Stripe, the publishable key the
 * console gives Stripe.js.
 */
export const ZBillingConfig = z.object({
  provider: ZBillingProvider,
  publishable_key: z.string().nullable(),
});
export type TBillingConfig = z.infer<typeof ZBillingConfig>;

/**
 * `POST /api/billing/local/token` (local processor only; any signed-in user; 404 in Stripe mode):
 * the card widget posts the raw card fields to the server and gets a single-use `tok_…` back, the
 * same shape as Stripe.js `createToken`. The server keeps only brand, last four digits and expiry.
 * `exp_year` has four digits. Bad fields answer 400 `{ message, code, inputError }` with code
 * `incorrect_number` | `invalid_expiry` | `invalid_cvc` and inputError `number` | `exp` | `cvc`.
 */
export const ZLocalCardTokenRequest = z.strictObject({
  number: z.string().max(30),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  cvc: z.string().max(8),
});
export type TLocalCardTokenRequest = z.infer<typeof ZLocalCardTokenRequest>;

export const ZLocalCardToken = z.object({
  id: z.string().regex(/^tok_/),
  card: ZCard,
});
export type TLocalCardToken = z.infer<typeof ZLocalCardToken>;

/**
 * `POST /api/billing/local/confirm` (local processor only; signed in): the 3-D Secure step. The
 * dialog "Authenticate payment" posts `outcome: 'complete'` or `'fail'` for the `client_secret`.
 * Complete answers `{ data: { payment_intent: { id, status: 'succeeded' } } }`, which the console
 * sends back as `payment: { payment_intent: id }`. Fail answers 400 `{ message, code:
 * 'payment_intent_authentication_failure' }` and the payment stays unpaid (nothing changes).
 */
export const ZLocalConfirmRequest = z.strictObject({
  client_secret: z.string().min(1).max(255),
  outcome: z.enum(['complete', 'fail']),
});
export type TLocalConfirmRequest = z.infer<typeof ZLocalConfirmRequest>;

export const ZPaymentIntentStatus = z.enum([
  'requires_payment_method',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
]);

export const ZLocalConfirmAnswer = z.object({
  payment_intent: z.object({ id: z.string(), status: ZPaymentIntentStatus }),
});
export type TLocalConfirmAnswer = z.infer<typeof ZLocalConfirmAnswer>;

/** Card error codes the processors report (the `code` of a 400 card error). */
export const CARD_ERROR_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_number',
  'invalid_expiry',
  'invalid_cvc',
  'payment_intent_authentication_failure',
] as const;
export type TCardErrorCode = (typeof CARD_ERROR_CODES)[number];

/**
 * The plan change's success answer: `{ data: TUser, message }` (the user, with the new plan and
 * subscription, for sessions) and a message (for a move to free it names the period end date).
 */
export const ZPlanSaved = z.object({ data: ZUser.optional(), message: z.string() });
export type TPlanSaved = z.infer<typeof ZPlanSaved>;

/** `POST /api/billing/webhook` (the processor, signed): received, or already seen (`duplicate`). */
export const ZWebhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });

/**
 * `POST /api/dev/billing-clock` `{ advance_ms }` (development only, from this machine: the
 * `billing-clock` command): moves the billing clock on and runs the renewals then due.
 */
export const ZClockAdvance = z.strictObject({
  advance_ms: z
    .number()
    .int()
    .min(0)
    .max(3650 * 86_400_000),
});
export const ZClockAnswer = z.object({
  now: z.string(),
  renewed: z.number().int(),
  /** Payouts paid by the run that followed (contract 5b). */
  payouts: z.number().int(),
});
export type TClockAnswer = z.infer<typeof ZClockAnswer>;
