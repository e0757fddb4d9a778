import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { TDb } from '../db/client';
import {
  spendKeyName,
  storedSpendBefore,
  storedSpendOf,
  type TSpendAnswer,
  type TSpendLimits,
  type TSpendPart,
  type TSpendTicket,
} from './spend';
import { randomUUID } from 'node:crypto';
import { RESERVE_SCRIPT, SEED_SPEND_SCRIPT, SETTLE_SCRIPT } from './spend-scripts';
import { CORRECT_SPEND_SCRIPT, lostKeyOf } from './seed-scripts';
import type { SeedCorrections } from './seed-corrections';
import { Holders } from './holders';
import { chargedPicosOf, limitNanosOf, picosToNanosUp } from '../modules/money/service';

type TSpendRedis = Redis & {
  airReserve(keys: number, ...args: (string | number)[]): Promise<number>;
  airSeedSpend(
    spendKey: string,
    stored: number,
    settledMark: string,
    setAt: number,
    ttl: number,
    token: string,
  ): Promise<number>;
  airCorrectSpend(spendKey: string, token: string, nanos: number): Promise<number>;
  airSettle(keys: number, ...args: (string | number)[]): Promise<number>;
};

/** What the spend counters need of the Redis counters they are part of (redis-counters.ts). */
export interface TSpendContext {
  redis: Redis;
  db: TDb;
  log: FastifyBaseLogger;
  holders: Holders;
  beforeSeed: () => Promise<void>;
  period: () => string;
  /** Redis is in use right now. */
  up: () => boolean;
  /** A command failed: Redis is checked, and the counters fall back to local ones if it is gone. */
  failed: (error: unknown, message: string) => void;
  /** Reserves on this instance's counters (Redis down), to be re-seeded when it is back. */
  reserveLocally: (limits: TSpendLimits, reservedPicos: number) => TSpendAnswer | Promise<TSpendAnswer>;
  settleLocally: (ticket: TSpendTicket, costPicos: number) => number;
  /** A settle whose outcome is unknown: these counters are re-seeded from the stored usage. */
  unsure: (parts: readonly TSpendPart[]) => void;
  /** A month's counter outlives its month by a few days, then Redis drops it. */
  ttlMs: number;
  /** When the counter named `marked` (its lost marker's value) was last lost, if worth correcting for. */
  lossBefore: (marked: string | null) => number | null;
  corrections: SeedCorrections;
  now: () => number;
}

/** The limits in money in Redis, shared by every instance (spend.ts; spend-scripts.ts has the scripts). */
export class RedisSpend {
  private readonly redis: TSpendRedis;
  private readonly seeding = new Map<string, Promise<void>>();

  constructor(private readonly ctx: TSpendContext) {
    this.redis = ctx.redis as TSpendRedis;
    this.redis.defineCommand('airReserve', { lua: RESERVE_SCRIPT });
    this.redis.defineCommand('airSeedSpend', { numberOfKeys: 1, lua: SEED_SPEND_SCRIPT });
    this.redis.defineCommand('airSettle', { lua: SETTLE_SCRIPT });
    this.redis.defineCommand('airCorrectSpend', { numberOfKeys: 1, lua: CORRECT_SPEND_SCRIPT });
  }

  reserve(limits: TSpendLimits, reservedPicos: number): TSpendAnswer | Promise<TSpendAnswer> {
    const ctx = this.ctx;
    if (!ctx.up()) return ctx.reserveLocally(limits, reservedPicos);
    // The counters hold nanos (modules/money): the reservation is rounded up into them.
    const reservedNanos = picosToNanosUp(reservedPicos);
    const period = ctx.period();
    const { parts } = limits;
    const holder = ctx.holders.field();
    const args: (string | number)[] = parts.map((part) => spendKeyName(part, period));
    args.push(ctx.holders.setKey(), reservedNanos, holder);
    for (const part of parts) args.push(limitNanosOf(part.limitMinor), part.setAt);
    return this.redis.airReserve(parts.length + 1, ...args).then(
      (result): TSpendAnswer | Promise<TSpendAnswer> => {
        if (result <= -10) return { refused: parts[-result - 11]!.kind };
        if (result < 0)
          return this.seed(parts[-result - 1]!, period).then(
            () => this.reserve(limits, reservedPicos),
            // Redis went while the counter was seeded: this call is counted locally, not failed.
            (error: unknown) => {
              ctx.failed(error, 'gateway: Redis counters unavailable, counting spend locally');
              return ctx.reserveLocally(limits, reservedPicos);
            },
          );
        return { period, parts, reservedNanos, shared: true, holder };
      },
      (error: unknown) => {
        ctx.failed(error, 'gateway: Redis counters unavailable, counting spend locally');
        return ctx.reserveLocally(limits, reservedPicos);
      },
    );
  }

  settle(ticket: TSpendTicket, costPicos: number): number | Promise<number> {
    if (!ticket.shared) return this.ctx.settleLocally(ticket, costPicos);
    const costNanos = picosToNanosUp(costPicos);
    const args: (string | number)[] = ticket.parts.map((part) => spendKeyName(part, ticket.period));
    args.push(Holders.setKeyOf(ticket.holder), ticket.reservedNanos, ticket.holder, costNanos);
    for (const part of ticket.parts) args.push(limitNanosOf(part.limitMinor));
    return this.redis.airSettle(ticket.parts.length + 1, ...args).then(
      (charged) => chargedPicosOf(costPicos, Number(charged)),
      (error: unknown) => {
        // The call went; unsure of the count, it is charged no more than it reserved, and its
        // counters are seeded again from the stored usage once Redis answers.
        this.ctx.log.warn({ err: error }, 'gateway: Redis unavailable to settle a spend reservation');
        this.ctx.unsure(ticket.parts);
        return chargedPicosOf(costPicos, Math.min(costNanos, ticket.reservedNanos));
      },
    );
  }

  /**
   * A counter for its limit, seeded from usage_events (spend.ts): the charges settled so far are
   * marked before this instance's pending rows are written, so the seed counts those settled
   * meanwhile and the reservations still held. Once per limit, on any instance.
   */
  private seed(part: TSpendPart, period: string): Promise<void> {
    const key = spendKeyName(part, period);
    const name = `${key}:${part.setAt}`;
    let pending = this.seeding.get(name);
    if (!pending) {
      const ctx = this.ctx;
      pending = (async () => {
        const [mark, marked] = await Promise.all([this.redis.hget(key, 'c'), this.redis.get(lostKeyOf(key))]);
        // A counter seeded again for a new limit (it exists: `c` is set) counts the charges settled
        // meanwhile from its mark; only one lost, with nothing counted since, is corrected.
        const lostAt = mark === null ? ctx.lossBefore(marked) : null;
        await ctx.beforeSeed();
        if (lostAt === null) {
          const stored = await storedSpendOf(ctx.db, part, period);
          await this.redis.airSeedSpend(key, stored, mark ?? '0', part.setAt, ctx.ttlMs, '');
          return;
        }
        // Lost: charges settled since the loss found no counter to count on, and rows of charges
        // settled before this instant may still be in other instances' meters (seed-corrections.ts).
        const before = new Date(ctx.now());
        const stored = await storedSpendBefore(ctx.db, part, period, before);
        const token = randomUUID();
        const seededNanos = picosToNanosUp(stored.picos);
        const seeded = await this.redis.airSeedSpend(
          key,
          seededNanos,
          mark ?? '0',
          part.setAt,
          ctx.ttlMs,
          token,
        );
        if (seeded !== 1) return;
        ctx.corrections.add({
          lacking: async () => {
            const now = await storedSpendBefore(ctx.db, part, period, before);
            return picosToNanosUp(stored.picos + now.before - stored.before) - seededNanos;
          },
          add: async (nanos) => (await this.redis.airCorrectSpend(key, token, nanos)) === 1,
        });
      })().finally(() => this.seeding.delete(name));
      this.seeding.set(name, pending);
    }
    return pending;
  }
}
