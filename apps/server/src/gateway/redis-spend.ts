import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { TDb } from '../db/client';
import {
  RESERVE_SCRIPT,
  SEED_SPEND_SCRIPT,
  SETTLE_SCRIPT,
  limitMicrosOf,
  spendKeyName,
  storedSpendOf,
  type TSpendTicket,
} from './spend';

type TSpendRedis = Redis & {
  airReserve(spendKey: string, limitMicros: number, reservedMicros: number, setAt: number): Promise<number>;
  airSeedSpend(
    spendKey: string,
    stored: number,
    settledMark: string,
    setAt: number,
    ttl: number,
  ): Promise<number>;
  airSettle(
    spendKey: string,
    limitMicros: number,
    reservedMicros: number,
    costMicros: number,
  ): Promise<number>;
};

/** What the spend counters need of the Redis counters they are part of (redis-counters.ts). */
export interface TSpendContext {
  redis: Redis;
  db: TDb;
  log: FastifyBaseLogger;
  beforeSeed: () => Promise<void>;
  period: () => string;
  /** Redis is in use right now. */
  up: () => boolean;
  /** A command failed: Redis is checked, and the counters fall back to local ones if it is gone. */
  failed: (error: unknown, message: string) => void;
  /** Reserves on this instance's counters (Redis down), to be re-seeded when it is back. */
  reserveLocally: (
    accountId: string,
    limitSetAt: number,
    limitMinor: number,
    reservedMicros: number,
  ) => TSpendTicket | null | Promise<TSpendTicket | null>;
  settleLocally: (ticket: TSpendTicket, costMicros: number) => number;
  /** A month's counter outlives its month by a few days, then Redis drops it. */
  ttlMs: number;
}

/** The spend limit's counters in Redis, shared by every instance (spend.ts has the scripts). */
export class RedisSpend {
  private readonly redis: TSpendRedis;
  private readonly seeding = new Map<string, Promise<void>>();

  constructor(private readonly ctx: TSpendContext) {
    this.redis = ctx.redis as TSpendRedis;
    this.redis.defineCommand('airReserve', { numberOfKeys: 1, lua: RESERVE_SCRIPT });
    this.redis.defineCommand('airSeedSpend', { numberOfKeys: 1, lua: SEED_SPEND_SCRIPT });
    this.redis.defineCommand('airSettle', { numberOfKeys: 1, lua: SETTLE_SCRIPT });
  }

  reserve(
    accountId: string,
    limitSetAt: number,
    limitMinor: number,
    reservedMicros: number,
  ): TSpendTicket | null | Promise<TSpendTicket | null> {
    const ctx = this.ctx;
    if (!ctx.up()) return ctx.reserveLocally(accountId, limitSetAt, limitMinor, reservedMicros);
    const limitMicros = limitMicrosOf(limitMinor);
    const period = ctx.period();
    const spendKey = spendKeyName(accountId, period);
    return this.redis.airReserve(spendKey, limitMicros, reservedMicros, limitSetAt).then(
      (result): TSpendTicket | null | Promise<TSpendTicket | null> => {
        if (result === -2) return null;
        if (result === -1)
          return this.seed(accountId, limitSetAt, period).then(() =>
            this.reserve(accountId, limitSetAt, limitMinor, reservedMicros),
          );
        return { accountId, period, limitMicros, reservedMicros, shared: true };
      },
      (error: unknown) => {
        ctx.failed(error, 'gateway: Redis counters unavailable, counting spend locally');
        return ctx.reserveLocally(accountId, limitSetAt, limitMinor, reservedMicros);
      },
    );
  }

  settle(ticket: TSpendTicket, costMicros: number): number | Promise<number> {
    if (!ticket.shared) return this.ctx.settleLocally(ticket, costMicros);
    const key = spendKeyName(ticket.accountId, ticket.period);
    return this.redis
      .airSettle(key, ticket.limitMicros, ticket.reservedMicros, costMicros)
      .then(Number, (error: unknown) => {
        // The call went; unsure of the count, it is charged no more than it reserved.
        this.ctx.log.warn({ err: error }, 'gateway: Redis unavailable to settle a spend reservation');
        return Math.min(costMicros, ticket.reservedMicros);
      });
  }

  /**
   * An account's counter for this limit, seeded from usage_events (spend.ts): the charges settled
   * so far are marked before this instance's pending rows are written, so the seed counts those
   * settled meanwhile and the reservations still held. Once per limit, on any instance.
   */
  private seed(accountId: string, limitSetAt: number, period: string): Promise<void> {
    const key = spendKeyName(accountId, period);
    const name = `${key}:${limitSetAt}`;
    let pending = this.seeding.get(name);
    if (!pending) {
      const ctx = this.ctx;
      pending = (async () => {
        const mark = (await this.redis.hget(key, 'c')) ?? '0';
        await ctx.beforeSeed();
        const stored = Math.round(await storedSpendOf(ctx.db, accountId, period));
        await this.redis.airSeedSpend(key, stored, mark, limitSetAt, ctx.ttlMs);
      })().finally(() => this.seeding.delete(name));
      this.seeding.set(name, pending);
    }
    return pending;
  }
}
