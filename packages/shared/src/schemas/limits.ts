import { z } from 'zod';
import { ZApiKey } from './api-key';

/**
 * A key's use this plan period (issue 38 item 2, issue 42 item 2), as the key list shows it beside
 * its caps: `calls` are the stored calls the key cap counts (the gateway's seed, refusals
 * excluded), `refused` the calls the gateway refused for a limit (402 or 429, in the request log),
 * `limit_reached` whether the key's own cap of calls is used up, so its next call is refused;
 * `tokens` its prompt plus completion tokens this period, `spend` its marketplace spend (minor
 * units, rounded once) against its `monthly_spend`, and `budget_reached` whether that is used up.
 */
export const ZKeyPeriodUsage = z.object({
  period: z.string(),
  calls: z.number().int().min(0),
  refused: z.number().int().min(0),
  limit_reached: z.boolean(),
  tokens: z.number().int().min(0),
  spend: z.number().int().min(0),
  budget_reached: z.boolean(),
  /** The billing currency `spend` and the key's `monthly_spend` are in (`usd`). */
  currency: z.string(),
});
export type TKeyPeriodUsage = z.infer<typeof ZKeyPeriodUsage>;

/** One key of `GET /api/key`: the key with its use this period. */
export const ZListedApiKey = ZApiKey.extend({ usage: ZKeyPeriodUsage });
export type TListedApiKey = z.infer<typeof ZListedApiKey>;

/** The limits whose reaching makes the gateway refuse calls this period. */
export const LIMIT_KINDS = ['quota', 'spend_limit', 'key_cap', 'key_budget'] as const;
export const ZLimitKind = z.enum(LIMIT_KINDS);
export type TLimitKind = z.infer<typeof ZLimitKind>;

/** A limit reached this period; a key's cap names the key. */
export const ZLimitReached = z.object({
  kind: ZLimitKind,
  key_id: z.uuid().nullable(),
  key_name: z.string().nullable(),
});
export type TLimitReached = z.infer<typeof ZLimitReached>;

/**
 * `GET /api/account/usage/limits`: the limits reached this period (plan quota, spend limit, each
 * key's cap) and the calls refused for a limit so far, for the console's "limit reached, calls are
 * refused" state on the dashboard, the usage page and the key list.
 */
export const ZLimitsState = z.object({
  period: z.string(),
  reached: z.array(ZLimitReached),
  refused: z.number().int().min(0),
});
export type TLimitsState = z.infer<typeof ZLimitsState>;
