import type { TDb } from '../db/client';
import { periodOf, periodStart, storedCalls } from '../modules/usage/service';

export { periodOf };

/**
 * Per-key calls per minute in this process, fixed one-minute windows. `hit` answers 0 when the
 * call may go, or the seconds until the window ends. (With REDIS_URL the shared counters in
 * counters.ts count instead, and this one only while Redis is unreachable.)
 */
export interface TRateLimiter {
  hit(keyId: string, limitPerMinute: number): number | Promise<number>;
  close(): Promise<void>;
}

export function createMemoryRateLimiter(now: () => number = Date.now): TRateLimiter {
  let window = -1;
  const counts = new Map<string, number>();
  return {
    hit(keyId, limit) {
      const time = now();
      const current = Math.floor(time / 60_000);
      if (current !== window) {
        // A new minute: every counter restarts, so the map never holds more than one minute's keys.
        window = current;
        counts.clear();
      }
      const used = (counts.get(keyId) ?? 0) + 1;
      counts.set(keyId, used);
      return used > limit ? ((current + 1) * 60_000 - time) / 1000 : 0;
    },
    async close() {
      counts.clear();
    },
  };
}

/**
 * Calls this month per caller account, in memory: seeded once from usage_events on the account's
 * first call in this process, then counted here as calls are forwarded, so quota checks never
 * query the database.
 */
export class MonthlyCalls {
  private readonly counts = new Map<string, { period: string; calls: number }>();
  private readonly seeding = new Map<string, Promise<number>>();
  private periodName = '';
  private periodEndsAt = 0;

  constructor(
    private readonly db: TDb,
    private readonly now: () => number = Date.now,
    /** Writes this instance's pending usage first, so the seed includes it. */
    private readonly beforeSeed: () => Promise<void> = async () => {},
    /** The stored calls of one counter's id this period (an account's, by default). */
    private readonly stored: (id: string, period: string) => Promise<number> = (id, period) =>
      storedCalls(db, id, period),
  ) {}

  /** This month's name (`2026-11`). */
  period(): string {
    return this.currentPeriod();
  }

  /** This period's calls: a number when known, else a promise that seeds it. */
  current(accountId: string): number | Promise<number> {
    const period = this.currentPeriod();
    const entry = this.counts.get(accountId);
    if (entry && entry.period === period) return entry.calls;
    return this.seed(accountId, period);
  }

  /** Counts a forwarded call, or `amount` (spend), after `current` has seeded the id. */
  add(accountId: string, amount = 1): void {
    const period = this.currentPeriod();
    const entry = this.counts.get(accountId);
    if (entry && entry.period === period) entry.calls += amount;
    else this.counts.set(accountId, { period, calls: amount });
  }

  /** The period name, recomputed only when a month boundary passes (it is asked on every call). */
  private currentPeriod(): string {
    const time = this.now();
    if (time >= this.periodEndsAt || time < this.periodEndsAt - 32 * 86_400_000) {
      this.periodName = periodOf(time);
      const start = periodStart(this.periodName);
      this.periodEndsAt = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
    }
    return this.periodName;
  }

  private seed(accountId: string, period: string): Promise<number> {
    const key = `${accountId}:${period}`;
    const inFlight = this.seeding.get(key);
    if (inFlight) return inFlight;
    const promise = this.beforeSeed()
      .then(() => this.stored(accountId, period))
      .then((seeded) => {
        const entry = this.counts.get(accountId);
        // Calls counted while the seed was in flight are added, not lost.
        const calls = entry && entry.period === period ? entry.calls + seeded : seeded;
        this.counts.set(accountId, { period, calls });
        return calls;
      })
      .finally(() => this.seeding.delete(key));
    this.seeding.set(key, promise);
    return promise;
  }
}

/** A key's counter id: its account (for the index), the key and its cap (a new cap counts afresh from the stored calls). */
export function keyCounterId(accountId: string, keyId: string, cap: number): string {
  return `${accountId}:${keyId}:${cap}`;
}

/** The calls stored for one key since the period began (`keyCounterId`'s id). */
export function storedKeyCalls(db: TDb, counterId: string, period: string): Promise<number> {
  const [accountId, keyId] = counterId.split(':');
  return storedCalls(db, accountId!, period, keyId!);
}
