import { z } from 'zod';
import type { TInvoiceLine } from '../../db/schema/invoices';
import type { TCardDetails } from './provider';

/*
 * What a payment is for, carried in its processor metadata (string values only, at Stripe and in
 * the local processor alike) and read back when the payment is confirmed: after 3-D Secure, from
 * Stripe's webhook, or by a renewal. Each intent is one zod codec: `z.encode` writes the metadata,
 * `z.decode` reads and checks it, so no field is stringified or parsed by hand anywhere else.
 */

const ZDigits = z.string().regex(/^\d+$/);

const ZStoredLine = z.object({
  description: z.string(),
  quantity: z.int(),
  unitAmount: z.int(),
  amount: z.int(),
  seats: z.int().optional(),
}) satisfies z.ZodType<TInvoiceLine>;

/** The card a payment was made with, so a confirmed payment stores it as the account's card. */
const ZCardMetadata = z.object({
  pm: z.string().min(1).optional(),
  brand: z.string().optional(),
  last4: z.string().optional(),
  exp_month: ZDigits.optional(),
  exp_year: ZDigits.optional(),
});

export interface TOnCard {
  ref: string;
  card: TCardDetails;
}

function cardOf(meta: z.output<typeof ZCardMetadata>): TOnCard | null {
  if (!meta.pm || !meta.last4) return null;
  return {
    ref: meta.pm,
    card: {
      brand: meta.brand ?? 'unknown',
      last4: meta.last4,
      expMonth: Number(meta.exp_month),
      expYear: Number(meta.exp_year),
    },
  };
}

function cardMetadata(onCard: TOnCard | null): z.input<typeof ZCardMetadata> {
  if (!onCard) return {};
  return {
    pm: onCard.ref,
    brand: onCard.card.brand,
    last4: onCard.card.last4,
    exp_month: String(onCard.card.expMonth),
    exp_year: String(onCard.card.expYear),
  };
}

const ZCardOut = z.custom<TOnCard | null>((value) => value === null || typeof value === 'object');

/** A plan change: the new plan, seats and invoice lines, charged (or free) and applied once. */
export const ZPlanIntent = z.codec(
  ZCardMetadata.extend({
    account_id: z.string().min(1),
    action: z.literal('plan'),
    plan: z.string().min(1),
    mode: z.enum(['new', 'prorate']),
    seats: ZDigits,
    lines: z.string(),
    /** Left by payments made before a new period's start was taken when the payment is applied. */
    period_start: z.string().optional(),
    actor: z.string().min(1).optional(),
  }),
  z.object({
    accountId: z.string(),
    planId: z.string(),
    mode: z.enum(['new', 'prorate']),
    seats: z.int().min(0),
    lines: z.array(ZStoredLine),
    periodStart: z.date().nullable(),
    onCard: ZCardOut,
    actorUserId: z.string().nullable(),
  }),
  {
    decode: (meta, ctx) => {
      let lines: unknown;
      try {
        lines = JSON.parse(meta.lines);
      } catch {
        ctx.issues.push({ code: 'custom', input: meta.lines, message: 'lines is not JSON', path: ['lines'] });
        return z.NEVER;
      }
      return {
        accountId: meta.account_id,
        planId: meta.plan,
        mode: meta.mode,
        seats: Number(meta.seats),
        lines: lines as TInvoiceLine[],
        periodStart: meta.period_start ? new Date(meta.period_start) : null,
        onCard: cardOf(meta),
        actorUserId: meta.actor ?? null,
      };
    },
    encode: (intent) => ({
      account_id: intent.accountId,
      action: 'plan' as const,
      plan: intent.planId,
      mode: intent.mode,
      seats: String(intent.seats),
      lines: JSON.stringify(intent.lines),
      ...(intent.periodStart ? { period_start: intent.periodStart.toISOString() } : {}),
      ...cardMetadata(intent.onCard),
      ...(intent.actorUserId ? { actor: intent.actorUserId } : {}),
    }),
  },
);
export type TPlanIntent = z.output<typeof ZPlanIntent>;

/** Paying an open invoice (a renewal, its dunning retries, or the invoice a new card pays). */
export const ZInvoiceIntent = z.codec(
  ZCardMetadata.extend({
    account_id: z.string().min(1),
    action: z.literal('invoice'),
    invoice_id: z.string().min(1),
    actor: z.string().min(1).optional(),
  }),
  z.object({
    accountId: z.string(),
    invoiceId: z.string(),
    onCard: ZCardOut,
    actorUserId: z.string().nullable(),
  }),
  {
    decode: (meta) => ({
      accountId: meta.account_id,
      invoiceId: meta.invoice_id,
      onCard: cardOf(meta),
      actorUserId: meta.actor ?? null,
    }),
    encode: (intent) => ({
      account_id: intent.accountId,
      action: 'invoice' as const,
      invoice_id: intent.invoiceId,
      ...cardMetadata(intent.onCard),
      ...(intent.actorUserId ? { actor: intent.actorUserId } : {}),
    }),
  },
);
export type TInvoiceIntent = z.output<typeof ZInvoiceIntent>;

/** A payment's metadata as the processor hands it back. */
export type TMetadata = Record<string, string>;

/** The metadata a charge carries for `intent`. */
export function planMetadata(intent: TPlanIntent): TMetadata {
  return z.encode(ZPlanIntent, intent) as TMetadata;
}

export function invoiceMetadata(intent: TInvoiceIntent): TMetadata {
  return z.encode(ZInvoiceIntent, intent) as TMetadata;
}

/** What a payment is for, or null when its metadata is not one of ours (another action, damaged). */
export function intentOf(
  meta: TMetadata,
): { action: 'plan'; intent: TPlanIntent } | { action: 'invoice'; intent: TInvoiceIntent } | null {
  if (meta.action === 'plan') {
    const read = ZPlanIntent.safeDecode(meta as z.input<typeof ZPlanIntent>);
    return read.success ? { action: 'plan', intent: read.data } : null;
  }
  if (meta.action === 'invoice') {
    const read = ZInvoiceIntent.safeDecode(meta as z.input<typeof ZInvoiceIntent>);
    return read.success ? { action: 'invoice', intent: read.data } : null;
  }
  return null;
}
