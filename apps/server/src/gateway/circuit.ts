import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { TChange } from '../lib/change-bus';

export type TCircuitState = 'closed' | 'open' | 'probing';

/** Counts per clock minute over the last hour (60 buckets, reused as the minutes turn). */
export class HourCounts {
  private readonly counts = new Uint32Array(60);
  private readonly minutes = new Float64Array(60).fill(-1);

  add(now: number): void {
    const minute = Math.floor(now / 60_000);
    const slot = minute % 60;
    if (this.minutes[slot] !== minute) {
      this.minutes[slot] = minute;
      this.counts[slot] = 0;
    }
    this.counts[slot]!++;
  }

  total(now: number): number {
    const minute = Math.floor(now / 60_000);
    let sum = 0;
    for (let slot = 0; slot < 60; slot++) if (minute - this.minutes[slot]! < 60) sum += this.counts[slot]!;
    return sum;
  }
}

/** One upstream URL's circuit and its last hour, as this instance knows them. */
export interface TUpstreamHealth {
  readonly url: string;
  /** Failures in a row (this instance's, or the shared count when Redis answered it). */
  failuresInRow: number;
  /** 0 while closed; else when the cooldown ends (ms since the epoch). */
  openUntil: number;
  /** A probe is in flight (here or, with Redis, on another instance) until this time. */
  probeUntil: number;
  lastFailureAt: number;
  readonly attempts: HourCounts;
  readonly failures: HourCounts;
}

/** `check` answers: take it, skip it (open, or another caller probes it), or probe it. */
export const CLOSED = 0;
export const SKIP = 1;
export const PROBE = 2;

/** Upstreams the gateway keeps health for at most (the URLs of routed endpoints). */
const MAX_UPSTREAMS = 10_000;

/**
 * Circuit breakers per upstream URL (contract 6a, `config.circuit`): `failures` failed calls in a
 * row open the circuit for the cooldown; then one call probes it, and its success closes it (a
 * failed probe opens it for another cooldown). A success on a closed circuit with no failures
 * costs nothing but two property reads.
 *
 * With REDIS_URL, every instance shares it: failures are counted in Redis (INCR, expiring after
 * a quiet cooldown), the opening and closing are broadcast on the change bus (every instance
 * skips and takes the upstream back at once), and a probe is claimed with SET NX so only one call
 * of all instances probes. Redis unreachable: each instance keeps its own circuits meanwhile.
 */
export class Circuits {
  private readonly byUrl = new Map<string, TUpstreamHealth>();
  private readonly redis: Redis | null;

  constructor(
    private readonly options: {
      redisUrl: string | undefined;
      publish: (change: TChange) => Promise<void>;
      log: FastifyBaseLogger;
      now?: () => number;
    },
  ) {
    this.redis = options.redisUrl
      ? new Redis(options.redisUrl, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          commandTimeout: 1000,
          lazyConnect: false,
        })
      : null;
    this.redis?.on('error', () => {});
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  health(url: string): TUpstreamHealth {
    let health = this.byUrl.get(url);
    if (!health) {
      if (this.byUrl.size >= MAX_UPSTREAMS) {
        // Forget the oldest closed entry (Map keeps insertion order).
        for (const [name, entry] of this.byUrl) {
          if (entry.openUntil === 0) {
            this.byUrl.delete(name);
            break;
          }
        }
      }
      health = {
        url,
        failuresInRow: 0,
        openUntil: 0,
        probeUntil: 0,
        lastFailureAt: 0,
        attempts: new HourCounts(),
        failures: new HourCounts(),
      };
      this.byUrl.set(url, health);
    }
    return health;
  }

  /** The known health of a URL, without creating it. */
  peek(url: string): TUpstreamHealth | undefined {
    return this.byUrl.get(url);
  }

  all(): IterableIterator<TUpstreamHealth> {
    return this.byUrl.values();
  }

  state(health: TUpstreamHealth, now = this.now()): TCircuitState {
    if (health.openUntil === 0) return 'closed';
    if (now < health.openUntil) return 'open';
    return health.probeUntil > now ? 'probing' : 'open';
  }

  check(health: TUpstreamHealth, now: number): number {
    if (health.openUntil === 0) return CLOSED;
    if (now < health.openUntil || health.probeUntil > now) return SKIP;
    return PROBE;
  }

  /**
   * This call probes the upstream (its cooldown is over): true when it won the probe. With Redis
   * only one caller of all instances wins until `holdMs` passes.
   */
  claimProbe(health: TUpstreamHealth, holdMs: number, cooldownMs: number): boolean | Promise<boolean> {
    const now = this.now();
    health.probeUntil = now + holdMs;
    const redis = this.redis;
    if (!redis || redis.status !== 'ready') return true;
    // The claim lasts a cooldown: a failed probe's new cooldown ends after it, so no other
    // instance probes again before hearing of the failure.
    return redis.set(`air:cb:${health.url}:probe`, '1', 'PX', cooldownMs, 'NX').then(
      (answer) => {
        if (answer === 'OK') return true;
        health.probeUntil = Math.max(health.probeUntil, this.now() + cooldownMs);
        return false;
      },
      () => true,
    );
  }

  success(health: TUpstreamHealth): void {
    if (health.failuresInRow === 0 && health.openUntil === 0) return;
    const wasOpen = health.openUntil !== 0;
    health.failuresInRow = 0;
    health.openUntil = 0;
    health.probeUntil = 0;
    const redis = this.redis;
    if (redis && redis.status === 'ready')
      redis.del(`air:cb:${health.url}:f`, `air:cb:${health.url}:probe`).catch(() => {});
    if (wasOpen) void this.options.publish({ kind: 'circuit', url: health.url, until: 0 });
  }

  /** A failed call (retryable status, connection error, timeout). Resolves once the shared state knows. */
  failure(health: TUpstreamHealth, threshold: number, cooldownMs: number): Promise<void> | void {
    const now = this.now();
    health.lastFailureAt = now;
    health.failures.add(now);
    if (health.openUntil !== 0) {
      // A failed probe (or a call that was under way when the circuit opened): another cooldown.
      if (now >= health.openUntil) return this.open(health, cooldownMs);
      return;
    }
    health.failuresInRow++;
    const redis = this.redis;
    if (!redis || redis.status !== 'ready') {
      if (health.failuresInRow >= threshold) return this.open(health, cooldownMs);
      return;
    }
    const key = `air:cb:${health.url}:f`;
    return redis
      .multi()
      .incr(key)
      .pexpire(key, cooldownMs)
      .exec()
      .then(
        (results) => {
          const shared = Number(results?.[0]?.[1] ?? health.failuresInRow);
          health.failuresInRow = Math.max(health.failuresInRow, shared);
          if (health.failuresInRow >= threshold && health.openUntil === 0)
            return this.open(health, cooldownMs);
        },
        () => {
          if (health.failuresInRow >= threshold && health.openUntil === 0)
            return this.open(health, cooldownMs);
        },
      );
  }

  private open(health: TUpstreamHealth, cooldownMs: number): Promise<void> {
    const until = this.now() + cooldownMs;
    health.openUntil = until;
    health.probeUntil = 0;
    this.options.log.warn({ upstream: health.url, cooldownMs }, 'gateway: circuit opened');
    const redis = this.redis;
    if (redis && redis.status === 'ready') redis.del(`air:cb:${health.url}:f`).catch(() => {});
    return this.options.publish({ kind: 'circuit', url: health.url, until });
  }

  /** Another instance (or this one) opened or closed a circuit. */
  apply(change: { url: string; until: number }): void {
    const health = this.health(change.url);
    if (change.until === 0) {
      health.failuresInRow = 0;
      health.openUntil = 0;
      health.probeUntil = 0;
    } else if (change.until > health.openUntil) {
      health.openUntil = change.until;
      health.probeUntil = 0;
    }
  }

  close(): void {
    this.redis?.disconnect();
  }
}
