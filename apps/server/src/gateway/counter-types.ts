import type { TPlanLimits } from './directory';
import type { TSpendAnswer, TSpendLimits, TSpendTicket } from './spend';
import type { TTokenAnswer, TTokenTicket } from './token-limit';

/**
 * `admit` answers 0 (admitted and counted), QUOTA_EXCEEDED (the account's plan), KEY_QUOTA_EXCEEDED
 * (the key's own monthly cap, contract 6b), or the seconds until the rate window ends.
 */
export const QUOTA_EXCEEDED = -1;
export const KEY_QUOTA_EXCEEDED = -2;

/** What `admit` needs of the calling key. */
export interface TAdmitKey {
  readonly keyId: string;
  readonly accountId: string;
  readonly monthlyCalls: number | null;
}

/**
 * The per-key rate limit and the per-account monthly quota, checked and counted together for each
 * call the gateway forwards.
 */
export interface TCallCounters {
  admit(key: TAdmitKey, limits: TPlanLimits): number | Promise<number>;
  /**
   * Counts a refused call of a known key (an unknown route) against the key's rate limit alone:
   * 0, or the seconds until the rate window ends. Such calls are metered for the request log, so
   * without this a key could write rows as fast as the gateway answers.
   */
  hitRate(keyId: string, ratePerMinute: number): number | Promise<number>;
  /**
   * Takes `reservedPicos` of every limit in money a priced call is under (the account's spend
   * limit, the key's budget; spend.ts): a ticket, or the limit it would pass.
   */
  reserveSpend(limits: TSpendLimits, reservedPicos: number): TSpendAnswer | Promise<TSpendAnswer>;
  /** Replaces a ticket's reservation with the call's cost; answers the charge (capped at the limits). */
  settleSpend(ticket: TSpendTicket, costPicos: number): number | Promise<number>;
  /** Reserves a call's most tokens in its key's minute (token-limit.ts): a ticket, or a refusal. */
  reserveTokens(
    accountId: string,
    keyId: string,
    limit: number,
    tokens: number,
  ): TTokenAnswer | Promise<TTokenAnswer>;
  /** Replaces a token reservation with the tokens the call used. */
  settleTokens(ticket: TTokenTicket, tokens: number): void | Promise<void>;
  /** Tokens counted (used and reserved) in this minute for a key. */
  tokensNow(keyId: string): number | Promise<number>;
  /** Calls counted this period (what the quota is enforced against). */
  calls(accountId: string): number | Promise<number>;
  /** null without REDIS_URL; else whether the shared counters are in use right now. */
  redisUp(): boolean | null;
  close(): Promise<void>;
}
