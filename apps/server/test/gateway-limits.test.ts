import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { QUOTA_EXCEEDED, RedisCallCounters } from '../src/gateway/counters';
import type { TDb } from '../src/db/client';
import { createMemoryRateLimiter, periodOf } from '../src/gateway/limits';
import { LoadingCache } from '../src/gateway/loading-cache';
import { isPrivateAddress } from '../src/lib/upstream-address';
import { guardedLookup } from '../src/gateway/upstream';

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
    const log = pino({ level: 'silent' });
    const make = () =>
      new RedisCallCounters(
        url,
        {} as TDb,
        log,
        async () => {},
        () => {},
        () => time,
      );
    const one = make();
    const two = make();
    try {
      await expect.poll(() => one.redisUp() && two.redisUp()).toBe(true);
      const limits = { planId: 'x', quotaCallsMonth: 5, rateLimitPerMinute: 8 };
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).admit(`${id}-key`, `${id}-account`, limits)),
      );
      // 8 pass the rate limit, of which 5 fit the quota; the other 12 wait for the next minute.
      expect(results.filter((result) => result === 0)).toHaveLength(5);
      expect(results.filter((result) => result === QUOTA_EXCEEDED)).toHaveLength(3);
      expect(results.filter((result) => result === 30)).toHaveLength(12);
      expect(await one.calls(`${id}-account`)).toBe(5);
    } finally {
      await admin.del(`air:q:${id}-account:2026-01`, `air:rl:${id}-key:${Math.floor(time / 60_000)}`);
      admin.disconnect();
      await one.close();
      await two.close();
    }
  });

  it('names the quota period by calendar month (UTC)', () => {
    expect(periodOf(Date.UTC(2026, 10, 30, 23, 59))).toBe('2026-11');
    expect(periodOf(Date.UTC(2026, 11, 1, 0, 0))).toBe('2026-12');
  });
});

describe('loading cache', () => {
  it('loads once, keeps misses bounded, and never keeps a load that raced an invalidation', async () => {
    let loads = 0;
    let release: () => void = () => {};
    const cache = new LoadingCache<string>(
      async (key) => {
        loads++;
        if (key === 'slow') await new Promise<void>((resolve) => (release = resolve));
        return key.startsWith('none') ? null : `value:${key}`;
      },
      { maxEntries: 10, maxMisses: 2 },
    );
    expect(await cache.get('a')).toBe('value:a');
    expect(cache.get('a')).toBe('value:a');
    expect(loads).toBe(1);
    await cache.get('none1');
    await cache.get('none2');
    await cache.get('none3');
    expect(cache.peek('none1')).toBeUndefined();
    expect(cache.peek('none3')).toBeNull();

    const pending = cache.load('slow');
    cache.invalidate('slow');
    release();
    expect(await pending).toBe('value:slow');
    expect(cache.peek('slow')).toBeUndefined();
  });

  it('expires every entry, hit or miss, after its time to live', async () => {
    let now = 1_000;
    let loads = 0;
    const cache = new LoadingCache<string>(
      async (key) => {
        loads++;
        return key === 'none' ? null : `value:${key}:${loads}`;
      },
      { maxEntries: 10, maxMisses: 10, ttlMs: 60_000 },
      () => now,
    );
    expect(await cache.get('a')).toBe('value:a:1');
    expect(await cache.get('none')).toBeNull();
    now += 59_999;
    expect(cache.peek('a')).toBe('value:a:1');
    expect(cache.peek('none')).toBeNull();
    now += 1;
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('none')).toBeUndefined();
    expect(await cache.get('a')).toBe('value:a:3');
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
