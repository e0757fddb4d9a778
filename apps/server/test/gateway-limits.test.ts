import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { QUOTA_EXCEEDED } from '../src/gateway/counter-types';
import { RedisCallCounters } from '../src/gateway/redis-counters';
import type { TDb } from '../src/db/client';
import { createMemoryRateLimiter, periodOf } from '../src/gateway/limits';
import { LookupCache } from '../src/lib/lookup-cache';
import { isPrivateAddress } from '../src/lib/upstream-address';
import { guardedLookup } from '../src/gateway/upstream';
import { NANOS_PER_MINOR, PICOS_PER_MINOR } from '../src/modules/money/service';
import { isSpendRefusal, type TSpendTicket } from '../src/gateway/spend';

/**
 * Two instances' counters on one Redis at a fixed time, with no database behind them: the test
 * seeds the months it uses.
 */
function twoInstances(url: string, time: number | (() => number)): [RedisCallCounters, RedisCallCounters] {
  const log = pino({ level: 'silent' });
  const now = typeof time === 'number' ? () => time : time;
  const make = () =>
    new RedisCallCounters(
      url,
      {} as TDb,
      log,
      async () => {},
      async () => 0,
      () => {},
      now,
    );
  return [make(), make()];
}

describe('rate limiter', () => {
  it('allows the limit per key per minute, then answers the seconds left in the window', () => {
    let now = Date.UTC(2026, 0, 1, 10, 0, 15);
    const limiter = createMemoryRateLimiter(() => now);
    expect(limiter.hit('k1', 2)).toBe(0);
    expect(limiter.hit('k1', 2)).toBe(0);
    expect(limiter.hit('k1', 2)).toBe(45);
    expect(limiter.hit('k2', 2)).toBe(0);
    now += 45_000;
    expect(limiter.hit('k1', 2)).toBe(0);
  });

  it('counts rate limit and quota atomically in Redis across instances', async () => {
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const time = Date.UTC(2026, 0, 1, 10, 0, 30);
    const id = `test-${process.pid}-${Date.now()}`;
    // The month's counter exists (seeded), so no database is needed here.
    const { Redis } = await import('ioredis');
    const admin = new Redis(url);
    await admin.set(`air:q:${id}-account:2026-01`, 0, 'PX', 60_000);
    const [one, two] = twoInstances(url, time);
    try {
      await expect.poll(() => one.redisUp() && two.redisUp()).toBe(true);
      const limits = {
        planId: 'x',
        quotaCallsMonth: 5,
        rateLimitPerMinute: 8,
        hasCard: false,
        spendLimitMinor: null,
        spendLimitSetAt: null,
        tokensPerMinute: null,
      };
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? one : two).admit(
            { keyId: `${id}-key`, accountId: `${id}-account`, monthlyCalls: null },
            limits,
          ),
        ),
      );
      // 8 pass the rate limit, of which 5 fit the quota; the other 12 wait for the next minute.
      expect(results.filter((result) => result === 0)).toHaveLength(5);
      expect(results.filter((result) => result === QUOTA_EXCEEDED)).toHaveLength(3);
      expect(results.filter((result) => result === 30)).toHaveLength(12);
      expect(await one.calls(`${id}-account`)).toBe(5);
      // A refused call of the key (an unknown route) takes from the same window alone, on any instance.
      const other = `${id}-other`;
      const hits = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).hitRate(other, 4)),
      );
      expect(hits.filter((wait) => wait === 0)).toHaveLength(4);
      expect(hits.filter((wait) => wait === 30)).toHaveLength(2);
      expect(await one.hitRate(`${id}-key`, 8)).toBe(30);
      await admin.del(`air:rl:${other}:${Math.floor(time / 60_000)}`);
    } finally {
      await admin.del(`air:q:${id}-account:2026-01`, `air:rl:${id}-key:${Math.floor(time / 60_000)}`);
      admin.disconnect();
      await one.close();
      await two.close();
    }
  });

  it('leases blocks of calls while every counter has room, never past the quota, and gives back what is left', async () => {
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    let time = Date.UTC(2026, 0, 1, 10, 0, 30);
    const id = `lease-${process.pid}-${Date.now()}`;
    const quotaKey = `air:q:${id}-account:2026-01`;
    const { Redis } = await import('ioredis');
    const admin = new Redis(url);
    // 2,000 calls of quota: blocks of 64 while 1,024 are left, then one call at a time.
    await admin.set(quotaKey, 0, 'PX', 60_000);
    const [one, two] = twoInstances(url, () => time);
    const key = { keyId: `${id}-key`, accountId: `${id}-account`, monthlyCalls: null };
    const limits = {
      planId: 'x',
      quotaCallsMonth: 2000,
      rateLimitPerMinute: 1_000_000,
      hasCard: false,
      spendLimitMinor: null,
      spendLimitSetAt: null,
      tokensPerMinute: null,
    };
    try {
      await expect.poll(() => one.redisUp() && two.redisUp()).toBe(true);
      expect(await one.admit(key, limits)).toBe(0);
      // One call made, a block of 64 counted; the next 63 need no round trip (answered at once).
      expect(Number(await admin.get(quotaKey))).toBe(64);
      expect(await one.calls(key.accountId)).toBe(1);
      for (let i = 0; i < 63; i++) expect(one.admit(key, limits)).toBe(0);
      expect(Number(await admin.get(quotaKey))).toBe(64);

      // Instance one holds a fresh block of 64 (one call made); a burst on instance two takes the
      // rest: never past the quota, and two's own unused blocks serve its calls the script refused.
      expect(await one.admit(key, limits)).toBe(0);
      const results = await Promise.all(Array.from({ length: 2200 }, () => two.admit(key, limits)));
      const admitted = 65 + results.filter((result) => result === 0).length;
      expect(results.filter((result) => result !== 0).every((result) => result === QUOTA_EXCEEDED)).toBe(
        true,
      );
      expect(admitted).toBe(2000 - 63);
      expect(Number(await admin.get(quotaKey))).toBe(2000);

      // 100 ms later one's 63 unused calls go back, and exactly as many more are admitted.
      time += 150;
      await expect.poll(async () => Number(await admin.get(quotaKey)), { timeout: 2000 }).toBe(admitted);
      const more = await Promise.all(
        Array.from({ length: 73 }, (_, i) => (i % 2 ? one : two).admit(key, limits)),
      );
      expect(more.filter((result) => result === 0)).toHaveLength(63);
      expect(Number(await admin.get(quotaKey))).toBe(2000);
    } finally {
      await admin.del(quotaKey, `air:rl:${id}-key:${Math.floor(time / 60_000)}`);
      admin.disconnect();
      await one.close();
      await two.close();
    }
  });

  it('reserves and settles marketplace spend atomically in Redis across instances, never past the limit', async () => {
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const time = Date.UTC(2026, 0, 1, 10, 0, 30);
    const id = `spend-${process.pid}-${Date.now()}`;
    const spendKey = `air:sp3:${id}:2026-01`;
    const limits = { parts: [{ kind: 'account' as const, id, limitMinor: 50, setAt: 5 }] };
    // One minor unit as the counters take it (picos) and hold it (nanos).
    const [PICOS, NANOS] = [PICOS_PER_MINOR, NANOS_PER_MINOR];
    const { Redis } = await import('ioredis');
    const admin = new Redis(url);
    // Seeded for the limit saved at 5: 10 minor units spent already (the counter holds nanos).
    await admin.hset(spendKey, { v: 10 * NANOS, s: '5', c: 0 });
    await admin.pexpire(spendKey, 60_000);
    const [one, two] = twoInstances(url, time);
    try {
      await expect.poll(() => one.redisUp() && two.redisUp()).toBe(true);
      // A 50 limit and 4 per call: 10 calls fit (10 + 40), the other 20 are refused.
      const tickets = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).reserveSpend(limits, 4 * PICOS)),
      );
      const taken = tickets.filter((ticket) => !isSpendRefusal(ticket));
      expect(taken).toHaveLength(10);
      // Each costs 4 plus tokens worth 1.5: the first settled is charged 5.5, and so on until the
      // limit; what is charged adds up to the limit exactly.
      const charged = await Promise.all(
        taken.map((ticket, i) => (i % 2 ? one : two).settleSpend(ticket as TSpendTicket, 5.5 * PICOS)),
      );
      expect(charged.reduce((total, picos) => total + picos, 0)).toBe(40 * PICOS);
      expect(charged.every((picos) => picos >= 4 * PICOS && picos <= 5.5 * PICOS)).toBe(true);
      expect(Number(await admin.hget(spendKey, 'v'))).toBe(50 * NANOS);
      // Nothing is held any more: each instance's hold field is gone with its last settle.
      expect(Object.keys(await admin.hgetall(spendKey)).filter((field) => field.startsWith('h:'))).toEqual(
        [],
      );
      // A refused or failed call gives its reservation back whole.
      await admin.hset(spendKey, 'v', 46 * NANOS);
      const back = await one.reserveSpend(limits, 4 * PICOS);
      expect(isSpendRefusal(back)).toBe(false);
      expect(Number(await admin.hget(spendKey, 'v'))).toBe(50 * NANOS);
      expect(await one.settleSpend(back as TSpendTicket, 0)).toBe(0);
      expect(Number(await admin.hget(spendKey, 'v'))).toBe(46 * NANOS);
      expect(isSpendRefusal(await two.reserveSpend(limits, 4 * PICOS))).toBe(false);
      expect(await two.reserveSpend(limits, 0)).toEqual({ refused: 'account' });
    } finally {
      await admin.del(spendKey);
      admin.disconnect();
      await one.close();
      await two.close();
    }
  });

  it("gives back a killed instance's token and spend holds once it stops beating, and counts a late settle once", async () => {
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const time = Date.UTC(2026, 0, 1, 10, 0, 30);
    const id = `holds-${process.pid}-${Date.now()}`;
    const spendKey = `air:sp3:${id}:2026-01`;
    const tokenKey = `air:tk:${id}-key:${Math.floor(time / 60_000)}`;
    const limits = { parts: [{ kind: 'account' as const, id, limitMinor: 50, setAt: 5 }] };
    const { Redis } = await import('ioredis');
    const admin = new Redis(url);
    await admin.hset(spendKey, { v: 10 * NANOS_PER_MINOR, s: '5', c: 0 });
    await admin.pexpire(spendKey, 60_000);
    const [one, two] = twoInstances(url, time);
    try {
      await expect.poll(() => one.redisUp() && two.redisUp()).toBe(true);
      const tokens = await one.reserveTokens(`${id}-account`, `${id}-key`, 100, 40);
      const spend = await one.reserveSpend(limits, 4 * PICOS_PER_MINOR);
      expect(tokens.ticket).not.toBeNull();
      expect(isSpendRefusal(spend)).toBe(false);
      expect(Number(await admin.hget(tokenKey, 'v'))).toBe(40);
      expect(Number(await admin.hget(spendKey, 'v'))).toBe(14 * NANOS_PER_MINOR);
      // The instance dies with both calls in flight: its beat lapses (here at once).
      await one.close();
      const holder = tokens.ticket!.holder.slice(2);
      await admin.del(`air:alive:${holder}`);
      expect(await two.sweepDeadHolders()).toBeGreaterThanOrEqual(1);
      expect(Number(await admin.hget(tokenKey, 'v'))).toBe(0);
      expect(Number(await admin.hget(spendKey, 'v'))).toBe(10 * NANOS_PER_MINOR);
      expect(await admin.hget(tokenKey, `h:${holder}`)).toBeNull();
      expect(await admin.sismember('air:holders', holder)).toBe(0);
      // A call that outlived its holder settles once: its tokens and its charge are counted, no hold taken back.
      await two.settleTokens(tokens.ticket!, 30);
      expect(Number(await admin.hget(tokenKey, 'v'))).toBe(30);
      expect(await two.settleSpend(spend as TSpendTicket, 3 * PICOS_PER_MINOR)).toBe(3 * PICOS_PER_MINOR);
      expect(Number(await admin.hget(spendKey, 'v'))).toBe(13 * NANOS_PER_MINOR);
    } finally {
      await admin.del(spendKey, tokenKey);
      admin.disconnect();
      await two.close();
    }
  });

  it('names the quota period by calendar month (UTC)', () => {
    expect(periodOf(Date.UTC(2026, 10, 30, 23, 59))).toBe('2026-11');
    expect(periodOf(Date.UTC(2026, 11, 1, 0, 0))).toBe('2026-12');
  });
});

describe('lookup cache (keys, sessions, routes, plan limits)', () => {
  const value = (text: string) => ({ text });

  it('loads once, answers hits synchronously, keeps misses, and never keeps a load that raced an invalidation', async () => {
    let loads = 0;
    let release: () => void = () => {};
    const cache = new LookupCache<{ text: string }>(
      async (key) => {
        loads++;
        if (key === 'slow') await new Promise<void>((resolve) => (release = resolve));
        return key.startsWith('none') ? null : value(`value:${key}`);
      },
      { max: 10 },
    );
    expect(await cache.get('a')).toEqual(value('value:a'));
    expect(cache.get('a')).toEqual(value('value:a'));
    expect(loads).toBe(1);
    expect(await cache.get('none1')).toBeNull();
    expect(cache.peek('none1')).toBeNull();
    expect(cache.peek('unknown')).toBeUndefined();
    expect(loads).toBe(2);

    const pending = cache.load('slow');
    cache.invalidate('slow');
    release();
    expect(await pending).toEqual(value('value:slow'));
    expect(cache.peek('slow')).toBeUndefined();
  });

  it("joins concurrent look-ups of one key into one load, with the first caller's context", async () => {
    const contexts: (string | undefined)[] = [];
    let release: () => void = () => {};
    const cache = new LookupCache<{ text: string }, string>(
      async (key, context) => {
        contexts.push(context);
        await new Promise<void>((resolve) => (release = resolve));
        return value(key);
      },
      { max: 10 },
    );
    const all = Promise.all([
      cache.load('k', '10.0.0.1'),
      cache.load('k', '10.0.0.2'),
      cache.get('k', '10.0.0.3'),
    ]);
    release();
    expect(await all).toEqual([value('k'), value('k'), value('k')]);
    expect(contexts).toEqual(['10.0.0.1']);
  });

  it('a failed load reaches every caller and is not kept', async () => {
    let fail = true;
    const cache = new LookupCache<{ text: string }>(
      async (key) => {
        if (fail) throw new Error('database down');
        return value(key);
      },
      { max: 10 },
    );
    const both = await Promise.allSettled([cache.load('k'), cache.load('k')]);
    expect(both.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(cache.peek('k')).toBeUndefined();
    fail = false;
    expect(await cache.load('k')).toEqual(value('k'));
  });

  it('a bulk invalidation drops matching entries and every load under way', async () => {
    let release: () => void = () => {};
    const cache = new LookupCache<{ text: string; account: string }>(
      async (key) => {
        if (key === 'slow') await new Promise<void>((resolve) => (release = resolve));
        return { text: key, account: key === 'b' ? 'other' : 'closed' };
      },
      { max: 10 },
    );
    await cache.load('a');
    await cache.load('b');
    const pending = cache.load('slow');
    cache.invalidateWhere((entry) => entry.account === 'closed');
    release();
    expect((await pending)?.text).toBe('slow');
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('slow')).toBeUndefined();
    expect(cache.peek('b')?.text).toBe('b');
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('is bounded, least recently used out first', async () => {
    const cache = new LookupCache<{ text: string }>(
      async (key) => (key.startsWith('none') ? null : value(key)),
      {
        max: 2,
      },
    );
    await cache.load('a');
    await cache.load('none1');
    cache.peek('a');
    await cache.load('none2');
    expect(cache.peek('a')).toEqual(value('a'));
    expect(cache.peek('none1')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('expires every entry, hit or miss, after its time to live', async () => {
    let now = 1_000;
    let loads = 0;
    const cache = new LookupCache<{ text: string }>(
      async (key) => {
        loads++;
        return key === 'none' ? null : value(`value:${key}:${loads}`);
      },
      { max: 10, ttlMs: 60_000, now: () => now },
    );
    expect(await cache.get('a')).toEqual(value('value:a:1'));
    expect(await cache.get('none')).toBeNull();
    now += 59_999;
    expect(cache.peek('a')).toEqual(value('value:a:1'));
    expect(cache.peek('none')).toBeNull();
    now += 2;
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('none')).toBeUndefined();
    expect(await cache.get('a')).toEqual(value('value:a:3'));
  });
});

describe('private upstream addresses', () => {
  it('recognises loopback, private, link-local and mapped addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
    // Not an address at all: refused (callers pass DNS answers and literal IPs only).
    expect(isPrivateAddress('example.com')).toBe(true);
  });

  it('refuses a host name that resolves to a private address at connect time', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', {}, (caught) => resolve(caught)),
    );
    expect(error?.code).toBe('EAI_PRIVATE');
  });
});
