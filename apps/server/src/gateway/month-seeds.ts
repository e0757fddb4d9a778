import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { TDb } from '../db/client';
import { storedCalls, storedCallsCountedBefore } from '../modules/usage/service';
import { LOSS_MEMORY_MS, type SeedCorrections } from './seed-corrections';
import { CORRECT_CALLS_SCRIPT, lostKeyOf, SEED_CALLS_SCRIPT, seedTokenKeyOf } from './seed-scripts';

/** A month's counter outlives its month by a few days, then Redis drops it. */
export const QUOTA_KEY_TTL_MS = 35 * 86_400_000;

type TSeedRedis = Redis & {
  airSeedCalls(
    key: string,
    tokenKey: string,
    calls: number,
    token: string,
    ttl: number,
    tokenTtl: number,
  ): Promise<number>;
  airCorrectCalls(key: string, tokenKey: string, token: string, calls: number): Promise<number>;
};

/**
 * The months of calls in Redis (an account's, a capped key's), seeded from usage_events when
 * missing (redis-counters.ts), and what this instance knows of when Redis last lost them.
 */
export class MonthSeeds {
  private readonly redis: TSeedRedis;
  private readonly seeding = new Map<string, Promise<void>>();
  /** When this instance's connection to Redis last closed while in use: Redis may have lost its data. */
  private lostAt: number | null = null;

  constructor(
    redis: Redis,
    private readonly db: TDb,
    private readonly beforeSeed: () => Promise<void>,
    private readonly corrections: SeedCorrections,
    private readonly now: () => number,
  ) {
    this.redis = redis as TSeedRedis;
    this.redis.defineCommand('airSeedCalls', { numberOfKeys: 2, lua: SEED_CALLS_SCRIPT });
    this.redis.defineCommand('airCorrectCalls', { numberOfKeys: 2, lua: CORRECT_CALLS_SCRIPT });
  }

  /** The connection to Redis closed while in use. */
  lost(): void {
    this.lostAt = this.now();
  }

  /**
   * The instant a counter was lost, if recent enough to correct its seed for: when it was dropped
   * on purpose (`marked`, its marker's value), or when this instance last lost Redis (a restart
   * loses every counter), whichever came later.
   */
  lossBefore(marked: string | null): number | null {
    const recent = (at: number | null) => (at !== null && this.now() - at < LOSS_MEMORY_MS ? at : null);
    const dropped = recent(marked === null ? null : Number(marked) || null);
    const restarted = recent(this.lostAt);
    if (dropped === null) return restarted;
    return restarted === null ? dropped : Math.max(dropped, restarted);
  }

  /**
   * Sets a month's counter `key` to the stored count (after this instance's pending usage is
   * written), with SET NX so only the first instance's seed counts; concurrent seeds of one key
   * share one run. A counter lost under load (lossBefore) is corrected afterwards for the calls
   * counted before the loss whose rows were not stored yet (seed-corrections.ts).
   */
  seed(key: string, accountId: string, keyId: string | undefined, period: string): Promise<void> {
    let pending = this.seeding.get(key);
    if (!pending) {
      pending = this.seedNow(key, accountId, keyId, period).finally(() => this.seeding.delete(key));
      this.seeding.set(key, pending);
    }
    return pending;
  }

  private async seedNow(key: string, accountId: string, keyId: string | undefined, period: string) {
    const lostAt = this.lossBefore(await this.redis.get(lostKeyOf(key)));
    await this.beforeSeed();
    if (lostAt === null) {
      const value = await storedCalls(this.db, accountId, period, keyId);
      await this.redis.set(key, value, 'PX', QUOTA_KEY_TTL_MS, 'NX');
      return;
    }
    const before = new Date(lostAt);
    const stored = await storedCallsCountedBefore(this.db, accountId, period, keyId, before);
    const token = randomUUID();
    const tokenKey = seedTokenKeyOf(key);
    const seeded = await this.redis.airSeedCalls(
      key,
      tokenKey,
      stored.calls,
      token,
      QUOTA_KEY_TTL_MS,
      LOSS_MEMORY_MS,
    );
    if (seeded !== 1) return;
    this.corrections.add({
      lacking: async () =>
        (await storedCallsCountedBefore(this.db, accountId, period, keyId, before)).startedBefore -
        stored.startedBefore,
      add: async (calls) => (await this.redis.airCorrectCalls(key, tokenKey, token, calls)) === 1,
    });
  }
}
