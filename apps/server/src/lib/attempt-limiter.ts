import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError } from './app-error';

/**
 * Brute-force limits on credentials and mail sends (server contract section 3), on
 * `rate-limiter-flexible`. An attempt is RESERVED before the password or code is checked: a burst
 * of concurrent guesses can never evaluate more than the limit, because each guess takes its slot
 * before anything is compared. A success gives its slot back (`release`) or clears the key
 * (`reset`). Keys are `<kind>:<value>`: `email:a@b.c`, `ip:1.2.3.4`, `magic:a@b.c`.
 */
export interface TAttemptRule {
  limit: number;
  windowMs: number;
}

export const DEFAULT_ATTEMPT_RULES: Record<string, TAttemptRule> = {
  email: { limit: 10, windowMs: 15 * 60_000 },
  ip: { limit: 50, windowMs: 15 * 60_000 },
};

/** Keys with no rule of their own (unknown prefix) use the stricter per-email rule. */
const FALLBACK_RULE: TAttemptRule = { limit: 10, windowMs: 15 * 60_000 };

export interface TAttemptLimiter {
  /**
   * Takes one attempt from every key, atomically per key. Throws AppError('rate_limited',
   * { retryAfter }) when any key is already at its limit; the keys taken by this call are then
   * given back, so a refused attempt counts against nothing.
   */
  reserve(keys: string[]): Promise<void>;
  /** Gives one reserved attempt back to every key (the attempt succeeded). */
  release(keys: string[]): Promise<void>;
  /** Forgets the keys' attempts (e.g. the email's after a successful sign-in). */
  reset(keys: string[]): Promise<void>;
  close(): Promise<void>;
}

export function attemptKey(kind: 'email' | 'ip', value: string): string {
  return `${kind}:${kind === 'email' ? value.trim().toLowerCase() : value}`;
}

const REDIS_PREFIX = 'air:attempts';

/** The longest a start waits for Redis before counting attempts locally until it connects. */
const REDIS_CONNECT_WAIT_MS = 1000;

function firstConnection(redis: Redis, waitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    redis.once('ready', done);
  });
}

export interface TAttemptLimiterOptions {
  redisUrl?: string;
  /** Redis key prefix (tests use a unique one per run). */
  redisPrefix?: string;
  rules?: Record<string, TAttemptRule>;
}

export async function createAttemptLimiter(options: TAttemptLimiterOptions = {}): Promise<TAttemptLimiter> {
  const rules = { ...DEFAULT_ATTEMPT_RULES, ...options.rules };
  let redis: Redis | undefined;
  if (options.redisUrl) {
    // No offline queue and a short command timeout (Redis answers these in well under a
    // millisecond): while Redis is down or hung a check goes to this process's counters (the
    // insurance limiter below) instead of holding a sign-in.
    redis = new Redis(options.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 300,
    });
    redis.on('error', () => {});
    // With Redis up, the counters are shared from the first attempt; with Redis down the server
    // starts anyway after this short wait and switches to Redis when it connects.
    await firstConnection(redis, REDIS_CONNECT_WAIT_MS);
  }
  const prefix = options.redisPrefix ?? REDIS_PREFIX;
  const limiters = new Map<string, RateLimiterAbstract>();

  /** One limiter per key kind, made on first use (each kind has its own limit and window). */
  function limiterFor(key: string): RateLimiterAbstract {
    const kind = key.slice(0, key.indexOf(':'));
    const known = kind in rules ? kind : '*';
    let limiter = limiters.get(known);
    if (!limiter) {
      const rule = rules[known] ?? FALLBACK_RULE;
      const base = { points: rule.limit, duration: Math.max(1, Math.ceil(rule.windowMs / 1000)) };
      const memory = new RateLimiterMemory({ ...base, keyPrefix: `${prefix}:${known}` });
      limiter = redis
        ? // A Redis outage falls back to this process's counters instead of failing sign-in.
          new RateLimiterRedis({
            ...base,
            storeClient: redis,
            keyPrefix: `${prefix}:${known}`,
            insuranceLimiter: memory,
            rejectIfRedisNotReady: true,
          })
        : memory;
      limiters.set(known, limiter);
    }
    return limiter;
  }

  async function release(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => limiterFor(key).reward(key, 1)));
  }

  return {
    async reserve(keys) {
      const taken: string[] = [];
      let retryAfterMs = 0;
      for (const key of keys) {
        try {
          await limiterFor(key).consume(key, 1);
          taken.push(key);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          // Over the limit: the consume still counted, so give it back too (a refused attempt is
          // not an evaluated one and must not extend anything).
          await limiterFor(key).reward(key, 1);
          retryAfterMs = Math.max(retryAfterMs, rejection.msBeforeNext);
        }
      }
      if (retryAfterMs > 0) {
        await release(taken);
        throw new AppError('rate_limited', {
          messageKey: 'error.too_many_attempts',
          retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)),
        });
      }
    },
    release,
    async reset(keys) {
      await Promise.all(keys.map((key) => limiterFor(key).delete(key)));
    },
    async close() {
      redis?.disconnect();
    },
  };
}
