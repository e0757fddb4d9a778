import { z } from 'zod';
import { isValidIban, isValidRoutingNumber, isValidUsAccountNumber } from '../bank';

/*
 * Payouts (server contract 5b): at each month's close a provider's net marketplace earnings
 * become a payout with a statement; `local` mode records it as paid to the bank account the owner
 * entered, `stripe` mode transfers it to the provider's Connect (Express) account. Amounts are
 * minor units of the billing currency.
 */

const ZHolderName = z
  .string({ error: 'validation.holder_name' })
  .trim()
  .min(1, { error: 'validation.holder_name' })
  .max(140, { error: 'validation.holder_name' })
  // Letters of any script, spaces and the punctuation names carry; no control characters.
  .regex(/^[\p{L}\p{M}\p{N} .,'&()/-]+$/u, { error: 'validation.holder_name' });

/**
 * `PUT /api/account/payout-account` (owner): where payouts go. `local` mode takes a bank account:
 * an IBAN (`{ "method": "iban", "holder_name": "Ada Lovelace", "iban": "DE89 3704 0044 0532 0130 00" }`,
 * its country's length and mod-97 check digits) or a US account (`{ "method": "us_bank",
 * "holder_name": "Ada Lovelace", "routing_number": "011000015", "account_number": "000123456789" }`,
 * the routing number's ABA checksum, 4-17 account digits). Only the last four digits are stored.
 * `stripe` mode takes `{ "method": "stripe" }`: an Express account is made for the provider and
 * the answer carries the onboarding link where Stripe collects the bank details.
 */
export const ZPayoutAccountUpdate = z.discriminatedUnion(
  'method',
  [
    z.strictObject({
      method: z.literal('iban'),
      holder_name: ZHolderName,
      iban: z
        .string({ error: 'validation.iban' })
        .max(64, { error: 'validation.iban' })
        .refine(isValidIban, { error: 'validation.iban' }),
    }),
    z.strictObject({
      method: z.literal('us_bank'),
      holder_name: ZHolderName,
      routing_number: z
        .string({ error: 'validation.routing_number' })
        .max(32, { error: 'validation.routing_number' })
        .refine(isValidRoutingNumber, { error: 'validation.routing_number' }),
      account_number: z
        .string({ error: 'validation.account_number' })
        .max(32, { error: 'validation.account_number' })
        .refine(isValidUsAccountNumber, { error: 'validation.account_number' }),
    }),
    z.strictObject({ method: z.literal('stripe') }),
  ],
  { error: 'validation.payout_method' },
);
export type TPayoutAccountUpdate = z.input<typeof ZPayoutAccountUpdate>;

/** Where payouts go, as stored: never more of the number than its last four digits. */
export const ZPayoutAccount = z.object({
  method: z.enum(['iban', 'us_bank', 'stripe']),
  holder_name: z.string().nullable(),
  /** The IBAN's country (`DE`), `US` for a US account, null for Stripe. */
  country: z.string().nullable(),
  last4: z.string().nullable(),
  /** Stripe: the connected account can receive transfers (onboarding complete). Always true for a bank account. */
  ready: z.boolean(),
  /** Stripe, while onboarding is not complete: where the owner finishes it (a fresh link each time). */
  onboarding_url: z.string().nullable(),
  updated_at: z.iso.datetime(),
});
export type TPayoutAccount = z.infer<typeof ZPayoutAccount>;

export const PAYOUT_STATUSES = ['pending', 'paid'] as const;
/** Why a pending payout has not been paid yet. */
export const PAYOUT_WAITING = [
  'no_payout_account',
  'onboarding_incomplete',
  'processor_unavailable',
] as const;

/** One line of a payout's statement: earnings (or their reversal) of one route in one month. */
export const ZPayoutLine = z.object({
  kind: z.enum(['earning', 'refund', 'chargeback']),
  route_name: z.string(),
  /** `YYYY-MM`: when the callers' invoices carrying these calls were paid (or refunded). */
  month: z.string(),
  calls: z.number().int(),
  gross: z.number().int(),
  fee: z.number().int(),
  net: z.number().int(),
});
export type TPayoutLine = z.infer<typeof ZPayoutLine>;

export const ZPayout = z.object({
  id: z.uuid(),
  /** `YYYY-MM`: the month whose close made it. */
  period: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  waiting: z.enum(PAYOUT_WAITING).nullable(),
  /** Where it was paid: `IBAN DE •••• 3000`, `US •••• 6789` or `Stripe acct_…`. */
  destination: z.string().nullable(),
  created_at: z.iso.datetime(),
  paid_at: z.iso.datetime().nullable(),
  lines: z.array(ZPayoutLine),
  /** The statement (signed links that open without the session header, valid one hour). */
  statement_pdf: z.string(),
  statement_csv: z.string(),
});
export type TPayout = z.infer<typeof ZPayout>;

/**
 * `GET /api/account/payouts` (owner), minor units. `accrued`: this month's calls not invoiced to
 * their callers yet (net of the fee, an estimate until the invoices are written); `uncollected`:
 * invoiced, not paid by the callers yet; `balance`: collected, not in a payout yet (under the
 * minimum it carries to the next month); `pending`: in payouts not paid yet; `paid`: paid out.
 * earnings = paid + pending + balance.
 */
export const ZPayouts = z.object({
  currency: z.string(),
  currency_symbol: z.string(),
  /** PAYOUT_MINIMUM: a smaller balance carries over to the next month. */
  minimum: z.number().int(),
  balance: z.number().int(),
  accrued: z.number().int(),
  uncollected: z.number().int(),
  pending: z.number().int(),
  paid: z.number().int(),
  provider: z.enum(['local', 'stripe']),
  account: ZPayoutAccount.nullable(),
  payouts: z.array(ZPayout),
});
export type TPayouts = z.infer<typeof ZPayouts>;

export const ZPayoutStatementParams = z.strictObject({ id: z.uuid() });
export const ZPayoutStatementQuery = z.strictObject({ token: z.string().max(2000).optional() });
