import { MICROS_PER_MINOR } from '@air/shared/schemas/price';
import type { TDb } from '../db/client';
import { storedSpendMicros } from '../modules/usage/service';
import { MonthlyCalls } from './limits';

/*
 * The marketplace spend limit (contract 5a), enforced like the quota: a counter per caller account
 * and period (the calendar month), seeded once from the stored spend and then kept in memory (one
 * instance) or in Redis (every instance, counters.ts), so no call reads the database.
 *
 * A call's cost is known only when it ends (its tokens), so a priced call is admitted in two
 * steps: `reserve` takes its per-call part before it is forwarded, refusing it when that would
 * pass the limit (a token-priced call is refused once the limit is reached); `settle` replaces the
 * reservation with what the call costs, capped at what is left of the limit. The cap is the
 * call's charge (`costCapMicros` on its usage row), so no call is charged past the limit, however
 * many run at once, and a refused or failed call costs nothing.
 */

/** One admitted call's hold on its account's spend counter. */
export interface TSpendTicket {
  /** `account:limit-saved-at`: a newly saved limit counts afresh from the stored spend. */
  counterId: string;
  period: string;
  limitMicros: number;
  reservedMicros: number;
  /** Reserved in Redis (settled there), or in this instance's counter. */
  shared: boolean;
}

/** The counter of one account's current limit. */
export function spendCounterId(accountId: string, limitSetAt: number): string {
  return `${accountId}:${limitSetAt}`;
}

export function storedSpendOf(db: TDb, counterId: string, period: string): Promise<number> {
  return storedSpendMicros(db, counterId.split(':')[0]!, period);
}

export function limitMicrosOf(limitMinor: number): number {
  return limitMinor * MICROS_PER_MINOR;
}

/** May `reserved` more be taken with `spent` counted? A zero reservation needs room left. */
export function fits(spent: number, reserved: number, limit: number): boolean {
  return reserved > 0 ? spent + reserved <= limit : spent < limit;
}

/** What a call that reserved `reserved` is charged for costing `cost`, with `spent` counted (its reservation included). */
export function chargeOf(spent: number, reserved: number, cost: number, limit: number): number {
  if (cost <= reserved) return cost;
  return reserved + Math.max(0, Math.min(cost - reserved, limit - spent));
}

/** This instance's spend counters (no Redis, or Redis unreachable): exact for this instance. */
export class LocalSpend {
  private readonly months: MonthlyCalls;

  constructor(db: TDb, now: () => number, beforeSeed: () => Promise<void>) {
    this.months = new MonthlyCalls(db, now, beforeSeed, (id, period) => storedSpendOf(db, id, period));
  }

  period(): string {
    return this.months.period();
  }

  reserve(
    counterId: string,
    limitMicros: number,
    reserved: number,
  ): TSpendTicket | null | Promise<TSpendTicket | null> {
    const spent = this.months.current(counterId);
    if (typeof spent === 'number') return this.take(counterId, limitMicros, reserved, spent);
    // Seeded first; then checked and counted in one synchronous step, so a burst cannot pass the limit.
    return spent.then(() =>
      this.take(counterId, limitMicros, reserved, this.months.current(counterId) as number),
    );
  }

  settle(ticket: TSpendTicket, cost: number): number {
    const spent = this.months.current(ticket.counterId);
    // A new month (or a reset) since the call began: the reservation went with the old count.
    if (typeof spent !== 'number' || this.months.period() !== ticket.period) {
      return Math.min(cost, Math.max(ticket.reservedMicros, 0));
    }
    const charged = chargeOf(spent, ticket.reservedMicros, cost, ticket.limitMicros);
    this.months.add(ticket.counterId, charged - ticket.reservedMicros);
    return charged;
  }

  private take(counterId: string, limitMicros: number, reserved: number, spent: number): TSpendTicket | null {
    if (!fits(spent, reserved, limitMicros)) return null;
    this.months.add(counterId, reserved);
    return { counterId, period: this.months.period(), limitMicros, reservedMicros: reserved, shared: false };
  }
}

/**
 * Reserve, in one step on any instance: KEYS[1] the counter (millionths), ARGV[1] the limit,
 * ARGV[2] the reservation. -1: the counter does not exist yet (the caller seeds it and runs the
 * script again); -2: it would pass the limit; 0: reserved.
 */
export const RESERVE_SCRIPT = `
local spent = redis.call('GET', KEYS[1])
if not spent then return -1 end
spent = tonumber(spent)
local limit = tonumber(ARGV[1])
local reserved = tonumber(ARGV[2])
if reserved > 0 then
  if spent + reserved > limit then return -2 end
elseif spent >= limit then
  return -2
end
redis.call('INCRBY', KEYS[1], reserved)
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
local spent = redis.call('GET', KEYS[1])
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
if charged ~= reserved then redis.call('INCRBY', KEYS[1], charged - reserved) end
return charged
`;

export function spendKeyName(counterId: string, period: string): string {
  return `air:sp:${counterId}:${period}`;
}
