import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TDb } from '../db/client';
import { MonthSeeds } from './month-seeds';
import {
  LOSS_MEMORY_MS,
  SEED_CORRECTION_DELAYS_MS,
  SeedCorrections,
  type TSeedCorrection,
} from './seed-corrections';

// The corrections of a re-seeded counter (decision 049) driven on the test's own clock: when each
// pass runs, what it adds, when it stops, and what a failure does. gateway-reseed.test.ts checks
// the same code end to end against Redis and the database.

const DELAYS = [100, 1_000, 5_000];

/** A correction whose stored figure the test sets, recording what was added. */
function correction(lackingValues: number[], kept: boolean[] = []) {
  const added: number[] = [];
  let reads = 0;
  const entry: TSeedCorrection & { added: number[]; reads: () => number } = {
    added,
    reads: () => reads,
    async lacking() {
      const value = lackingValues[Math.min(reads, lackingValues.length - 1)]!;
      reads++;
      return value;
    },
    async add(delta) {
      added.push(delta);
      return kept[added.length - 1] ?? true;
    },
  };
  return entry;
}

describe('SeedCorrections', () => {
  let flushes: number;
  let warnings: string[];
  let corrections: SeedCorrections;

  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 11, 3, 12) });
    flushes = 0;
    warnings = [];
    corrections = new SeedCorrections(
      async () => {
        flushes++;
      },
      (_error, message) => warnings.push(message),
      DELAYS,
      () => Date.now(),
    );
  });
  afterEach(() => {
    corrections.close();
    vi.useRealTimers();
  });

  it('runs a pass at each delay after the seed, adding only what the stored figure grew by', async () => {
    const entry = correction([4, 4, 9]);
    corrections.add(entry);
    await vi.advanceTimersByTimeAsync(99);
    expect(entry.reads()).toBe(0);
    expect(flushes).toBe(0);

    await vi.advanceTimersByTimeAsync(1);
    expect(entry.reads()).toBe(1);
    expect(flushes).toBe(1); // the meters are written before the stored figure is read
    expect(entry.added).toEqual([4]);

    await vi.advanceTimersByTimeAsync(899);
    expect(entry.reads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(entry.reads()).toBe(2);
    expect(entry.added).toEqual([4]); // unchanged: nothing to add

    await vi.advanceTimersByTimeAsync(4_000);
    expect(entry.reads()).toBe(3);
    expect(entry.added).toEqual([4, 5]);
    expect(corrections.size()).toBe(0); // every pass ran

    await vi.advanceTimersByTimeAsync(60_000);
    expect(entry.reads()).toBe(3);
    expect(flushes).toBe(3);
  });

  it('never adds a negative amount when the stored figure reads lower than before', async () => {
    const entry = correction([6, 2, 6]);
    corrections.add(entry);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(entry.reads()).toBe(3);
    expect(entry.added).toEqual([6]);
  });

  it('adds nothing when nothing is lacking', async () => {
    const entry = correction([0]);
    corrections.add(entry);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(entry.reads()).toBe(3);
    expect(entry.added).toEqual([]);
  });

  it('stops correcting a counter that is no longer the seed’s', async () => {
    const entry = correction([3, 7, 9], [false]);
    corrections.add(entry);
    await vi.advanceTimersByTimeAsync(100);
    expect(entry.added).toEqual([3]);
    expect(corrections.size()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(entry.reads()).toBe(1);
  });

  it('keeps each correction on its own clock, and runs the ones due together after one flush', async () => {
    const first = correction([1]);
    const second = correction([2]);
    corrections.add(first);
    await vi.advanceTimersByTimeAsync(50);
    corrections.add(second);
    expect(corrections.size()).toBe(2);
    await vi.advanceTimersByTimeAsync(50);
    expect([first.reads(), second.reads()]).toEqual([1, 0]);
    await vi.advanceTimersByTimeAsync(50);
    expect([first.reads(), second.reads()]).toEqual([1, 1]);
    expect(flushes).toBe(2);
    // Each pass is timed from its own seed: at 1,000 ms the first one's second pass, at 1,050 ms
    // the second one's.
    await vi.advanceTimersByTimeAsync(849);
    expect([first.reads(), second.reads()]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(1);
    expect([first.reads(), second.reads()]).toEqual([2, 1]);
    await vi.advanceTimersByTimeAsync(50);
    expect([first.reads(), second.reads()]).toEqual([2, 2]);
    expect([first.added, second.added]).toEqual([[1], [2]]);
  });

  it('tries a correction whose read failed again at its next pass, and warns', async () => {
    let calls = 0;
    const added: number[] = [];
    corrections.add({
      async lacking() {
        calls++;
        if (calls === 1) throw new Error('database unreachable');
        return 5;
      },
      async add(delta) {
        added.push(delta);
        return true;
      },
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(1);
    expect(warnings).toEqual(['gateway: a re-seeded counter not corrected yet']);
    expect(added).toEqual([]);
    await vi.advanceTimersByTimeAsync(900);
    expect(calls).toBe(2);
    expect(added).toEqual([5]);
  });

  it('waits for the next pass when the meters cannot be written, instead of trying again at once', async () => {
    let failFlush = true;
    const failing = new SeedCorrections(
      async () => {
        flushes++;
        if (failFlush) throw new Error('database unreachable');
      },
      (_error, message) => warnings.push(message),
      DELAYS,
      () => Date.now(),
    );
    const entry = correction([3]);
    failing.add(entry);
    await vi.advanceTimersByTimeAsync(100);
    expect(flushes).toBe(1);
    expect(warnings).toEqual(['gateway: re-seeded counters not corrected yet']);
    await vi.advanceTimersByTimeAsync(899);
    expect(flushes).toBe(1); // no loop while the database is down
    failFlush = false;
    await vi.advanceTimersByTimeAsync(1);
    expect(flushes).toBe(2);
    expect(entry.added).toEqual([3]);
    expect(failing.size()).toBe(1);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(failing.size()).toBe(0);
    failing.close();
  });

  it('starts with nothing pending and no timer; one timer, not kept referenced, however many wait', () => {
    expect(corrections.size()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    corrections.add(correction([1]));
    corrections.add(correction([2]));
    expect(corrections.size()).toBe(2);
    expect(vi.getTimerCount()).toBe(1);
    // An idle instance's process may end while corrections wait.
    const timer: unknown = Reflect.get(corrections, 'timer');
    expect(timer).toHaveProperty('hasRef');
    expect((timer as NodeJS.Timeout).hasRef()).toBe(false);
  });

  it('close drops what is pending and runs nothing more', async () => {
    const entry = correction([2]);
    corrections.add(entry);
    corrections.close();
    expect(corrections.size()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(entry.reads()).toBe(0);
    expect(flushes).toBe(0);
  });

  it('a correction added while a pass runs is scheduled after it', async () => {
    let release!: () => void;
    const slow = new SeedCorrections(
      () =>
        new Promise<void>((resolve) => {
          flushes++;
          release = resolve;
        }),
      (_error, message) => warnings.push(message),
      DELAYS,
      () => Date.now(),
    );
    const first = correction([1]);
    const second = correction([2]);
    slow.add(first);
    await vi.advanceTimersByTimeAsync(100);
    expect(flushes).toBe(1);
    slow.add(second); // while the first pass waits on its flush
    expect(vi.getTimerCount()).toBe(0); // scheduled when the pass ends, never beside it
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(first.added).toEqual([1]);
    expect(second.reads()).toBe(0);
    await vi.advanceTimersByTimeAsync(99);
    expect(second.reads()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.added).toEqual([2]);
    slow.close();
  });

  it('by default corrects at 3, 15, 60 and 300 s, within the time a loss is remembered', () => {
    expect(SEED_CORRECTION_DELAYS_MS).toEqual([3_000, 15_000, 60_000, 300_000]);
    expect(LOSS_MEMORY_MS).toBeGreaterThan(SEED_CORRECTION_DELAYS_MS.at(-1)!);
  });
});

describe('MonthSeeds.lossBefore', () => {
  const NOW = Date.UTC(2026, 11, 3, 12);
  let now = NOW;
  // Never connected: lossBefore reads no counter.
  const redis = new Redis({ lazyConnect: true });
  const seeds = () =>
    new MonthSeeds(
      redis,
      {} as TDb,
      async () => undefined,
      new SeedCorrections(
        async () => undefined,
        () => undefined,
      ),
      () => now,
    );

  beforeEach(() => {
    now = NOW;
  });

  it('is null with no loss known', () => {
    expect(seeds().lossBefore(null)).toBeNull();
  });

  it('is a marker’s instant while it is recent, and null once it is not', () => {
    const month = seeds();
    expect(month.lossBefore(String(NOW - 1_000))).toBe(NOW - 1_000);
    expect(month.lossBefore(String(NOW - LOSS_MEMORY_MS + 1))).toBe(NOW - LOSS_MEMORY_MS + 1);
    expect(month.lossBefore(String(NOW - LOSS_MEMORY_MS))).toBeNull();
  });

  it('ignores a marker that is not an instant', () => {
    now = 1_000; // an instant of 0 would be recent: it must still read as no marker
    expect(seeds().lossBefore('0')).toBeNull();
    expect(seeds().lossBefore('garbage')).toBeNull();
  });

  it('is the instant this instance lost Redis while recent, the later of it and a marker', () => {
    const month = seeds();
    month.lost(); // at NOW
    expect(month.lossBefore(null)).toBe(NOW);
    expect(month.lossBefore(String(NOW - 5_000))).toBe(NOW);
    now = NOW + 2_000;
    expect(month.lossBefore(String(NOW + 1_000))).toBe(NOW + 1_000);
    now = NOW + LOSS_MEMORY_MS;
    expect(month.lossBefore(null)).toBeNull();
    expect(month.lossBefore(String(NOW + 1_000))).toBe(NOW + 1_000);
  });
});
