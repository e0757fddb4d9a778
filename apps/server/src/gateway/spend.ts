import type { TDb } from '../db/client';
import { chargeOf, fits, picosToNanosUp } from '../modules/money/service';
import { storedSpendPicos } from '../modules/usage/service';
import { MonthlyCalls } from './limits';

/*
 * The marketplace spend limit (contract 5a), enforced like the quota: a counter per caller account
 * and period (the calendar month), seeded from the stored spend and then kept in memory (one
 * instance) or in Redis (every instance, counters.ts), so no call reads the database.
 *
 * A call's cost is known only when it ends (its tokens), so a priced call is admitted in two
 * steps: `reserve` takes the most it can cost before it is forwarded (spend-reservation.ts),
 * refusing it when that would pass the limit; `settle` replaces the reservation with what the call
 * costs, capped at what is left of the limit. The cap is the call's charge (`costCapPicos` on its
 * usage row), so no call is charged past the limit, however many run at once, and a refused or
 * failed call costs nothing. The counters hold nanos (a reservation and a cost rounded up from
 * picos, modules/money) so a limit of up to 1,000,000.00 stays a safe integer.
 *
 * A newly saved limit counts afresh from the stored spend (the counter names the limit it was
 * seeded for: while there was no limit, calls were not counted), plus what is still held: the
 * reservations of calls in flight, which are not stored yet, and the charges settled since the
 * seed began (their rows may have missed the stored sum). Those calls settle on the same counter,
 * so a burst around a limit change cannot pass the new limit, and their reservations are not kept
 * once they are settled.
 */

/** One admitted call's hold on its account's spend counter. */
export interface TSpendTicket {
  accountId: string;
  period: string;
  /** The counter's units: nanos (modules/money), the limit and the reservation rounded up. */
  limitNanos: number;
  reservedNanos: number;
  /** Reserved in Redis (settled there), or in this instance's counter. */
  shared: boolean;
}

/**
 * The stored spend a counter is seeded from, in nanos (the exact picos rounded up): a counter's
 * spend never passes its limit (at most SPEND_LIMIT_MAX_MINOR, 1e15 nanos), so a larger sum only
 * says "over".
 */
export async function storedSpendOf(db: TDb, accountId: string, period: string): Promise<number> {
  return picosToNanosUp(await storedSpendPicos(db, accountId, period));
}

/** One account's counter this period. */
interface TAccountSpend {
  period: string;
  /** The limit (its save time) the counter was seeded for. */
  limitSetAt: number;
  /** Stored spend at the seed, plus charges and reservations since. */
  spent: number;
  /** Reservations of calls not settled yet. */
  held: number;
  /** Charges settled since the counter first existed this period (marks a seed's start). */
  settled: number;
}

/** This instance's spend counters (no Redis, or Redis unreachable): exact for this instance. */
export class LocalSpend {
  private readonly accounts = new Map<string, TAccountSpend>();
  private readonly seeding = new Map<string, Promise<void>>();
  private readonly months: MonthlyCalls;

  constructor(
    private readonly db: TDb,
    now: () => number,
    private readonly beforeSeed: () => Promise<void>,
  ) {
    // Only used for its period arithmetic.
    this.months = new MonthlyCalls(db, now);
  }

  period(): string {
    return this.months.period();
  }

  reserve(
    accountId: string,
    limitSetAt: number,
    limitNanos: number,
    reserved: number,
  ): TSpendTicket | null | Promise<TSpendTicket | null> {
    const period = this.period();
    const entry = this.accounts.get(accountId);
    if (entry && entry.period === period && entry.limitSetAt === limitSetAt)
      return this.take(accountId, entry, limitNanos, reserved);
    // Seeded first; then checked and counted in one synchronous step, so a burst cannot pass the limit.
    return this.seed(accountId, limitSetAt, period).then(() =>
      this.reserve(accountId, limitSetAt, limitNanos, reserved),
    );
  }

  settle(ticket: TSpendTicket, cost: number): number {
    const entry = this.accounts.get(ticket.accountId);
    // A new month (or a reset) since the call began: the reservation went with the old count.
    if (!entry || entry.period !== ticket.period) return Math.min(cost, Math.max(ticket.reservedNanos, 0));
    const charged = chargeOf(entry.spent, ticket.reservedNanos, cost, ticket.limitNanos);
    entry.spent += charged - ticket.reservedNanos;
    entry.held -= ticket.reservedNanos;
    entry.settled += charged;
    return charged;
  }

  /**
   * The counter for this limit: the stored spend, plus the reservations held and the charges
   * settled since this began (marked before the pending rows are written, so none is missed).
   */
  private seed(accountId: string, limitSetAt: number, period: string): Promise<void> {
    const name = `${accountId}:${limitSetAt}:${period}`;
    let pending = this.seeding.get(name);
    if (pending) return pending;
    const before = this.accounts.get(accountId);
    const mark = before?.period === period ? before.settled : 0;
    pending = this.beforeSeed()
      .then(() => storedSpendOf(this.db, accountId, period))
      .then((stored) => {
        const now = this.accounts.get(accountId);
        const current = now?.period === period ? now : null;
        const held = current?.held ?? 0;
        const settled = current?.settled ?? 0;
        const since = Math.max(0, settled - mark);
        this.accounts.set(accountId, { period, limitSetAt, spent: stored + held + since, held, settled });
      })
      .finally(() => this.seeding.delete(name));
    this.seeding.set(name, pending);
    return pending;
  }

  private take(
    accountId: string,
    entry: TAccountSpend,
    limitNanos: number,
    reserved: number,
  ): TSpendTicket | null {
    if (!fits(entry.spent, reserved, limitNanos)) return null;
    entry.spent += reserved;
    entry.held += reserved;
    return { accountId, period: entry.period, limitNanos, reservedNanos: reserved, shared: false };
  }
}

/*
 * In Redis an account's counter is a hash per period: `v` what is spent (reservations included),
 * `h` the reservations held, `c` the charges settled, `s` the limit (its save time) it was seeded
 * for. Sums go through HINCRBY with the caller's own digits, so no count passes through a Lua
 * number's 14 significant digits.
 */

/**
 * Reserve, in one step on any instance: KEYS[1] the counter, ARGV[1] the limit, ARGV[2] the
 * reservation, ARGV[3] the limit's save time. -1: no counter for this limit yet (the caller seeds
 * it and runs the script again); -2: it would pass the limit; 0: reserved.
 */
export const RESERVE_SCRIPT = `
if redis.call('HGET', KEYS[1], 's') ~= ARGV[3] then return -1 end
local spent = tonumber(redis.call('HGET', KEYS[1], 'v'))
local limit = tonumber(ARGV[1])
local reserved = tonumber(ARGV[2])
if reserved > 0 then
  if spent + reserved > limit then return -2 end
elseif spent >= limit then
  return -2
end
redis.call('HINCRBY', KEYS[1], 'v', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'h', ARGV[2])
return 0
`;

/**
 * Seed (once per limit, on any instance): KEYS[1] the counter, ARGV[1] the stored spend, ARGV[2]
 * the charges settled when the seed began (read before the pending rows were written), ARGV[3]
 * the limit's save time, ARGV[4] the counter's time to live. The counter becomes the stored spend
 * plus the reservations held and the charges settled since the mark.
 */
export const SEED_SPEND_SCRIPT = `
if redis.call('HGET', KEYS[1], 's') == ARGV[3] then return 0 end
local held = redis.call('HGET', KEYS[1], 'h') or '0'
local settled = redis.call('HGET', KEYS[1], 'c') or '0'
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', ARGV[3], 'h', held, 'c', settled)
redis.call('HINCRBY', KEYS[1], 'v', held)
if tonumber(settled) > tonumber(ARGV[2]) then
  redis.call('HINCRBY', KEYS[1], 'v', settled)
  if ARGV[2] ~= '0' then redis.call('HINCRBY', KEYS[1], 'v', '-' .. ARGV[2]) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`;

/**
 * Settle (chargeOf, in one step): KEYS[1] the counter, ARGV[1] the limit, ARGV[2] the reservation,
 * ARGV[3] the cost. Answers the charge; a counter gone meanwhile (Redis restarted, reconciled)
 * charges the cost up to the reservation.
 */
export const SETTLE_SCRIPT = `
local reserved = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local spent = redis.call('HGET', KEYS[1], 'v')
if not spent then
  if cost < reserved then return cost end
  return reserved
end
spent = tonumber(spent)
local charged = cost
if cost > reserved then
  local room = tonumber(ARGV[1]) - spent
  if room < 0 then room = 0 end
  if cost - reserved < room then room = cost - reserved end
  charged = reserved + room
end
if charged ~= reserved then redis.call('HINCRBY', KEYS[1], 'v', string.format('%d', charged - reserved)) end
if ARGV[2] ~= '0' then redis.call('HINCRBY', KEYS[1], 'h', '-' .. ARGV[2]) end
redis.call('HINCRBY', KEYS[1], 'c', string.format('%d', charged))
return charged
`;

export function spendKeyName(accountId: string, period: string): string {
  // `sp2`: counted in nanos since decision 043 (older `sp` hashes, in millionths of a minor unit,
  // are left to expire; each counter is seeded again from the migrated usage).
  return `air:sp2:${accountId}:${period}`;
}
