import { Redis } from 'ioredis';

/** A streak of failures in a row on one upstream of one endpoint, by who they count against. */
export interface TStreakCounts {
  /** Failures that cannot depend on the body (connection refused or reset before it was sent, DNS, connect timeout). */
  connection: number;
  /** Failures of the owner's own calls. */
  owner: number;
  /** Failures of other accounts' calls that may depend on what they sent (a 5xx, a timeout). */
  callers: number;
  /** Distinct caller accounts behind `callers`. */
  distinctCallers: number;
}

/** The streak's field for a source of failures. */
export type TStreakField = 'n' | 'o' | 'c';

/**
 * Counts one failure in the streak's hash (`n` connection, `o` owner, `c` callers), adds the
 * caller to the streak's set of callers, and answers the four counts. Both keys expire after a
 * quiet cooldown, so a streak nobody finishes is forgotten.
 */
const STREAK_SCRIPT = `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[2] ~= '' then
  redis.call('SADD', KEYS[2], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
local v = redis.call('HMGET', KEYS[1], 'n', 'o', 'c')
return { tonumber(v[1]) or 0, tonumber(v[2]) or 0, tonumber(v[3]) or 0, redis.call('SCARD', KEYS[2]) }
`;

/**
 * The circuits' shared counts in Redis (contract 6a, with REDIS_URL), named by the circuit's key
 * (endpoint id and a hash of the upstream URL: no URL, so no secret of it, reaches Redis): the
 * streak (`air:cb:{key}:f`, its callers `:c`), the probe claim (`:probe`) and each caller's own
 * streak (`:u:{account}`). Every count expires. Answers null while Redis is unreachable: the
 * instance counts alone meanwhile.
 */
export class CircuitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
      lazyConnect: false,
    });
    this.redis.on('error', () => {});
  }

  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  countStreak(
    key: string,
    field: TStreakField,
    caller: string,
    ttlMs: number,
  ): Promise<TStreakCounts | null> {
    return this.redis.eval(STREAK_SCRIPT, 2, `air:cb:${key}:f`, `air:cb:${key}:c`, field, caller, ttlMs).then(
      (answer) => {
        if (!Array.isArray(answer)) return null;
        const [connection, owner, callers, distinctCallers] = answer.map(Number);
        return {
          connection: connection ?? 0,
          owner: owner ?? 0,
          callers: callers ?? 0,
          distinctCallers: distinctCallers ?? 0,
        };
      },
      () => null,
    );
  }

  /** One more failure of this caller's own streak: the shared count, or null. */
  countCaller(key: string, caller: string, ttlMs: number): Promise<number | null> {
    const name = `air:cb:${key}:u:${caller}`;
    return this.redis
      .multi()
      .incr(name)
      .pexpire(name, ttlMs)
      .exec()
      .then(
        (results) => {
          const count = Number(results?.[0]?.[1]);
          return Number.isFinite(count) ? count : null;
        },
        () => null,
      );
  }

  /** True when this call of all instances won the probe (the claim lasts `holdMs`). */
  claimProbe(key: string, holdMs: number): Promise<boolean> {
    return this.redis.set(`air:cb:${key}:probe`, '1', 'PX', holdMs, 'NX').then(
      (answer) => answer === 'OK',
      () => true,
    );
  }

  /** The streak is over (a success, or the circuit opened): counting starts again. */
  clearStreak(key: string, probeToo: boolean): void {
    const keys = [`air:cb:${key}:f`, `air:cb:${key}:c`];
    if (probeToo) keys.push(`air:cb:${key}:probe`);
    this.redis.del(...keys).catch(() => {});
  }

  releaseProbe(key: string): void {
    this.redis.del(`air:cb:${key}:probe`).catch(() => {});
  }

  clearCaller(key: string, caller: string): void {
    this.redis.del(`air:cb:${key}:u:${caller}`).catch(() => {});
  }

  close(): void {
    this.redis.disconnect();
  }
}
