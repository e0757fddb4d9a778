/**
 * Admissions leased in blocks from the shared counters (decision 036). While a key's rate window,
 * its account's month and its own cap all have at least LEASE_ROOM calls left, one Redis round trip
 * counts LEASE_CALLS calls at once, and this instance admits the next ones from memory until the
 * block is used up or LEASE_MS have passed; what is left of an expired block is given back. A
 * lease never lets more calls through than the limits allow (each block fits in the room left);
 * for up to LEASE_MS another instance may be refused while calls leased here go unused, and a
 * process killed with blocks outstanding leaves them counted (at most LEASE_CALLS per busy key)
 * until its holder's beat lapses: the months it leased from are then dropped and seeded again from
 * the stored calls (holders.ts, decision 049).
 */
export const LEASE_CALLS = 64;
/** Leases are given only while every counter has this much room; below it each call is counted alone. */
export const LEASE_ROOM = 1024;
/** How long a block serves before what is left of it goes back. */
export const LEASE_MS = 100;

export interface TLease {
  /** Calls of the block not admitted yet. */
  left: number;
  expires: number;
  /** The counters the block was taken from (given back to, in this order). */
  readonly rateKey: string;
  readonly quotaKey: string;
  readonly keyQuotaKey: string;
  readonly accountId: string;
  /** The capped key's counter id, or null (no cap). */
  readonly capCounterId: string | null;
  /** The round trip taking the next block, which calls arriving meanwhile wait for. */
  refill: Promise<unknown> | null;
}

/**
 * The blocks this instance holds, by key, minute, month and cap. `giveBack` returns an expired
 * block's unused calls; a timer sweeps expired blocks while any are held.
 */
export class AdmitLeases {
  private readonly held = new Map<string, TLease>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly giveBack: (lease: TLease) => void,
    private readonly now: () => number,
  ) {}

  get(name: string): TLease | undefined {
    return this.held.get(name);
  }

  /** Adds a block of `calls` calls (this call not included) to the one held under `name`. */
  add(name: string, calls: number, counters: Omit<TLease, 'left' | 'expires' | 'refill'>): void {
    const expires = this.now() + LEASE_MS;
    const lease = this.held.get(name);
    if (lease) {
      lease.left += calls;
      lease.expires = expires;
      return;
    }
    this.held.set(name, { ...counters, left: calls, expires, refill: null });
    this.timer ??= setInterval(() => this.sweep(), LEASE_MS).unref();
  }

  /** Forgets the block held under `name` if it is `lease` (its calls are not given back). */
  drop(name: string, lease: TLease): void {
    if (this.held.get(name) === lease) this.held.delete(name);
  }

  /** Calls leased to this instance and not admitted yet, for one account. */
  unused(accountId: string): number {
    let unused = 0;
    for (const lease of this.held.values()) if (lease.accountId === accountId) unused += lease.left;
    return unused;
  }

  /** Every block, emptied and forgotten (Redis is gone, or the instance stops). */
  takeAll(): TLease[] {
    const all = [...this.held.values()];
    this.held.clear();
    this.stopTimer();
    return all;
  }

  private sweep(): void {
    const time = this.now();
    for (const [name, lease] of this.held) {
      if (lease.expires > time || lease.refill !== null) continue;
      this.held.delete(name);
      if (lease.left > 0) this.giveBack(lease);
    }
    if (this.held.size === 0) this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
