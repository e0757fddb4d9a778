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
import { chargedPicosOf, limitNanosOf, picosToNanosUp } from '../modules/money/service';
import { LocalSpend, type TSpendTicket } from './spend';

/** One instance, exact: the rate limit and monthly calls in this process's memory. */
export class LocalCallCounters implements TCallCounters {
  private limiter: TRateLimiter;
  private monthly: MonthlyCalls;
  private keyMonthly: MonthlyCalls;
  private spend: LocalSpend;

  constructor(
    private readonly db: TDb,
    private readonly beforeSeed: () => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {
    this.limiter = createMemoryRateLimiter(now);
    this.monthly = new MonthlyCalls(db, now, beforeSeed);
    this.keyMonthly = this.keyCounters();
    this.spend = new LocalSpend(db, now, beforeSeed);
  }

  reserveSpend(
    accountId: string,
    limitSetAt: number,
    limitMinor: number,
    reservedPicos: number,
  ): TSpendTicket | null | Promise<TSpendTicket | null> {
    // The counter holds nanos (modules/money): the reservation is rounded up into it.
    return this.spend.reserve(accountId, limitSetAt, limitNanosOf(limitMinor), picosToNanosUp(reservedPicos));
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
  }

  async close(): Promise<void> {
    await this.limiter.close();
  }
}
