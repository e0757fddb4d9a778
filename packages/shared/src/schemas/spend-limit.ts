import { z } from 'zod';

/**
 * The most a spend limit (or a key's budget) may be, in minor units (1,000,000.00 in a
 * two-decimal currency): the gateway's counters hold it in nanos (1e15 at most, decision 043),
 * inside a safe integer, and no plausible month of marketplace calls needs more.
 */
export const SPEND_LIMIT_MAX_MINOR = 100_000_000;

/** One message for every wrong amount: the console's field takes money, the wire minor units. */
const SPEND_LIMIT_MESSAGE = 'validation.spend_limit';

/**
 * `PATCH /api/account/spend-limit` (owner or admin, contract 5a): the caller account's cap on
 * marketplace spend per period (the calendar month in UTC, as the quota's), in minor units of
 * the billing currency, or null for no cap. Past it priced calls answer 402 `spend_limit_reached`.
 * Example: `{ "marketplace_spend_limit": 2500 }`.
 */
export const ZSpendLimitUpdate = z.strictObject({
  marketplace_spend_limit: z
    .number({ error: SPEND_LIMIT_MESSAGE })
    .int({ error: SPEND_LIMIT_MESSAGE })
    .min(0, { error: SPEND_LIMIT_MESSAGE })
    .max(SPEND_LIMIT_MAX_MINOR, { error: SPEND_LIMIT_MESSAGE })
    .nullable(),
});
export type TSpendLimitUpdate = z.infer<typeof ZSpendLimitUpdate>;

/** The limit as saved, with the currency it is counted in. */
export const ZSpendLimit = z.object({
  marketplace_spend_limit: z.number().int().min(0).nullable(),
  currency: z.string(),
  currency_symbol: z.string(),
});
export type TSpendLimit = z.infer<typeof ZSpendLimit>;
