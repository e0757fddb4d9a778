import type { Redis } from 'ioredis';
import { Holders } from './holders';
import {
  minuteOf,
  secondsLeft,
  type TStoredTokens,
  type TTokenAnswer,
  type TTokenTicket,
} from './token-limit';

/*
 * Token windows in Redis (token-limit.ts says what they count): a hash per key and minute, `v` the
 * tokens used and reserved, and each holder's reservations in its own field (holders.ts), so the
 * holds of a killed instance are given back.
 */

/**
 * Reserve: KEYS[1] the key's minute, KEYS[2] the holder's set; ARGV[1] the tokens, ARGV[2] the
 * holder's field, ARGV[3] the limit, ARGV[4] the counter's time to live, ARGV[5] '1' when a
 * missing counter must be seeded from the stored usage first. Answers { 0, used } reserved (used
 * now, this call's included), { 1, used } refused, { 2, 0 } to be seeded.
 */
const TOKEN_RESERVE_SCRIPT = `
local used = redis.call('HGET', KEYS[1], 'v')
local fresh = not used
if fresh then
  if ARGV[5] == '1' then return { 2, 0 } end
  used = 0
else
  used = tonumber(used)
end
local tokens = tonumber(ARGV[1])
if used + tokens > tonumber(ARGV[3]) then return { 1, used } end
redis.call('HINCRBY', KEYS[1], 'v', ARGV[1])
redis.call('HINCRBY', KEYS[1], ARGV[2], ARGV[1])
if fresh then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
redis.call('SADD', KEYS[2], KEYS[1])
return { 0, used + tokens }
`;

/** Seed: KEYS[1] the key's minute, ARGV[1] its stored tokens, ARGV[2] the time to live; only if missing. */
const TOKEN_SEED_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * Settle: KEYS[1] the key's minute, KEYS[2] the holder's set; ARGV[1] the reservation, ARGV[2] the
 * holder's field, ARGV[3] the tokens used. A minute gone (expired, Redis restarted) is left alone;
 * one that no longer holds the reservation (its holder swept, or seeded again) counts the tokens.
 */
const TOKEN_SETTLE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local reserved = tonumber(ARGV[1])
local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[2]) or '0')
if mine >= reserved and reserved > 0 then
  redis.call('HINCRBY', KEYS[1], 'v', tonumber(ARGV[3]) - reserved)
  if redis.call('HINCRBY', KEYS[1], ARGV[2], -reserved) <= 0 then
    redis.call('HDEL', KEYS[1], ARGV[2])
    redis.call('SREM', KEYS[2], KEYS[1])
  end
else
  redis.call('HINCRBY', KEYS[1], 'v', ARGV[3])
end
return 1
`;

/** A minute's counter is kept past its minute for the settles of calls still running. */
const TOKEN_KEY_TTL_MS = 10 * 60_000;

type TTokenRedis = Redis & {
  airTokenReserve(
    counter: string,
    holderSet: string,
    tokens: number,
    field: string,
    limit: number,
    ttl: number,
    seed: string,
  ): Promise<[number, number]>;
  airTokenSeed(counter: string, stored: number, ttl: number): Promise<number>;
  airTokenSettle(
    counter: string,
    holderSet: string,
    reserved: number,
    field: string,
    tokens: number,
  ): Promise<number>;
};

export function tokenKeyName(keyId: string, minute: number): string {
  return `air:tk:${keyId}:${minute}`;
}

export class RedisTokens {
  private readonly redis: TTokenRedis;
  private readonly seeding = new Map<string, Promise<void>>();
  /** Until then a missing minute is seeded from the stored usage (a restart may have lost it). */
  private seedUntil = 0;

  constructor(
    redis: Redis,
    private readonly holders: Holders,
    private readonly stored: TStoredTokens,
    private readonly now: () => number,
  ) {
    this.redis = redis as TTokenRedis;
    this.redis.defineCommand('airTokenReserve', { numberOfKeys: 2, lua: TOKEN_RESERVE_SCRIPT });
    this.redis.defineCommand('airTokenSeed', { numberOfKeys: 1, lua: TOKEN_SEED_SCRIPT });
    this.redis.defineCommand('airTokenSettle', { numberOfKeys: 2, lua: TOKEN_SETTLE_SCRIPT });
  }

  /** Redis is (again) in use: this minute's counters may be gone, and are seeded when missing. */
  connected(): void {
    this.seedUntil = (minuteOf(this.now()) + 1) * 60_000;
  }

  async reserve(accountId: string, keyId: string, limit: number, tokens: number): Promise<TTokenAnswer> {
    const time = this.now();
    const minute = minuteOf(time);
    const counter = tokenKeyName(keyId, minute);
    const holder = this.holders.field();
    const seed = time < this.seedUntil ? '1' : '0';
    const [code, used] = await this.redis.airTokenReserve(
      counter,
      this.holders.setKey(),
      tokens,
      holder,
      limit,
      TOKEN_KEY_TTL_MS,
      seed,
    );
    if (code === 2) {
      await this.seed(accountId, keyId, minute, counter);
      return this.reserve(accountId, keyId, limit, tokens);
    }
    const resetSeconds = secondsLeft(minute, time);
    if (code === 1) return { ticket: null, limit, remaining: Math.max(0, limit - used), resetSeconds };
    const ticket: TTokenTicket = { keyId, minute, reserved: tokens, shared: true, holder };
    return { ticket, limit, remaining: Math.max(0, limit - used), resetSeconds };
  }

  async settle(ticket: TTokenTicket, tokens: number): Promise<void> {
    const counter = tokenKeyName(ticket.keyId, ticket.minute);
    const holderSet = Holders.setKeyOf(ticket.holder);
    await this.redis.airTokenSettle(counter, holderSet, ticket.reserved, ticket.holder, tokens);
  }

  private seed(accountId: string, keyId: string, minute: number, counter: string): Promise<void> {
    let pending = this.seeding.get(counter);
    if (!pending) {
      pending = (async () => {
        const stored = await this.stored(accountId, keyId, new Date(minute * 60_000));
        await this.redis.airTokenSeed(counter, stored, TOKEN_KEY_TTL_MS);
      })().finally(() => this.seeding.delete(counter));
      this.seeding.set(counter, pending);
    }
    return pending;
  }
}
