import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { limitNanosOf } from '../modules/money/service';
import { KEY_QUOTA_EXCEEDED, QUOTA_EXCEEDED } from './counter-types';
import type { TPlanLimits } from './directory';
import { createMemoryRateLimiter, keyCounterId, MonthlyCalls, storedKeyCalls } from './limits';
import { LocalCallCounters } from './local-counters';
import {
  isSpendRefusal,
  LocalSpend,
  spendKeyName,
  spendLimitsOf,
  storedSpendOf,
  type TSpendLimits,
  type TSpendTicket,
} from './spend';

// The limits in money and in calls of one instance (spend.ts, limits.ts, local-counters.ts),
// driven directly: a clock of the test's own and a database that answers the stored sums the
// test sets (and records what was asked), so each rule is checked at its exact boundary.

const dialect = new PgDialect();
const NOV = Date.UTC(2026, 10, 15, 12);
const DEC = Date.UTC(2026, 11, 1);
const LIMIT = limitNanosOf(1); // one minor unit, in the counters' nanos

/** A database answering stored spend (picos) and stored calls by the query's parameters. */
function storedDb(answers: {
  spend?: (params: unknown[]) => bigint | number;
  calls?: (params: unknown[]) => number;
}) {
  const asked: { kind: 'spend' | 'calls'; params: unknown[] }[] = [];
  let gate: Promise<void> = Promise.resolve();
  const db = {
    async execute(query: SQL) {
      const { params } = dialect.sqlToQuery(query);
      asked.push({ kind: 'spend', params });
      await gate;
      return { rows: [{ spend: String(answers.spend?.(params) ?? 0) }] };
    },
    select: () => ({
      from: () => ({
        async where(condition: SQL) {
          const { params } = dialect.sqlToQuery(condition);
          asked.push({ kind: 'calls', params });
          await gate;
          return [{ calls: answers.calls?.(params) ?? 0 }];
        },
      }),
    }),
  };
  return {
    db: db as never,
    asked,
    /** Holds every stored read until the returned function is called. */
    hold() {
      let release = () => {};
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = Promise.resolve();
        release();
      };
    },
  };
}

function accountLimit(limitMinor: number, setAt = 1): TSpendLimits {
  return spendLimitsOf('acc', 'key', { limitMinor, setAt }, null)!;
}

async function ticketOf(answer: ReturnType<LocalSpend['reserve']>): Promise<TSpendTicket> {
  const settled = await answer;
  if (isSpendRefusal(settled)) throw new Error(`refused: ${settled.refused}`);
  return settled;
}

describe('the limits in money one call is under', () => {
  it('are the key budget and the account spend limit, each named for what it was seeded for', () => {
    expect(spendLimitsOf('a', 'k', { limitMinor: null, setAt: null }, null)).toBeNull();
    expect(spendLimitsOf('a', 'k', { limitMinor: 100, setAt: null }, null)).toBeNull();
    expect(spendLimitsOf('a', 'k', { limitMinor: null, setAt: 5 }, null)).toBeNull();
    expect(spendLimitsOf('a', 'k', { limitMinor: 100, setAt: 5 }, 0)).toEqual({
      parts: [
        { kind: 'key', id: 'a:k', limitMinor: 0, setAt: 0 },
        { kind: 'account', id: 'a', limitMinor: 100, setAt: 5 },
      ],
    });
    expect(spendLimitsOf('a', 'k', { limitMinor: null, setAt: null }, 7)).toEqual({
      parts: [{ kind: 'key', id: 'a:k', limitMinor: 7, setAt: 7 }],
    });
    expect(isSpendRefusal({ refused: 'key' })).toBe(true);
    expect(
      isSpendRefusal({ period: '2026-11', parts: [], reservedNanos: 1, shared: false, holder: '' }),
    ).toBe(false);
    expect(spendKeyName({ kind: 'key', id: 'a:k' }, '2026-11')).toBe('air:ks:a:k:2026-11');
    expect(spendKeyName({ kind: 'account', id: 'a' }, '2026-11')).toBe('air:sp3:a:2026-11');
  });

  it("seed from the stored spend rounded up to nanos, a key's from that key's rows", async () => {
    const { db, asked } = storedDb({ spend: (params) => (params.includes('k') ? 1001n : 2000n) });
    expect(await storedSpendOf(db, { kind: 'key', id: 'a:k' }, '2026-11')).toBe(2);
    expect(asked[0]!.params).toEqual(['a', 'k', '2026-11-01T00:00:00.000Z']);
    expect(await storedSpendOf(db, { kind: 'account', id: 'a' }, '2026-11')).toBe(2);
    expect(asked[1]!.params).toEqual(['a', '2026-11-01T00:00:00.000Z']);
  });
});

describe("one instance's spend counters", () => {
  it('seed first (after writing pending usage), then reserve up to the limit exactly and refuse past it', async () => {
    const events: string[] = [];
    const { db } = storedDb({
      spend: () => {
        events.push('stored');
        return 0;
      },
    });
    const spend = new LocalSpend(
      db,
      () => NOV,
      async () => void events.push('beforeSeed'),
    );
    expect(spend.period()).toBe('2026-11');
    const limits = accountLimit(1);
    const first = spend.reserve(limits, LIMIT / 2);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({
      period: '2026-11',
      parts: limits.parts,
      reservedNanos: LIMIT / 2,
      shared: false,
      holder: '',
    });
    expect(events).toEqual(['beforeSeed', 'stored']);
    // Seeded: answered at once, no second read.
    expect(spend.reserve(limits, LIMIT / 2)).toMatchObject({ reservedNanos: LIMIT / 2 });
    expect(spend.reserve(limits, 1)).toEqual({ refused: 'account' });
    // Nothing left: even a free reservation is refused.
    expect(spend.reserve(limits, 0)).toEqual({ refused: 'account' });
    expect(events).toEqual(['beforeSeed', 'stored']);
  });

  it('count the stored spend: what is left is the limit less it', async () => {
    const { db } = storedDb({ spend: () => (LIMIT - 10) * 1000 + 1 }); // 1 pico over: rounds up
    const spend = new LocalSpend(
      db,
      () => NOV,
      async () => {},
    );
    expect(await spend.reserve(accountLimit(1), 10)).toEqual({ refused: 'account' });
    expect(spend.reserve(accountLimit(1), 9)).toMatchObject({ reservedNanos: 9 });
    expect(spend.reserve(accountLimit(1), 0)).toEqual({ refused: 'account' });
  });

  it('refuse by the limit that does not fit, and take a reservation from every limit or none', async () => {
    const { db } = storedDb({});
    const spend = new LocalSpend(
      db,
      () => NOV,
      async () => {},
    );
    const both = spendLimitsOf('acc', 'key', { limitMinor: 2, setAt: 1 }, 1)!;
    const other = spendLimitsOf('acc', 'key2', { limitMinor: 2, setAt: 1 }, 1)!;
    expect(await spend.reserve(both, LIMIT + 1)).toEqual({ refused: 'key' });
    await ticketOf(spend.reserve(both, LIMIT));
    // The key's budget is used up; the account's limit has one minor unit left.
    expect(spend.reserve(both, 1)).toEqual({ refused: 'key' });
    expect(await spend.reserve(other, LIMIT)).toMatchObject({ reservedNanos: LIMIT });
    // The account's is used up too, by the other key's call.
    const third = await spend.reserve(spendLimitsOf('acc', 'key3', { limitMinor: 2, setAt: 1 }, 5)!, 1);
    expect(third).toEqual({ refused: 'account' });
    // The refused reservation took nothing from the key's budget of key3.
    const alone = spendLimitsOf('acc', 'key3', { limitMinor: null, setAt: null }, 5)!;
    expect(spend.reserve(alone, limitNanosOf(5))).toMatchObject({ reservedNanos: limitNanosOf(5) });
  });

  it('settle to the cost, capped at what is left of the tightest limit, and free the rest', async () => {
    const { db } = storedDb({});
    const spend = new LocalSpend(
      db,
      () => NOV,
      async () => {},
    );
    const both = spendLimitsOf('acc', 'key', { limitMinor: 10, setAt: 1 }, 1)!;
    const a = await ticketOf(spend.reserve(both, 100));
    const b = await ticketOf(spend.reserve(both, 100));
    // Cheaper than reserved: the cost; the rest is free again.
    expect(spend.settle(a, 40)).toBe(40);
    // Dearer than reserved: the cost while it fits the key's budget (1 minor unit).
    expect(spend.settle(b, LIMIT - 100)).toBe(LIMIT - 100);
    // Key budget now holds 40 + LIMIT - 100 spent: 60 left.
    const c = await ticketOf(spend.reserve(both, 10));
    expect(spend.settle(c, 1000)).toBe(60);
    expect(spend.reserve(both, 0)).toEqual({ refused: 'key' });
    // The account's counter took the same charges (LIMIT in all) and holds nothing more.
    const account = accountLimit(10);
    const left = limitNanosOf(10) - LIMIT;
    expect(spend.reserve(account, left + 1)).toEqual({ refused: 'account' });
    const d = await ticketOf(spend.reserve(account, left));
    expect(spend.settle(d, 0)).toBe(0);
    expect(spend.reserve(account, left)).toMatchObject({ reservedNanos: left });
  });

  it('a call that began last month is charged at most its reservation, and the new month is left alone', async () => {
    const clock = { now: NOV };
    const { db } = storedDb({});
    const spend = new LocalSpend(
      db,
      () => clock.now,
      async () => {},
    );
    const limits = accountLimit(1);
    const ticket = await ticketOf(spend.reserve(limits, 100));
    clock.now = DEC;
    expect(spend.period()).toBe('2026-12');
    const fresh = await ticketOf(spend.reserve(limits, LIMIT - 50));
    expect(spend.settle(ticket, 500)).toBe(100);
    expect(spend.settle(ticket, 30)).toBe(30);
    expect(spend.settle({ ...ticket, reservedNanos: -5 }, 30)).toBe(0);
    // December's counter holds only its own reservation.
    expect(spend.reserve(limits, 50)).toMatchObject({ reservedNanos: 50 });
    expect(spend.reserve(limits, 1)).toEqual({ refused: 'account' });
    expect(fresh.period).toBe('2026-12');
  });

  it('a newly saved limit counts afresh from the stored spend plus the calls in flight and the charges settled meanwhile', async () => {
    let stored = 0;
    const store = storedDb({ spend: () => stored * 1000 });
    const spend = new LocalSpend(
      store.db,
      () => NOV,
      async () => {},
    );
    const old = accountLimit(1, 1);
    const inFlight = await ticketOf(spend.reserve(old, 100));
    const settling = await ticketOf(spend.reserve(old, 200));
    expect(spend.settle(settling, 200)).toBe(200);
    stored = 200; // its row is stored
    // A new limit (saved at 2): seeded again while another call settles.
    const release = store.hold();
    const fresh = accountLimit(1, 2);
    const seeding = spend.reserve(fresh, 1);
    const late = await ticketOf(spend.reserve(old, 300));
    expect(spend.settle(late, 300)).toBe(300);
    // Both reservations under way share one read.
    const second = spend.reserve(fresh, 1);
    release();
    await ticketOf(seeding);
    await ticketOf(second);
    expect(store.asked).toHaveLength(2);
    // Stored 200 + held 100 (+1 +1 just reserved) + settled meanwhile 300: LIMIT - 602 left.
    expect(spend.reserve(fresh, LIMIT - 601)).toEqual({ refused: 'account' });
    expect(spend.reserve(fresh, LIMIT - 602)).toMatchObject({ reservedNanos: LIMIT - 602 });
    // The call in flight since before settles into the new counter.
    expect(spend.settle(inFlight, 100)).toBe(100);
    expect(spend.reserve(fresh, 0)).toEqual({ refused: 'account' });
  });
});

describe('calls this month and per minute', () => {
  it('a month counter seeds once from the stored calls, counts calls made while seeding, and starts again next month', async () => {
    const clock = { now: NOV };
    const asked: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const monthly = new MonthlyCalls(
      {} as never,
      () => clock.now,
      async () => void asked.push('beforeSeed'),
      async (id, period) => {
        asked.push(`${id} ${period}`);
        await gate;
        return 7;
      },
    );
    expect(monthly.period()).toBe('2026-11');
    const first = monthly.current('acc');
    const second = monthly.current('acc');
    expect(first).toBeInstanceOf(Promise);
    monthly.add('acc');
    monthly.add('acc', 5);
    release();
    expect(await first).toBe(13);
    expect(await second).toBe(13);
    expect(asked).toEqual(['beforeSeed', 'acc 2026-11']);
    expect(monthly.current('acc')).toBe(13);
    monthly.add('acc');
    expect(monthly.current('acc')).toBe(14);
    clock.now = DEC - 1;
    expect(monthly.current('acc')).toBe(14);
    clock.now = DEC;
    expect(monthly.period()).toBe('2026-12');
    expect(await monthly.current('acc')).toBe(7);
    expect(asked.at(-1)).toBe('acc 2026-12');
    // A clock set back a month is noticed too.
    clock.now = NOV;
    expect(monthly.period()).toBe('2026-11');
    clock.now = Date.UTC(2026, 9, 5);
    expect(monthly.period()).toBe('2026-10');
  });

  it('seeds two counters at once each from its own stored calls; a call counted while a new month seeds is kept', async () => {
    const clock = { now: NOV };
    let gate: Promise<void> = Promise.resolve();
    const stored: Record<string, number> = { a: 7, b: 3 };
    const monthly = new MonthlyCalls(
      {} as never,
      () => clock.now,
      async () => {},
      async (id) => {
        await gate;
        return stored[id]!;
      },
    );
    const [a, b] = [monthly.current('a'), monthly.current('b')];
    expect([await a, await b]).toEqual([7, 3]);
    monthly.add('a');
    expect(monthly.current('a')).toBe(8);
    // December: November's 8 are gone; the seed is in flight when a call is counted.
    clock.now = DEC;
    let release = () => {};
    gate = new Promise<void>((resolve) => (release = resolve));
    stored.a = 2;
    const seeding = monthly.current('a');
    monthly.add('a');
    release();
    expect(await seeding).toBe(3);
    expect(monthly.current('a')).toBe(3);
  });

  it("a key's counter reads that key's stored calls and names its cap", async () => {
    const { db, asked } = storedDb({ calls: () => 4 });
    expect(keyCounterId('acc', 'key', 50)).toBe('acc:key:50');
    expect(await storedKeyCalls(db, keyCounterId('acc', 'key', 50), '2026-11')).toBe(4);
    expect(asked[0]!.params).toContain('acc');
    expect(asked[0]!.params).toContain('key');
    expect(asked[0]!.params).not.toContain('50');
  });

  it('the rate limiter allows `limit` calls a clock minute and answers the seconds left after', () => {
    let now = Date.UTC(2026, 10, 15, 12, 0, 15);
    const limiter = createMemoryRateLimiter(() => now);
    expect(limiter.hit('k', 2)).toBe(0);
    expect(limiter.hit('k', 2)).toBe(0);
    expect(limiter.hit('k', 2)).toBe(45);
    expect(limiter.hit('other', 2)).toBe(0);
    now += 44_500;
    expect(limiter.hit('k', 2)).toBe(0.5);
    now += 500;
    expect(limiter.hit('k', 2)).toBe(0);
  });
});

describe("one instance's call counters", () => {
  const plan = (over: Partial<TPlanLimits> = {}): TPlanLimits => ({
    planId: 'p',
    quotaCallsMonth: 3,
    rateLimitPerMinute: 100,
    tokensPerMinute: null,
    hasCard: false,
    spendLimitMinor: null,
    spendLimitSetAt: null,
    ...over,
  });

  it("admit under the plan's quota and the key's cap, counting both, and refuse at either", async () => {
    // The account has 1 stored call, key k1 none.
    const { db } = storedDb({ calls: (params) => (params.includes('k1') ? 0 : 1) });
    const counters = new LocalCallCounters(
      db,
      async () => {},
      () => NOV,
    );
    const k1 = { keyId: 'k1', accountId: 'acc', monthlyCalls: 1 };
    const k2 = { keyId: 'k2', accountId: 'acc', monthlyCalls: null };
    const first = counters.admit(k1, plan());
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe(0);
    expect(counters.admit(k1, plan())).toBe(KEY_QUOTA_EXCEEDED);
    expect(counters.calls('acc')).toBe(2);
    expect(counters.admit(k2, plan())).toBe(0);
    expect(counters.admit(k2, plan())).toBe(QUOTA_EXCEEDED);
    expect(counters.admit(k1, plan())).toBe(QUOTA_EXCEEDED);
    expect(counters.calls('acc')).toBe(3);
    expect(counters.admit(k2, plan({ quotaCallsMonth: 4 }))).toBe(0);
    // A new cap on the key counts afresh from its stored calls (none).
    const recapped = counters.admit({ ...k1, monthlyCalls: 2 }, plan({ quotaCallsMonth: 10 }));
    expect(recapped).toBeInstanceOf(Promise);
    expect(await recapped).toBe(0);
    expect(counters.admit({ ...k1, monthlyCalls: 2 }, plan({ quotaCallsMonth: 10 }))).toBe(0);
    expect(counters.admit({ ...k1, monthlyCalls: 2 }, plan({ quotaCallsMonth: 10 }))).toBe(
      KEY_QUOTA_EXCEEDED,
    );
    expect(counters.redisUp()).toBeNull();
    // Forgotten: seeded again from the stored calls.
    counters.reset();
    expect(await counters.calls('acc')).toBe(1);
    await counters.close();
  });

  it("seed an account's count on its first call through a key without a cap, and refuse a capped key already at its cap", async () => {
    const { db } = storedDb({
      calls: (params) => (params.includes('full') ? 1 : params.includes('none') ? 0 : 2),
    });
    const counters = new LocalCallCounters(
      db,
      async () => {},
      () => NOV,
    );
    const open = { keyId: 'none', accountId: 'acc', monthlyCalls: null };
    const first = counters.admit(open, plan());
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe(0);
    expect(counters.admit(open, plan())).toBe(QUOTA_EXCEEDED);
    const other = new LocalCallCounters(
      db,
      async () => {},
      () => NOV,
    );
    expect(await other.calls('acc')).toBe(2);
    // The account is seeded; the key's counter not yet: its stored call already meets its cap.
    expect(
      await other.admit({ keyId: 'full', accountId: 'acc', monthlyCalls: 1 }, plan({ quotaCallsMonth: 9 })),
    ).toBe(KEY_QUOTA_EXCEEDED);
    expect(other.calls('acc')).toBe(2);
  });

  it("count a key's tokens this minute, settle them to the real count, and forget them on a reset", async () => {
    const { db } = storedDb({});
    const clock = { now: NOV };
    const counters = new LocalCallCounters(
      db,
      async () => {},
      () => clock.now,
    );
    const answer = await counters.reserveTokens('acc', 'k', 100, 60);
    expect(answer).toMatchObject({ limit: 100, remaining: 40 });
    expect(counters.tokensNow('k')).toBe(60);
    counters.settleTokens(answer.ticket!, 20);
    expect(counters.tokensNow('k')).toBe(20);
    expect(await counters.reserveTokens('acc', 'k', 100, 81)).toMatchObject({ ticket: null, remaining: 80 });
    counters.reset();
    expect(counters.tokensNow('k')).toBe(0);
    expect(await counters.reserveTokens('acc', 'k', 100, 100)).toMatchObject({ remaining: 0 });
  });

  it('refuse past the rate limit before counting, with the seconds to wait', async () => {
    const { db } = storedDb({});
    const counters = new LocalCallCounters(
      db,
      async () => {},
      () => Date.UTC(2026, 10, 15, 12, 0, 50),
    );
    const key = { keyId: 'k', accountId: 'acc', monthlyCalls: null };
    expect(await counters.admit(key, plan({ rateLimitPerMinute: 1 }))).toBe(0);
    expect(counters.admit(key, plan({ rateLimitPerMinute: 1 }))).toBe(10);
    expect(counters.calls('acc')).toBe(1);
    expect(counters.hitRate('k2', 1)).toBe(0);
    expect(counters.hitRate('k2', 1)).toBe(10);
  });

  it('reserve and settle spend in nanos rounded up from picos, answering the charge in picos', async () => {
    const { db } = storedDb({});
    const counters = new LocalCallCounters(
      db,
      async () => {},
      () => NOV,
    );
    const limits = accountLimit(1);
    const ticket = (await counters.reserveSpend(limits, 1001)) as TSpendTicket;
    expect(ticket.reservedNanos).toBe(2);
    expect(counters.settleSpend(ticket, 1500)).toBe(1500);
    const full = (await counters.reserveSpend(limits, (LIMIT - 2) * 1000)) as TSpendTicket;
    // Past what is left: capped at the limit, in whole nanos.
    expect(counters.settleSpend(full, LIMIT * 1000)).toBe((LIMIT - 2) * 1000);
    expect(counters.reserveSpend(limits, 1)).toEqual({ refused: 'account' });
    counters.reset();
    expect(await counters.reserveSpend(limits, 1)).toMatchObject({ reservedNanos: 1 });
  });
});
