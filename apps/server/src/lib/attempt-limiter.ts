import { Redis } from 'ioredis';
import { AppError } from './app-error';

/**
 * Brute-force limits on failed credentials (server contract section 3): failures are counted per
 * key in a fixed window; once a key reaches its limit every attempt is refused with 429 and
 * Retry-After until the window ends. Keys are `<kind>:<value>`: `email:a@b.c`, `ip:1.2.3.4`.
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
  /** Throws AppError('rate_limited', { retryAfter }) when any key is over its limit. */
  assertAllowed(keys: string[]): Promise<void>;
  /** Counts one failure against every key. */
  recordFailure(keys: string[]): Promise<void>;
  /** Forgets the keys' failures (e.g. the email's after a successful sign-in). */
  reset(keys: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Where counters live: this process, or Redis shared by every instance. */
interface TCounterStore {
  /** Current count and the milliseconds left in its window (0 when absent). */
  get(key: string): Promise<{ count: number; ttlMs: number }>;
  increment(key: string, windowMs: number): Promise<void>;
  delete(keys: string[]): Promise<void>;
  close(): Promise<void>;
}

export function attemptKey(kind: 'email' | 'ip', value: string): string {
  return `${kind}:${kind === 'email' ? value.trim().toLowerCase() : value}`;
}

function ruleFor(key: string, rules: Record<string, TAttemptRule>): TAttemptRule {
  const kind = key.slice(0, key.indexOf(':'));
  return rules[kind] ?? FALLBACK_RULE;
}

function createLimiter(store: TCounterStore, rules: Record<string, TAttemptRule>): TAttemptLimiter {
  return {
    async assertAllowed(keys) {
      let retryAfterMs = 0;
      for (const key of keys) {
        const { count, ttlMs } = await store.get(key);
        if (count >= ruleFor(key, rules).limit) retryAfterMs = Math.max(retryAfterMs, ttlMs);
      }
      if (retryAfterMs > 0) {
        throw new AppError('rate_limited', {
          messageKey: 'error.too_many_attempts',
          retryAfter: Math.ceil(retryAfterMs / 1000),
        });
      }
    },
    async recordFailure(keys) {
      for (const key of keys) await store.increment(key, ruleFor(key, rules).windowMs);
    },
    async reset(keys) {
      await store.delete(keys);
    },
    close: () => store.close(),
  };
}

export function createMemoryCounterStore(now: () => number = Date.now): TCounterStore {
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const live = (key: string) => {
    const entry = counters.get(key);
    if (entry && entry.expiresAt <= now()) {
      counters.delete(key);
      return undefined;
    }
    return entry;
  };
  // Expired windows are dropped lazily and by a periodic sweep so the map cannot grow unbounded.
  const sweep = setInterval(() => {
    for (const key of counters.keys()) live(key);
  }, 60_000);
  sweep.unref();
  return {
    async get(key) {
      const entry = live(key);
      return entry ? { count: entry.count, ttlMs: entry.expiresAt - now() } : { count: 0, ttlMs: 0 };
    },
    async increment(key, windowMs) {
      const entry = live(key);
      if (entry) entry.count += 1;
      else counters.set(key, { count: 1, expiresAt: now() + windowMs });
    },
    async delete(keys) {
      for (const key of keys) counters.delete(key);
    },
    async close() {
      clearInterval(sweep);
      counters.clear();
    },
  };
}

const REDIS_PREFIX = 'air:attempts:';

export async function createRedisCounterStore(url: string): Promise<TCounterStore> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return {
    async get(key) {
      const [[, count], [, ttl]] = (await redis
        .multi()
        .get(REDIS_PREFIX + key)
        .pttl(REDIS_PREFIX + key)
        .exec()) as [[unknown, string | null], [unknown, number]];
      return { count: Number(count ?? 0), ttlMs: Math.max(0, Number(ttl)) };
    },
    async increment(key, windowMs) {
      // The window starts at the first failure: NX sets the expiry only when none is set yet.
      await redis
        .multi()
        .incr(REDIS_PREFIX + key)
        .pexpire(REDIS_PREFIX + key, windowMs, 'NX')
        .exec();
    },
    async delete(keys) {
      if (keys.length > 0) await redis.del(...keys.map((key) => REDIS_PREFIX + key));
    },
    async close() {
      redis.disconnect();
    },
  };
}

export async function createAttemptLimiter(
  options: { redisUrl?: string; rules?: Record<string, TAttemptRule>; now?: () => number } = {},
): Promise<TAttemptLimiter> {
  const store = options.redisUrl
    ? await createRedisCounterStore(options.redisUrl)
    : createMemoryCounterStore(options.now);
  return createLimiter(store, { ...DEFAULT_ATTEMPT_RULES, ...options.rules });
}
