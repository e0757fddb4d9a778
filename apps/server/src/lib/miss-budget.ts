/**
 * How many look-ups of unknown things (API keys, gateway routes) one client address may cause per
 * minute, in this process. A look-up takes from the budget BEFORE the database is asked and a
 * look-up that finds something gives it back, so a burst of random keys asks the database at most
 * `limitPerMinute` times however many arrive at once; known keys and routes are never limited.
 * Known misses are answered from the caches without a look-up at all.
 */
export class MissBudget {
  private window = -1;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly limitPerMinute: number,
    /** Distinct addresses tracked per minute; past it, new ones share one budget. */
    private readonly maxAddresses = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one look-up: 0 when it may go, else the seconds until the address's budget refills. */
  take(address: string): number {
    const time = this.now();
    const minute = Math.floor(time / 60_000);
    if (minute !== this.window) {
      // A new minute: every budget refills, so the map holds one minute's addresses at most.
      this.window = minute;
      this.counts.clear();
    }
    const key = this.counts.has(address) || this.counts.size < this.maxAddresses ? address : '*';
    const used = this.counts.get(key) ?? 0;
    if (used >= this.limitPerMinute) return Math.max(1, Math.ceil(((minute + 1) * 60_000 - time) / 1000));
    this.counts.set(key, used + 1);
    return 0;
  }

  /** The look-up found something: it does not count. */
  refund(address: string): void {
    const key = this.counts.has(address) ? address : '*';
    const used = this.counts.get(key);
    if (used !== undefined && used > 0) this.counts.set(key, used - 1);
  }
}

/** Unknown keys plus unknown routes one address may try per minute. */
export const UNKNOWN_LOOKUPS_PER_MINUTE = 30;
