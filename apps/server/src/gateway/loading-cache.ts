/** How long any cached entry lives: the backstop for an invalidation message that was lost. */
export const CACHE_TTL_MS = 60_000;

interface TEntry<V> {
  value: V;
  expiresAt: number;
}

/**
 * An in-memory map filled from a loader on a miss, so the hot path reads memory and the database
 * is asked once per key. `invalidate` drops an entry at once (called from app.changes); a load
 * that was in flight while an invalidation happened still answers its caller but is not kept,
 * so a stale row can never outlive the change that made it stale. Every entry also expires after
 * `ttlMs` (60 s), so a lost invalidation cannot keep one stale for longer. Misses (the loader
 * answered null) are kept too, in a separate bounded map so a flood of random keys cannot grow
 * memory.
 */
export class LoadingCache<V> {
  private readonly hits = new Map<string, TEntry<V>>();
  private readonly misses = new Map<string, number>();
  private readonly pending = new Map<string, Promise<V | null>>();
  private epoch = 0;
  private readonly ttlMs: number;

  constructor(
    private readonly loader: (key: string) => Promise<V | null>,
    private readonly limits: { maxEntries: number; maxMisses: number; ttlMs?: number },
    private readonly now: () => number = Date.now,
  ) {
    this.ttlMs = limits.ttlMs ?? CACHE_TTL_MS;
  }

  /** Synchronous look-up: the value, null for a known miss, undefined when not cached (or expired). */
  peek(key: string): V | null | undefined {
    const hit = this.hits.get(key);
    if (hit !== undefined) {
      if (hit.expiresAt > this.now()) return hit.value;
      this.hits.delete(key);
      return undefined;
    }
    const missExpiresAt = this.misses.get(key);
    if (missExpiresAt === undefined) return undefined;
    if (missExpiresAt > this.now()) return null;
    this.misses.delete(key);
    return undefined;
  }

  get(key: string): V | null | Promise<V | null> {
    const cached = this.peek(key);
    return cached === undefined ? this.load(key) : cached;
  }

  /** Whether a load of this key is under way (joining it costs no further look-up). */
  isLoading(key: string): boolean {
    return this.pending.has(key);
  }

  load(key: string): Promise<V | null> {
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const epoch = this.epoch;
    const promise = this.loader(key).then(
      (value) => {
        if (this.pending.get(key) === promise) this.pending.delete(key);
        if (epoch === this.epoch) this.store(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.pending.get(key) === promise) this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, promise);
    return promise;
  }

  invalidate(key: string): void {
    this.epoch++;
    this.hits.delete(key);
    this.misses.delete(key);
    this.pending.delete(key);
  }

  /** Drops every cached value the predicate picks (rare, bulk changes such as a closed account). */
  invalidateWhere(predicate: (value: V) => boolean): void {
    this.epoch++;
    for (const [key, entry] of this.hits) if (predicate(entry.value)) this.hits.delete(key);
    this.pending.clear();
  }

  clear(): void {
    this.epoch++;
    this.hits.clear();
    this.misses.clear();
    this.pending.clear();
  }

  get size(): number {
    return this.hits.size + this.misses.size;
  }

  private store(key: string, value: V | null): void {
    if (value === null) {
      // Oldest first (Map keeps insertion order): evict before adding past the bound.
      if (this.misses.size >= this.limits.maxMisses) this.misses.delete(this.misses.keys().next().value!);
      this.misses.set(key, this.now() + this.ttlMs);
      return;
    }
    if (this.hits.size >= this.limits.maxEntries) this.hits.delete(this.hits.keys().next().value!);
    this.hits.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }
}
