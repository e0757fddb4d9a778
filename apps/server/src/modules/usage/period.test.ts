import { describe, expect, it } from 'vitest';
import { MAX_USAGE_DAYS } from '@air/shared/schemas/usage-insight';
import { daysBetween, percentileFromBuckets, projectedQuotaDay } from './period';

describe('percentileFromBuckets', () => {
  it('is null without calls', () => {
    expect(percentileFromBuckets(new Map(), 0.5)).toBeNull();
  });

  it('interpolates linearly inside the bucket that holds the rank', () => {
    // Bucket 3 is [5, 10) ms: the median of calls spread over it is half-way.
    expect(percentileFromBuckets(new Map([[3, 100]]), 0.5)).toBe(7.5);
    // Half the calls in [1, 2) ms, half in [10, 20) ms.
    const split = new Map([
      [1, 50],
      [4, 50],
    ]);
    expect(percentileFromBuckets(split, 0.5)).toBe(2);
    expect(percentileFromBuckets(split, 0.95)).toBe(19);
  });

  it('answers the lower bound of the open last bucket (100 s and more)', () => {
    expect(percentileFromBuckets(new Map([[16, 3]]), 0.95)).toBe(100_000);
  });
});

describe('projectedQuotaDay', () => {
  const tenDaysIn = Date.UTC(2026, 10, 11);

  it('projects the pace so far: half the quota in 10 days reaches it 10 days later', () => {
    expect(projectedQuotaDay(500, 1000, tenDaysIn)).toBe('2026-11-21');
  });

  it('is today once the quota is reached, and null with no calls or a pace that ends after the month', () => {
    expect(projectedQuotaDay(1000, 1000, tenDaysIn)).toBe('2026-11-11');
    expect(projectedQuotaDay(0, 1000, tenDaysIn)).toBeNull();
    expect(projectedQuotaDay(100, 1000, tenDaysIn)).toBeNull();
  });
});

describe('daysBetween', () => {
  it('lists the days inclusive, and nothing for a reversed or unreadable range', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(daysBetween('2024-03-01', '2024-02-28')).toEqual([]);
    expect(daysBetween('nonsense', '2024-02-28')).toEqual([]);
  });

  it('ends at the cap whatever it is handed (the day after 9999-12-31 sorts before it as text)', () => {
    expect(daysBetween('9999-12-31', '9999-12-31')).toEqual(['9999-12-31']);
    expect(daysBetween('0001-01-01', '9999-12-31')).toHaveLength(MAX_USAGE_DAYS);
  });
});
