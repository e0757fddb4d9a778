import type { TPlanLimits } from './directory';
import type { TSpendTicket } from './spend';

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
   * Takes `reservedPicos` of the account's spend limit for a priced call (spend.ts): a ticket, or
   * null when the call would pass the limit.
   */
  reserveSpend(
    accountId: string,
    limitSetAt: number,
    limitMinor: number,
    reservedPicos: number,
  ): TSpendTicket | null | Promise<TSpendTicket | null>;
  /** Replaces a ticket's reservation with the call's cost; answers the charge (capped at the limit). */
  settleSpend(ticket: TSpendTicket, costPicos: number): number | Promise<number>;
  /** Calls counted this period (what the quota is enforced against). */
  calls(accountId: string): number | Promise<number>;
  /** null without REDIS_URL; else whether the shared counters are in use right now. */
  redisUp(): boolean | null;
  close(): Promise<void>;
}
