import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { TDb } from '../db/client';
import {
  RESERVE_SCRIPT,
  SEED_SPEND_SCRIPT,
  SETTLE_SCRIPT,
  spendKeyName,
  storedSpendOf,
  type TSpendTicket,
} from './spend';
import { chargedPicosOf, limitNanosOf, picosToNanosUp } from '../modules/money/service';

type TSpendRedis = Redis & {
  airReserve(spendKey: string, limitNanos: number, reservedNanos: number, setAt: number): Promise<number>;
  airSeedSpend(
    spendKey: string,
    stored: number,
    settledMark: string,
    setAt: number,
    ttl: number,
  ): Promise<number>;
  airSettle(spendKey: string, limitNanos: number, reservedNanos: number, costNanos: number): Promise<number>;
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
    reservedPicos: number,
  ) => TSpendTicket | null | Promise<TSpendTicket | null>;
  settleLocally: (ticket: TSpendTicket, costPicos: number) => number;
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
    reservedPicos: number,
  ): TSpendTicket | null | Promise<TSpendTicket | null> {
    const ctx = this.ctx;
    if (!ctx.up()) return ctx.reserveLocally(accountId, limitSetAt, limitMinor, reservedPicos);
    // The counter holds nanos (modules/money): the reservation is rounded up into it.
    const limitNanos = limitNanosOf(limitMinor);
    const reservedNanos = picosToNanosUp(reservedPicos);
    const period = ctx.period();
    const spendKey = spendKeyName(accountId, period);
    return this.redis.airReserve(spendKey, limitNanos, reservedNanos, limitSetAt).then(
      (result): TSpendTicket | null | Promise<TSpendTicket | null> => {
        if (result === -2) return null;
        if (result === -1)
          return this.seed(accountId, limitSetAt, period).then(() =>
            this.reserve(accountId, limitSetAt, limitMinor, reservedPicos),
          );
        return { accountId, period, limitNanos, reservedNanos, shared: true };
      },
      (error: unknown) => {
        ctx.failed(error, 'gateway: Redis counters unavailable, counting spend locally');
        return ctx.reserveLocally(accountId, limitSetAt, limitMinor, reservedPicos);
      },
    );
  }

  settle(ticket: TSpendTicket, costPicos: number): number | Promise<number> {
    if (!ticket.shared) return this.ctx.settleLocally(ticket, costPicos);
    const key = spendKeyName(ticket.accountId, ticket.period);
    const costNanos = picosToNanosUp(costPicos);
    return this.redis.airSettle(key, ticket.limitNanos, ticket.reservedNanos, costNanos).then(
      (charged) => chargedPicosOf(costPicos, Number(charged)),
      (error: unknown) => {
        // The call went; unsure of the count, it is charged no more than it reserved.
        this.ctx.log.warn({ err: error }, 'gateway: Redis unavailable to settle a spend reservation');
        return chargedPicosOf(costPicos, Math.min(costNanos, ticket.reservedNanos));
      },
    );
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
        const stored = await storedSpendOf(ctx.db, accountId, period);
        await this.redis.airSeedSpend(key, stored, mark, limitSetAt, ctx.ttlMs);
      })().finally(() => this.seeding.delete(name));
      this.seeding.set(name, pending);
    }
    return pending;
  }
}
