import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LOSS_MEMORY_MS } from './seed-corrections';

/*
 * Who holds a reservation in Redis (decision 049). Each instance's connection is a holder: a
 * random id, taken afresh each time the connection is (re)established, so a reservation made before
 * Redis restarted is never mistaken for one made after. A reservation is counted in its counter's
 * `v` and in the holder's own field `h:<holder>`, and the counter is put in the holder's set. The
 * holder beats (`air:alive:<id>`, a key that lapses after ALIVE_MS) while its instance runs; any
 * instance that finds a registered holder no longer beating gives its holds back (RELEASE_SCRIPT),
 * so an instance killed with `kill -9` with calls in flight leaves no reservation counted. Its
 * calls' charges were counted when they settled; the ones that never settled were never answered
 * whole, or are metered from its journal when it restarts, and cost what that row says.
 *
 * A settle that finds its holder's field gone or short (swept, or Redis restarted) counts only the
 * charge, so a call that outlives its holder is still counted exactly once.
 */

/** How long a holder stays alive without a beat; it beats every BEAT_MS. */
export const ALIVE_MS = 15_000;
const BEAT_MS = 5_000;
/** A holder's set outlives its last beat by a day, for an instance that died with nobody to sweep it. */
const SET_TTL_MS = 86_400_000;
const HOLDERS_KEY = 'air:holders';

/**
 * KEYS[1] a dead holder's set, KEYS[2] its set of leased months, ARGV[1] its field, ARGV[2] the
 * time, ARGV[3] how long a loss is remembered: every counter it held in gives its holds back, and
 * every month it leased calls from is dropped (its unused calls are unknown), to be seeded again
 * from the stored calls on its next call and corrected for the rows other instances had not
 * stored yet (seed-scripts.ts). The counters are named in the sets, not in KEYS (a standalone
 * Redis, as the counters need).
 */
export const RELEASE_SCRIPT = `
for _, key in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('DEL', key, 'air:seed:' .. key)
  redis.call('SET', 'air:lost:' .. key, ARGV[2], 'PX', ARGV[3])
end
redis.call('DEL', KEYS[2])
local counters = redis.call('SMEMBERS', KEYS[1])
for _, key in ipairs(counters) do
  local held = redis.call('HGET', key, ARGV[1])
  if held then
    redis.call('HINCRBY', key, 'v', '-' .. held)
    redis.call('HDEL', key, ARGV[1])
  end
end
redis.call('DEL', KEYS[1])
return #counters
`;

type THolderRedis = Redis & {
  airRelease(setKey: string, leasedKey: string, field: string, now: number, lossMs: number): Promise<number>;
};

export class Holders {
  private id = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private readonly redis: THolderRedis;

  constructor(
    redis: Redis,
    private readonly warn: (error: unknown, message: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.redis = redis as THolderRedis;
    this.redis.defineCommand('airRelease', { numberOfKeys: 2, lua: RELEASE_SCRIPT });
  }

  /** The field this instance's reservations are held under. */
  field(): string {
    return `h:${this.id}`;
  }

  /** The set of counters this instance holds in. */
  setKey(): string {
    return `air:hs:${this.id}`;
  }

  /** The months this instance leased blocks of calls from (admit-leases.ts). */
  leasedKey(): string {
    return `air:hl:${this.id}`;
  }

  /** The set of a holder's field (a ticket's holder may be an earlier connection's). */
  static setKeyOf(field: string): string {
    return `air:hs:${field.slice(2)}`;
  }

  /** A new connection: a new holder, registered and beating before any reservation is made. */
  async connected(): Promise<void> {
    this.id = randomUUID();
    await this.beat();
    if (!this.timer) {
      this.timer = setInterval(() => {
        void this.beat()
          .then(() => this.sweep())
          .catch((error: unknown) => this.warn(error, 'gateway: reservation holders not swept'));
      }, BEAT_MS);
      this.timer.unref();
    }
  }

  private async beat(): Promise<void> {
    await this.redis
      .multi()
      .sadd(HOLDERS_KEY, this.id)
      .set(`air:alive:${this.id}`, '1', 'PX', ALIVE_MS)
      .pexpire(this.setKey(), SET_TTL_MS)
      .pexpire(this.leasedKey(), SET_TTL_MS)
      .exec();
  }

  /** Gives back the holds of every registered holder that stopped beating; answers how many. */
  async sweep(): Promise<number> {
    let swept = 0;
    for (const holder of await this.redis.smembers(HOLDERS_KEY)) {
      if (holder === this.id || (await this.redis.exists(`air:alive:${holder}`)) === 1) continue;
      await this.redis.airRelease(
        `air:hs:${holder}`,
        `air:hl:${holder}`,
        `h:${holder}`,
        this.now(),
        LOSS_MEMORY_MS,
      );
      await this.redis.srem(HOLDERS_KEY, holder);
      swept++;
    }
    return swept;
  }

  /** Stops beating; this instance's holds are given back (by a sweep) once its beat lapses. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
