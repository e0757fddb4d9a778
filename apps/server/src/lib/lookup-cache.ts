import { LRUCache } from 'lru-cache';

/** How long an entry lives: the backstop for an invalidation message that was lost. */
export const CACHE_TTL_MS = 60_000;

/** Stands for "looked up, nothing there" (lru-cache holds no null). */
const MISSING: object = Object.freeze({});

export interface TLookupCacheOptions {
  /** Entries kept, found or missing; the least recently used goes first. */
  max: number;
  ttlMs?: number;
  /** A clock for tests (milliseconds). */
  now?: () => number;
}

/**
 * The database's answers kept in memory (API keys, sessions, gateway routes, plan limits), on
 * lru-cache, so a hit is read synchronously and the database is asked once per key:
 * - bounded (`max`), least recently used out first, and every entry expires after `ttlMs`;
 * - a look-up that found nothing is kept too (`peek` answers null), so an unknown key is not
 *   looked up again at once;
 * - concurrent look-ups of one uncached key join one load (lru-cache's `fetch`); `context` is
 *   the first caller's (the per-address budget of unknown look-ups is taken once);
 * - an invalidation drops the entry and any load of it under way: that load still answers the
 *   callers waiting for it, but is not kept, so a stale row never outlives the change that made
 *   it stale (`invalidateWhere` does the same for every load under way, since any may read what
 *   just changed).
 */
export class LookupCache<V extends object, C = void> {
  // The context is held as unknown: lru-cache's fetch types cannot resolve a generic one.
  private readonly cache: LRUCache<string, V>;
  /** Bumped by `invalidateWhere` and `clear`: a load that began before cannot be kept. */
  private epoch = 0;

  constructor(
    load: (key: string, context: C | undefined) => Promise<V | null>,
    options: TLookupCacheOptions,
  ) {
    this.cache = new LRUCache<string, V>({
      max: options.max,
      ttl: options.ttlMs ?? CACHE_TTL_MS,
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
      // A dropped load still answers whoever waits for it; lru-cache just does not store it.
      ignoreFetchAbort: true,
      fetchMethod: async (key, _stale, { context }) => {
        const epoch = this.epoch;
        const value = (await load(key, context as C | undefined)) ?? (MISSING as V);
        // Deleting the pending entry is how lru-cache is told not to keep what it answers.
        if (epoch !== this.epoch) this.cache.delete(key);
        return value;
      },
    });
  }

  /** Synchronous: the value, null for a known miss, undefined when not cached (or expired). */
  peek(key: string): V | null | undefined {
    const value = this.cache.get(key);
    return value === MISSING ? null : value;
  }

  /** Looks the key up (or joins the look-up under way). */
  async load(key: string, context?: C): Promise<V | null> {
    const value = await this.cache.fetch(key, { context });
    return value === undefined || value === MISSING ? null : value;
  }

  /** `peek`, else `load`: no promise on a hit. */
  get(key: string, context?: C): V | null | Promise<V | null> {
    const cached = this.peek(key);
    return cached === undefined ? this.load(key, context) : cached;
  }

  invalidate(key: string): void {
    this.cache.delete(key);
  }

  /** Drops every kept value the predicate picks (rare, bulk changes such as a closed account). */
  invalidateWhere(match: (value: V) => boolean): void {
    this.epoch++;
    for (const [key, value] of this.cache.entries()) {
      if (value !== MISSING && match(value)) this.cache.delete(key);
    }
  }

  clear(): void {
    this.epoch++;
    this.cache.clear();
  }

  /** Entries kept, found or missing. */
  get size(): number {
    return this.cache.size;
  }
}
