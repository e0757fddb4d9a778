import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createRedisRateLimiter, periodOf } from '../src/gateway/limits';
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

  it('shares counters through Redis when REDIS_URL is set', async () => {
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const now = () => Date.UTC(2026, 0, 1, 10, 0, 30);
    const keyId = `test-${process.pid}-${Date.now()}`;
    const one = createRedisRateLimiter(url, now);
    const two = createRedisRateLimiter(url, now);
    try {
      expect(await one.hit(keyId, 2)).toBe(0);
      expect(await two.hit(keyId, 2)).toBe(0);
      expect(await one.hit(keyId, 2)).toBe(30);
    } finally {
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
