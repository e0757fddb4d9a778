import type { TDb } from '../db/client';
import { chargeOf, fits, limitNanosOf, picosToNanosUp } from '../modules/money/service';
import { storedSpendPicos, storedSpendPicosBefore } from '../modules/usage/service';
import { MonthlyCalls } from './limits';

/*
 * Limits in money (contract 5a, 6e): the account's marketplace spend limit and each key's budget
 * (`monthly_spend`), enforced like the quota: a counter per account (and per budgeted key) and
 * period (the calendar month), seeded from the stored spend and then kept in memory (one instance)
 * or in Redis (every instance, redis-spend.ts), so no call reads the database.
 *
 * A call's cost is known only when it ends (its tokens), so a priced call is admitted in two
 * steps: `reserve` takes the most it can cost before it is forwarded (spend-reservation.ts) from
 * every counter the call is under at once, refusing it when that would pass any of their limits;
 * `settle` replaces the reservation with what the call costs, capped at what is left of the
 * tightest limit. The cap is the call's charge (`costCapPicos` on its usage row), so no call is
 * charged past a limit, however many run at once, and a refused or failed call costs nothing. The
 * counters hold nanos (a reservation and a cost rounded up from picos, modules/money) so a limit of
 * up to 1,000,000.00 stays a safe integer.
 *
 * A newly saved limit counts afresh from the stored spend (the counter names the limit it was
 * seeded for: while there was no limit, calls were not counted), plus what is still held: the
 * reservations of calls in flight, which are not stored yet, and the charges settled since the
 * seed began (their rows may have missed the stored sum).
 */

/** One limit a call's spend is counted against. */
export interface TSpendPart {
  kind: 'account' | 'key';
  /** The counter's id: the account's, or `accountId:keyId` for a key's budget. */
  id: string;
  /** The limit (minor units) and what names it: its save time, or the budget itself for a key. */
  limitMinor: number;
  setAt: number;
}

/** The limits in money one call is under (one or both). */
export interface TSpendLimits {
  parts: TSpendPart[];
}

/** One admitted call's hold on its spend counters. */
export interface TSpendTicket {
  period: string;
  parts: readonly TSpendPart[];
  /** The counters' units: nanos (modules/money), the reservation rounded up. */
  reservedNanos: number;
  /** Reserved in Redis (settled there, under `holder`), or in this instance's counters. */
  shared: boolean;
  holder: string;
}

/** A reservation refused: which limit it did not fit. */
export interface TSpendRefusal {
  refused: TSpendPart['kind'];
}

export type TSpendAnswer = TSpendTicket | TSpendRefusal;

export function isSpendRefusal(answer: TSpendAnswer): answer is TSpendRefusal {
  return 'refused' in answer;
}

/** The account's spend limit and the key's budget that apply to a call, or null when neither. */
export function spendLimitsOf(
  accountId: string,
  keyId: string,
  account: { limitMinor: number | null; setAt: number | null },
  keyBudgetMinor: number | null,
): TSpendLimits | null {
  const parts: TSpendPart[] = [];
  if (keyBudgetMinor !== null)
    parts.push({
      kind: 'key',
      id: `${accountId}:${keyId}`,
      limitMinor: keyBudgetMinor,
      setAt: keyBudgetMinor,
    });
  if (account.limitMinor !== null && account.setAt !== null)
    parts.push({ kind: 'account', id: accountId, limitMinor: account.limitMinor, setAt: account.setAt });
  return parts.length === 0 ? null : { parts };
}

/**
 * The stored spend a counter is seeded from, in nanos (the exact picos rounded up): a counter's
 * spend never passes its limit (at most SPEND_LIMIT_MAX_MINOR, 1e15 nanos), so a larger sum only
 * says "over". A key's counter reads that key's rows.
 */
export async function storedSpendOf(db: TDb, part: Pick<TSpendPart, 'kind' | 'id'>, period: string) {
  const [accountId, keyId] = part.id.split(':');
  return picosToNanosUp(
    await storedSpendPicos(db, accountId!, period, part.kind === 'key' ? keyId : undefined),
  );
}

/** The same, in picos, in all and of the charges metered before `before` (seed-corrections.ts). */
export function storedSpendBefore(
  db: TDb,
  part: Pick<TSpendPart, 'kind' | 'id'>,
  period: string,
  before: Date,
): Promise<{ picos: bigint; before: bigint }> {
  const [accountId, keyId] = part.id.split(':');
  return storedSpendPicosBefore(db, accountId!, period, part.kind === 'key' ? keyId : undefined, before);
}

/** One counter this period. */
interface TCounter {
  period: string;
  /** The limit (its save time, or the key's budget) the counter was seeded for. */
  setAt: number;
  /** Stored spend at the seed, plus charges and reservations since. */
  spent: number;
  /** Reservations of calls not settled yet. */
  held: number;
  /** Charges settled since the counter first existed this period (marks a seed's start). */
  settled: number;
}

/** This instance's spend counters (no Redis, or Redis unreachable): exact for this instance. */
export class LocalSpend {
  private readonly counters = new Map<string, TCounter>();
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

  /** Takes `reserved` nanos from every counter of `limits`, or none when one would pass its limit. */
  reserve(limits: TSpendLimits, reserved: number): TSpendAnswer | Promise<TSpendAnswer> {
    const period = this.period();
    const stale = limits.parts.find((part) => !this.current(part, period));
    // Seeded first; then checked and counted in one synchronous step, so a burst cannot pass a limit.
    if (stale) return this.seed(stale, period).then(() => this.reserve(limits, reserved));
    for (const part of limits.parts)
      if (!fits(this.counters.get(part.id)!.spent, reserved, limitNanosOf(part.limitMinor)))
        return { refused: part.kind };
    for (const part of limits.parts) {
      const counter = this.counters.get(part.id)!;
      counter.spent += reserved;
      counter.held += reserved;
    }
    return { period, parts: limits.parts, reservedNanos: reserved, shared: false, holder: '' };
  }

  /** The charge (nanos): the cost, capped at what is left of the tightest limit. */
  settle(ticket: TSpendTicket, cost: number): number {
    const reserved = ticket.reservedNanos;
    let charged = cost;
    const held: TCounter[] = [];
    for (const part of ticket.parts) {
      const counter = this.counters.get(part.id);
      // A new month (or a reset) since the call began: the reservation went with the old count.
      if (!counter || counter.period !== ticket.period) {
        charged = Math.min(charged, Math.max(reserved, 0));
        continue;
      }
      held.push(counter);
      charged = Math.min(charged, chargeOf(counter.spent, reserved, cost, limitNanosOf(part.limitMinor)));
    }
    for (const counter of held) {
      counter.spent += charged - reserved;
      counter.held -= reserved;
      counter.settled += charged;
    }
    return charged;
  }

  private current(part: TSpendPart, period: string): boolean {
    const counter = this.counters.get(part.id);
    return counter !== undefined && counter.period === period && counter.setAt === part.setAt;
  }

  /**
   * The counter for this limit: the stored spend, plus the reservations held and the charges
   * settled since this began (marked before the pending rows are written, so none is missed).
   */
  private seed(part: TSpendPart, period: string): Promise<void> {
    const name = `${part.id}:${part.setAt}:${period}`;
    let pending = this.seeding.get(name);
    if (pending) return pending;
    const before = this.counters.get(part.id);
    const mark = before?.period === period ? before.settled : 0;
    pending = this.beforeSeed()
      .then(() => storedSpendOf(this.db, part, period))
      .then((stored) => {
        const now = this.counters.get(part.id);
        const current = now?.period === period ? now : null;
        const held = current?.held ?? 0;
        const settled = current?.settled ?? 0;
        const since = Math.max(0, settled - mark);
        this.counters.set(part.id, {
          period,
          setAt: part.setAt,
          spent: stored + held + since,
          held,
          settled,
        });
      })
      .finally(() => this.seeding.delete(name));
    this.seeding.set(name, pending);
    return pending;
  }
}

export function spendKeyName(part: Pick<TSpendPart, 'kind' | 'id'>, period: string): string {
  // `sp3`: one hold per instance (holders.ts) since decision 049; older `sp2` hashes are left to
  // expire, each counter is seeded again from the stored usage.
  return part.kind === 'key' ? `air:ks:${part.id}:${period}` : `air:sp3:${part.id}:${period}`;
}
