/*
 * Tokens per minute (contract 6e, decision 049): per key, in fixed one-minute windows as the call
 * rate limit is, the limit being the lower of the plan's and the key's own `tokens_per_minute`. A
 * call reserves its prompt (counted from the body) plus the most it may generate (its
 * `max_tokens`, or the bound the gateway sets) in the minute it is admitted, refused when that
 * would pass the limit; when it ends, the reservation is replaced by the tokens it used (the
 * upstream's usage, or the tokenizer's count of a stream cut short). A call's tokens count in the
 * minute it was admitted. So the limit is passed only by what upstreams generate past the bound
 * they were given, and never refuses a call while used + reserved leaves it room.
 *
 * One instance counts in memory (LocalTokens); with REDIS_URL every instance counts in Redis
 * (redis-tokens.ts). A minute's counter lost to a restart (the process's, or Redis's) is seeded
 * from the stored usage of that minute: `seedUntil` is the end of the minute the counters started
 * (or reconnected) in, and a key's first reservation before it reads its stored tokens.
 */

/** One admitted call's hold on its key's minute. */
export interface TTokenTicket {
  keyId: string;
  minute: number;
  reserved: number;
  shared: boolean;
  /** The Redis holder (holders.ts) the reservation is held under; '' in memory. */
  holder: string;
}

/** What a reservation answers: the ticket, or a refusal; both say what the headers tell. */
export interface TTokenAnswer {
  ticket: TTokenTicket | null;
  limit: number;
  /** Tokens left in this minute after this call's reservation (or, refused, before it). */
  remaining: number;
  /** Seconds until the minute ends. */
  resetSeconds: number;
}

/** The stored tokens of a key since an instant (usage's `storedTokens`). */
export type TStoredTokens = (accountId: string, keyId: string, since: Date) => Promise<number>;

export function minuteOf(time: number): number {
  return Math.floor(time / 60_000);
}

export function secondsLeft(minute: number, time: number): number {
  return ((minute + 1) * 60_000 - time) / 1000;
}

/** The key's token limit: the lower of its plan's and its own; null when neither has one. */
export function tokenLimitOf(plan: number | null, key: number | null): number | null {
  if (plan === null) return key;
  return key === null ? plan : Math.min(plan, key);
}

/** This instance's token windows: exact for one instance (and while Redis is unreachable). */
export class LocalTokens {
  private window = -1;
  private readonly used = new Map<string, number>();
  private readonly seeding = new Map<string, Promise<void>>();
  private seedUntil: number;

  constructor(
    private readonly stored: TStoredTokens | null,
    private readonly now: () => number = Date.now,
  ) {
    this.seedUntil = this.stored ? (minuteOf(now()) + 1) * 60_000 : 0;
  }

  reserve(
    accountId: string,
    keyId: string,
    limit: number,
    tokens: number,
  ): TTokenAnswer | Promise<TTokenAnswer> {
    const time = this.now();
    const minute = minuteOf(time);
    if (minute !== this.window) {
      // A new minute: every window restarts, so the map never holds more than one minute's keys.
      this.window = minute;
      this.used.clear();
    }
    let used = this.used.get(keyId);
    if (used === undefined && time < this.seedUntil && this.stored)
      return this.seed(accountId, keyId, minute).then(() => this.reserve(accountId, keyId, limit, tokens));
    used ??= 0;
    const resetSeconds = secondsLeft(minute, time);
    if (used + tokens > limit)
      return { ticket: null, limit, remaining: Math.max(0, limit - used), resetSeconds };
    this.used.set(keyId, used + tokens);
    const ticket = { keyId, minute, reserved: tokens, shared: false, holder: '' };
    return { ticket, limit, remaining: limit - used - tokens, resetSeconds };
  }

  /** Replaces the reservation with the tokens used (in the minute it was made, if still current). */
  settle(ticket: TTokenTicket, tokens: number): void {
    if (ticket.minute !== this.window) return;
    const used = this.used.get(ticket.keyId);
    if (used !== undefined) this.used.set(ticket.keyId, Math.max(0, used + tokens - ticket.reserved));
  }

  /** Tokens counted in this minute for a key (used and reserved). */
  current(keyId: string): number {
    return this.window === minuteOf(this.now()) ? (this.used.get(keyId) ?? 0) : 0;
  }

  /** The minute's counters are seeded again from the stored usage (Redis came back, or a reset). */
  reseedFromNow(): void {
    this.window = -1;
    this.used.clear();
    if (this.stored) this.seedUntil = (minuteOf(this.now()) + 1) * 60_000;
  }

  private seed(accountId: string, keyId: string, minute: number): Promise<void> {
    let pending = this.seeding.get(keyId);
    if (pending) return pending;
    pending = this.stored!(accountId, keyId, new Date(minute * 60_000))
      .then((stored) => {
        // Reservations made while the seed was read are added, not lost.
        if (this.window === minute) this.used.set(keyId, (this.used.get(keyId) ?? 0) + stored);
      })
      .finally(() => this.seeding.delete(keyId));
    this.seeding.set(keyId, pending);
    return pending;
  }
}
