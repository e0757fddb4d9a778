import { z } from 'zod';

/**
 * `GET /api/account/usage` (spec entity Usage: total, label, period): this period's gateway use of
 * the signed-in account, one row per measure:
 * - `calls`: calls made with the account's keys (what the plan's quota limits), with `quota`;
 * - `served`: calls any account made to this account's endpoints (a provider's view; no quota);
 * - `spend`: the period's marketplace spend so far, in minor units of `currency` (each call's exact
 *   cost summed, rounded once), with the account's spend limit as `quota` (null: no limit).
 * `period` is the calendar month in UTC, `YYYY-MM`; `period_start`/`period_end` are its bounds.
 * Example: `{ data: [{ label: 'calls', total: 12, quota: 1000, period: '2026-11', ... }] }`.
 */
export const USAGE_LABELS = ['calls', 'served', 'spend'] as const;

export const ZUsage = z.object({
  label: z.enum(USAGE_LABELS),
  total: z.number().int().min(0),
  /** Calls per period allowed by the plan; null where no quota applies. */
  quota: z.number().int().min(0).nullable(),
  period: z.string().regex(/^\d{4}-\d{2}$/),
  period_start: z.iso.datetime(),
  period_end: z.iso.datetime(),
  /** `spend` only: the billing currency (ISO code, lower case) and its symbol. */
  currency: z.string().optional(),
  currency_symbol: z.string().optional(),
});
export type TUsage = z.infer<typeof ZUsage>;

export const ZUsageList = z.array(ZUsage);
export type TUsageList = z.infer<typeof ZUsageList>;
