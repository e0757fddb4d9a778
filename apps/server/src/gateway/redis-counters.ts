import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { TDb } from '../db/client';
import type { TPlanLimits } from './directory';
import { KEY_QUOTA_EXCEEDED, QUOTA_EXCEEDED, type TAdmitKey, type TCallCounters } from './counter-types';
import { AdmitLeases, LEASE_CALLS, LEASE_ROOM, type TLease } from './admit-leases';
import { LocalCallCounters } from './local-counters';
import { keyCounterId, MonthlyCalls } from './limits';
import {
  spendKeyName,
  type TSpendAnswer,
  type TSpendLimits,
  type TSpendPart,
  type TSpendTicket,
} from './spend';
import { RedisSpend } from './redis-spend';
import { Holders } from './holders';
import { RedisTokens, tokenKeyName } from './redis-tokens';
import { minuteOf, type TStoredTokens, type TTokenAnswer, type TTokenTicket } from './token-limit';

import { ADMIT_SCRIPT, GIVE_BACK_SCRIPT, RATE_SCRIPT } from './admit-scripts';
import { LOSS_MEMORY_MS, SEED_CORRECTION_DELAYS_MS, SeedCorrections } from './seed-corrections';
import { lostKeyOf, seedTokenKeyOf } from './seed-scripts';
import { MonthSeeds, QUOTA_KEY_TTL_MS } from './month-seeds';

function keyQuotaName(counterId: string, period: string): string {
  return `air:kq:${counterId}:${period}`;
}

type TAdmitRedis = Redis & {
  airAdmit(
    rateKey: string,
    quotaKey: string,
    keyQuotaKey: string,
    leasedSet: string,
    rateLimit: number,
    quota: number,
    keyCap: number,
    leaseCalls: number,
    leaseRoom: number,
  ): Promise<number>;
  airGiveBack(rateKey: string, quotaKey: string, keyQuotaKey: string, calls: number): Promise<number>;
  airRate(rateKey: string): Promise<number>;
};

/**
 * Counters shared by every instance through Redis (REDIS_URL). Each account's month is seeded
 * once from usage_events (after this instance's pending usage is written), with SET NX so only
 * the first instance's seed counts. When Redis does not answer, calls are admitted by local
 * counters (exact for this instance only) and `redisUp()` says so; when it answers again, the
 * usage counted meanwhile is written and the months of the accounts counted locally are dropped
 * from Redis, so their next call seeds them again from the stored usage, which now includes the
 * calls made during the outage.
 */
export class RedisCallCounters implements TCallCounters {
  private readonly redis: TAdmitRedis;
  private readonly local: LocalCallCounters;
  private readonly monthly: MonthlyCalls;
  private up = false;
  /** Accounts admitted by the local counters since Redis was last in use. */
  private readonly countedLocally = new Set<string>();
  /** Capped keys' counter ids admitted locally meanwhile (their months are re-seeded too). */
  private readonly keysCountedLocally = new Set<string>();
  /** Spend counters reserved locally meanwhile, or settled unsure (re-seeded too), by Redis key. */
  private readonly spendCountedLocally = new Set<string>();
  private readonly holders: Holders;
  private readonly tokens: RedisTokens;
  private readonly months: MonthSeeds;
  private readonly leases: AdmitLeases;
  private readonly spend: RedisSpend;
  private reconciling: Promise<void> | null = null;
  /** Redis was reported unreachable and not yet back: each change is logged once (decision 046). */
  private downLogged = false;
  /** Where Redis is, for the log line (host and port only: the URL may hold a password). */
  private readonly where: string;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly corrections: SeedCorrections;

  constructor(
    url: string,
    private readonly db: TDb,
    private readonly log: FastifyBaseLogger,
    private readonly beforeSeed: () => Promise<void>,
    storedTokens: TStoredTokens,
    private readonly onLocalAdmit: () => void = () => {},
    private readonly now: () => number = Date.now,
    correctionDelaysMs: readonly number[] = SEED_CORRECTION_DELAYS_MS,
  ) {
    this.corrections = new SeedCorrections(
      beforeSeed,
      (error, message) => log.warn({ err: error }, message),
      correctionDelaysMs,
      now,
    );
    this.where = new URL(url).host;
    this.local = new LocalCallCounters(db, beforeSeed, now);
    this.leases = new AdmitLeases((lease) => this.giveBack(lease), now);
    // Only used for its period arithmetic (the month name is recomputed only when it changes).
    this.monthly = new MonthlyCalls(db, now);
    // No offline queue: while disconnected a command fails at once and the call is counted locally
    // instead of waiting for a reconnect.
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 2000,
      enableAutoPipelining: true,
    }) as TAdmitRedis;
    this.redis.defineCommand('airAdmit', { numberOfKeys: 4, lua: ADMIT_SCRIPT });
    this.redis.defineCommand('airGiveBack', { numberOfKeys: 3, lua: GIVE_BACK_SCRIPT });
    this.redis.defineCommand('airRate', { numberOfKeys: 1, lua: RATE_SCRIPT });
    this.months = new MonthSeeds(this.redis, db, beforeSeed, this.corrections, now);
    this.holders = new Holders(this.redis, (error, message) => log.warn({ err: error }, message), now);
    this.tokens = new RedisTokens(this.redis, this.holders, storedTokens, now);
    this.spend = new RedisSpend({
      redis: this.redis,
      db,
      log,
      holders: this.holders,
      beforeSeed,
      period: () => this.monthly.period(),
      up: () => this.up,
      failed: (error, message) => this.redisFailed(error, message),
      reserveLocally: (limits, reservedPicos) => {
        this.unsureOf(limits.parts);
        this.onLocalAdmit();
        return this.local.reserveSpend(limits, reservedPicos);
      },
      settleLocally: (ticket, costPicos) => this.local.settleSpend(ticket, costPicos),
      unsure: (parts) => this.unsureOf(parts),
      ttlMs: QUOTA_KEY_TTL_MS,
      lossBefore: (marked) => this.months.lossBefore(marked),
      corrections: this.corrections,
      now,
    });
    this.redis.on('ready', () => void this.reconcile());
    this.redis.on('close', () => this.markDown());
    // Connection errors are reported by 'close' and retried by ioredis; they must not crash the process.
    this.redis.on('error', () => {});
  }

  redisUp(): boolean {
    return this.up;
  }

  /** Gives back the holds of instances that stopped beating (run every few seconds by the holders' timer). */
  sweepDeadHolders(): Promise<number> {
    return this.holders.sweep();
  }

  admit(key: TAdmitKey, limits: TPlanLimits): number | Promise<number> {
    if (!this.up) return this.admitLocally(key, limits);
    const time = this.now();
    const minute = Math.floor(time / 60_000);
    const period = this.monthly.period();
    const cap = key.monthlyCalls ?? 0;
    const name = `${key.keyId}:${minute}:${period}:${cap}`;
    const lease = this.leases.get(name);
    if (lease === undefined) return this.admitShared(key, limits, name, time, minute, period, cap);
    // A block's calls serve until they run out or the sweep gives them back (LEASE_MS after it came).
    if (lease.left > 0) {
      lease.left--;
      return 0;
    }
    // One round trip takes the next block; calls arriving meanwhile wait for it, then try again.
    if (lease.refill === null) {
      lease.refill = this.admitShared(key, limits, name, time, minute, period, cap);
      const refilled = lease.refill.finally(() => {
        lease.refill = null;
      });
      return refilled as Promise<number>;
    }
    return lease.refill.then(() => this.admit(key, limits));
  }

  /** The admit script for one call, asking for a lease (a block of calls) when there is room. */
  private admitShared(
    key: TAdmitKey,
    limits: TPlanLimits,
    name: string,
    time: number,
    minute: number,
    period: string,
    cap: number,
  ): Promise<number> {
    const { keyId, accountId } = key;
    const rateKey = `air:rl:${keyId}:${minute}`;
    const quotaKey = `air:q:${accountId}:${period}`;
    const capCounterId = cap > 0 ? keyCounterId(accountId, keyId, cap) : null;
    const keyQuotaKey = capCounterId !== null ? keyQuotaName(capCounterId, period) : quotaKey;
    return this.redis
      .airAdmit(
        rateKey,
        quotaKey,
        keyQuotaKey,
        this.holders.leasedKey(),
        limits.rateLimitPerMinute,
        limits.quotaCallsMonth,
        cap,
        LEASE_CALLS,
        LEASE_ROOM,
      )
      .then(
        (result): number | Promise<number> => {
          if (result > 1) {
            this.leases.add(name, result - 1, { rateKey, quotaKey, keyQuotaKey, accountId, capCounterId });
            return 0;
          }
          const lease = this.leases.get(name);
          // Refused, or no room for a block, while calls leased here earlier (a burst's other
          // round trips) are unused: this call takes one of them instead.
          if (result < 0 && result !== -2 && result !== -4 && lease !== undefined && lease.left > 0) {
            lease.left--;
            return 0;
          }
          // No room for a block: calls of this key are counted one by one again.
          if (lease !== undefined && lease.left === 0) this.leases.drop(name, lease);
          if (result === -1) return ((minute + 1) * 60_000 - time) / 1000;
          if (result === -3) return QUOTA_EXCEEDED;
          if (result === -5) return KEY_QUOTA_EXCEEDED;
          // Redis went while a month was seeded: the call is counted locally, not failed.
          const locally = (error: unknown) => {
            this.redisFailed(error, 'gateway: Redis counters unavailable, counting locally');
            return this.admitLocally(key, limits);
          };
          const again = () => this.admitShared(key, limits, name, time, minute, period, cap);
          if (result === -2) return this.seed(accountId, period).then(again, locally);
          if (result === -4) return this.seedKey(capCounterId!, period).then(again, locally);
          return 0;
        },
        (error: unknown) => {
          this.redisFailed(error, 'gateway: Redis counters unavailable, counting locally');
          return this.admitLocally(key, limits);
        },
      );
  }

  /** An expired lease's unused calls go back to the shared counters. */
  private giveBack(lease: TLease): void {
    if (!this.up) return this.forgetLease(lease);
    this.returnUnused(lease).catch((error: unknown) => {
      // Unsure whether they went back: the month is re-seeded from the stored usage instead.
      this.forgetLease(lease);
      this.redisFailed(error, 'gateway: Redis unavailable to give back leased calls');
    });
  }

  /** One round trip: a lease's unused calls taken off the counters they were counted on. */
  private returnUnused(lease: TLease): Promise<number> {
    return this.redis.airGiveBack(lease.rateKey, lease.quotaKey, lease.keyQuotaKey, lease.left);
  }

  /** A lease whose unused calls cannot be given back: its months are re-seeded on reconcile. */
  private forgetLease(lease: TLease): void {
    if (lease.left === 0) return;
    this.countedLocally.add(lease.accountId);
    if (lease.capCounterId !== null) this.keysCountedLocally.add(lease.capCounterId);
  }

  hitRate(keyId: string, ratePerMinute: number): number | Promise<number> {
    if (!this.up) return this.local.hitRate(keyId, ratePerMinute);
    const time = this.now();
    const minute = Math.floor(time / 60_000);
    return this.redis.airRate(`air:rl:${keyId}:${minute}`).then(
      (used) => (used > ratePerMinute ? ((minute + 1) * 60_000 - time) / 1000 : 0),
      (error: unknown) => {
        this.redisFailed(error, 'gateway: Redis counters unavailable, counting locally');
        return this.local.hitRate(keyId, ratePerMinute);
      },
    );
  }

  reserveSpend(limits: TSpendLimits, reservedPicos: number): TSpendAnswer | Promise<TSpendAnswer> {
    return this.spend.reserve(limits, reservedPicos);
  }

  settleSpend(ticket: TSpendTicket, costPicos: number): number | Promise<number> {
    return this.spend.settle(ticket, costPicos);
  }

  /** Spend counters this instance cannot vouch for: dropped from Redis on reconcile, then seeded again. */
  private unsureOf(parts: readonly TSpendPart[]): void {
    const period = this.monthly.period();
    for (const part of parts) this.spendCountedLocally.add(spendKeyName(part, period));
  }

  reserveTokens(
    accountId: string,
    keyId: string,
    limit: number,
    tokens: number,
  ): TTokenAnswer | Promise<TTokenAnswer> {
    if (!this.up) return this.local.reserveTokens(accountId, keyId, limit, tokens);
    return this.tokens.reserve(accountId, keyId, limit, tokens).catch((error: unknown) => {
      this.redisFailed(error, 'gateway: Redis counters unavailable, counting tokens locally');
      return this.local.reserveTokens(accountId, keyId, limit, tokens);
    });
  }

  async tokensNow(keyId: string): Promise<number> {
    if (!this.up) return this.local.tokensNow(keyId);
    return Number((await this.redis.hget(tokenKeyName(keyId, minuteOf(this.now())), 'v')) ?? 0);
  }

  settleTokens(ticket: TTokenTicket, tokens: number): void | Promise<void> {
    if (!ticket.shared) return this.local.settleTokens(ticket, tokens);
    // Unsure whether it counted: the minute ends within 60 s, and is seeded again after a restart.
    return this.tokens.settle(ticket, tokens).catch((error: unknown) => {
      this.log.warn({ err: error }, 'gateway: Redis unavailable to settle a token reservation');
    });
  }

  async calls(accountId: string): Promise<number> {
    if (!this.up) return this.local.calls(accountId);
    const period = this.monthly.period();
    try {
      const value = await this.redis.get(`air:q:${accountId}:${period}`);
      // Calls leased to this instance and not made yet are not calls (other instances' for up to LEASE_MS are).
      if (value !== null) return Number(value) - this.leases.unused(accountId);
      await this.seed(accountId, period);
      return Number((await this.redis.get(`air:q:${accountId}:${period}`)) ?? 0);
    } catch {
      return this.local.calls(accountId);
    }
  }

  async close(): Promise<void> {
    const leased = this.leases.takeAll();
    if (this.up)
      await Promise.allSettled(
        leased.filter((lease) => lease.left > 0).map((lease) => this.returnUnused(lease)),
      );
    this.closed = true;
    this.corrections.close();
    this.holders.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.redis.disconnect();
    await this.local.close();
  }

  private admitLocally(key: TAdmitKey, limits: TPlanLimits): number | Promise<number> {
    this.countedLocally.add(key.accountId);
    if (key.monthlyCalls !== null)
      this.keysCountedLocally.add(keyCounterId(key.accountId, key.keyId, key.monthlyCalls));
    this.onLocalAdmit();
    return this.local.admit(key, limits);
  }

  /** A capped key's month, seeded once from usage_events like an account's (SET NX). */
  private seedKey(counterId: string, period: string): Promise<void> {
    const [accountId, keyId] = counterId.split(':');
    return this.months.seed(keyQuotaName(counterId, period), accountId!, keyId!, period);
  }

  /** A command failed: stop using Redis if the connection is gone, else retry it shortly. */
  private redisFailed(error: unknown, message: string): void {
    this.log.warn({ err: error }, message);
    if (this.redis.status !== 'ready') this.markDown();
    else this.scheduleReconcile();
  }

  private markDown(): void {
    if (this.up) this.months.lost();
    // Calls leased and not made stay counted in Redis: those months are re-seeded on reconcile.
    for (const lease of this.leases.takeAll()) this.forgetLease(lease);
    // Once per outage, at start-up too (a Redis that never answered is not silent).
    if (!this.downLogged && !this.closed) {
      this.downLogged = true;
      this.log.error(
        { redis: this.where },
        'REDIS_URL: Redis unreachable, counting quotas and rate limits locally until it answers',
      );
    }
    this.up = false;
  }

  private seed(accountId: string, period: string): Promise<void> {
    return this.months.seed(`air:q:${accountId}:${period}`, accountId, undefined, period);
  }

  private scheduleReconcile(): void {
    if (this.reconciling || this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.reconcile();
    }, 1000);
    this.retryTimer.unref();
  }

  /** Redis answers (again): write the usage counted meanwhile, drop the months it missed, use it. */
  private reconcile(): Promise<void> {
    if (!this.reconciling) {
      this.reconciling = this.catchUp().finally(() => {
        this.reconciling = null;
      });
    }
    return this.reconciling;
  }

  private async catchUp(): Promise<void> {
    try {
      if (this.countedLocally.size > 0 || this.spendCountedLocally.size > 0) {
        await this.beforeSeed();
        const period = this.monthly.period();
        const accounts = [...this.countedLocally];
        const keys = [...this.keysCountedLocally];
        const spends = [...this.spendCountedLocally];
        const dropped = [
          ...accounts.map((accountId) => `air:q:${accountId}:${period}`),
          ...keys.map((counterId) => keyQuotaName(counterId, period)),
          ...spends,
        ];
        // Each dropped counter's next seed corrects itself for calls other instances counted before now.
        const lostAt = String(this.now());
        const drop = this.redis.multi().del(...dropped, ...dropped.map(seedTokenKeyOf));
        for (const counter of dropped) drop.set(lostKeyOf(counter), lostAt, 'PX', LOSS_MEMORY_MS);
        await drop.exec();
        for (const accountId of accounts) this.countedLocally.delete(accountId);
        for (const counterId of keys) this.keysCountedLocally.delete(counterId);
        for (const spendKey of spends) this.spendCountedLocally.delete(spendKey);
        this.local.reset();
        this.log.debug({ accounts: accounts.length }, 'gateway: counters re-seeded from usage');
      }
      if (this.redis.status === 'ready' && !this.up) {
        // A new holder for this connection, and this minute's token windows seeded if Redis lost them.
        await this.holders.connected();
        this.tokens.connected();
        this.up = true;
      }
      if (this.up && this.downLogged) {
        this.downLogged = false;
        this.log.info({ redis: this.where }, 'gateway: Redis reachable again, counting in Redis');
      }
      // Calls admitted locally while this ran: their months are dropped and re-seeded too.
      if (this.countedLocally.size > 0 || this.spendCountedLocally.size > 0)
        setImmediate(() => this.scheduleReconcile());
    } catch (error) {
      this.log.warn({ err: error }, 'gateway: Redis counters not reconciled yet');
      // Retried once this attempt is over (scheduleReconcile waits for it to finish).
      setImmediate(() => this.scheduleReconcile());
    }
  }
}
