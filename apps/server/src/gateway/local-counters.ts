import type { TDb } from '../db/client';
import type { TPlanLimits } from './directory';
import { KEY_QUOTA_EXCEEDED, QUOTA_EXCEEDED, type TAdmitKey, type TCallCounters } from './counter-types';
import {
  createMemoryRateLimiter,
  keyCounterId,
  MonthlyCalls,
  storedKeyCalls,
  type TRateLimiter,
} from './limits';
import { chargedPicosOf, picosToNanosUp } from '../modules/money/service';
import { LocalSpend, type TSpendAnswer, type TSpendLimits, type TSpendTicket } from './spend';
import { LocalTokens, type TStoredTokens, type TTokenAnswer, type TTokenTicket } from './token-limit';

/** One instance, exact: the rate limit and monthly calls in this process's memory. */
export class LocalCallCounters implements TCallCounters {
  private limiter: TRateLimiter;
  private monthly: MonthlyCalls;
  private keyMonthly: MonthlyCalls;
  private spend: LocalSpend;
  private readonly tokens: LocalTokens;

  constructor(
    private readonly db: TDb,
    private readonly beforeSeed: () => Promise<void>,
    private readonly now: () => number = Date.now,
    /** The stored tokens a minute is seeded from after a restart; null: never seeded (Redis's fallback). */
    storedTokens: TStoredTokens | null = null,
  ) {
    this.limiter = createMemoryRateLimiter(now);
    this.monthly = new MonthlyCalls(db, now, beforeSeed);
    this.keyMonthly = this.keyCounters();
    this.spend = new LocalSpend(db, now, beforeSeed);
    this.tokens = new LocalTokens(storedTokens, now);
  }

  reserveSpend(limits: TSpendLimits, reservedPicos: number): TSpendAnswer | Promise<TSpendAnswer> {
    // The counters hold nanos (modules/money): the reservation is rounded up into them.
    return this.spend.reserve(limits, picosToNanosUp(reservedPicos));
  }

  reserveTokens(
    accountId: string,
    keyId: string,
    limit: number,
    tokens: number,
  ): TTokenAnswer | Promise<TTokenAnswer> {
    return this.tokens.reserve(accountId, keyId, limit, tokens);
  }

  settleTokens(ticket: TTokenTicket, tokens: number): void {
    this.tokens.settle(ticket, tokens);
  }

  /** Tokens counted in this minute for a key (tests and the exactness run read it). */
  tokensNow(keyId: string): number {
    return this.tokens.current(keyId);
  }

  /** Settles in nanos; answers the charge in picos (the exact cost unless the limit capped it). */
  settleSpend(ticket: TSpendTicket, costPicos: number): number {
    return chargedPicosOf(costPicos, this.spend.settle(ticket, picosToNanosUp(costPicos)));
  }

  private keyCounters(): MonthlyCalls {
    return new MonthlyCalls(this.db, this.now, this.beforeSeed, (id, period) =>
      storedKeyCalls(this.db, id, period),
    );
  }

  admit(key: TAdmitKey, limits: TPlanLimits): number | Promise<number> {
    const wait = this.limiter.hit(key.keyId, limits.rateLimitPerMinute) as number;
    if (wait > 0) return wait;
    const accountId = key.accountId;
    const cap = key.monthlyCalls;
    const used = this.monthly.current(accountId);
    const keyId = cap === null ? null : keyCounterId(accountId, key.keyId, cap);
    const keyUsed = keyId === null ? 0 : this.keyMonthly.current(keyId);
    if (typeof used === 'number' && typeof keyUsed === 'number')
      return this.countIfUnder(accountId, used, limits, keyId, keyUsed, cap);
    // Seeded first; then checked and counted in one synchronous step, so a burst cannot pass the caps.
    return Promise.all([used, keyUsed]).then(() =>
      this.countIfUnder(
        accountId,
        this.monthly.current(accountId) as number,
        limits,
        keyId,
        keyId === null ? 0 : (this.keyMonthly.current(keyId) as number),
        cap,
      ),
    );
  }

  hitRate(keyId: string, ratePerMinute: number): number {
    return this.limiter.hit(keyId, ratePerMinute) as number;
  }

  private countIfUnder(
    accountId: string,
    used: number,
    limits: TPlanLimits,
    keyId: string | null,
    keyUsed: number,
    cap: number | null,
  ): number {
    if (used >= limits.quotaCallsMonth) return QUOTA_EXCEEDED;
    if (keyId !== null && cap !== null && keyUsed >= cap) return KEY_QUOTA_EXCEEDED;
    this.monthly.add(accountId);
    if (keyId !== null) this.keyMonthly.add(keyId);
    return 0;
  }

  calls(accountId: string): number | Promise<number> {
    return this.monthly.current(accountId);
  }

  redisUp(): null {
    return null;
  }

  /** Forgets every count (they are re-seeded from the stored usage on next use). */
  reset(): void {
    this.limiter = createMemoryRateLimiter(this.now);
    this.monthly = new MonthlyCalls(this.db, this.now, this.beforeSeed);
    this.keyMonthly = this.keyCounters();
    this.spend = new LocalSpend(this.db, this.now, this.beforeSeed);
    this.tokens.reseedFromNow();
  }

  async close(): Promise<void> {
    await this.limiter.close();
  }
}
