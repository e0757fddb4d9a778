import { NANOS_PER_MINOR, PICOS_PER_NANO } from './units';

/*
 * Reservation and settlement against a limit in money (the account's spend limit), in nanos
 * (units.ts): admission reserves the most a call can cost, the end replaces it with what the call
 * costs, capped at what is left. The counters that hold `spent` are the gateway's
 * (gateway/spend.ts in memory, redis-spend.ts in Redis, which runs the same rules in Lua); they
 * take picos and count nanos, converting here.
 */

/** A limit in minor units as nanos (a safe integer: limits are at most SPEND_LIMIT_MAX_MINOR). */
export function limitNanosOf(limitMinor: number): number {
  return limitMinor * NANOS_PER_MINOR;
}

/** Picos as the counters' nanos, rounded up: a counter never holds less than was spent. */
export function picosToNanosUp(picos: number | bigint): number {
  if (typeof picos === 'bigint') {
    const per = BigInt(PICOS_PER_NANO);
    return picos <= 0n ? 0 : Number((picos + per - 1n) / per);
  }
  return picos <= 0 ? 0 : Math.ceil(picos / PICOS_PER_NANO);
}

/**
 * What a call costing `costPicos` is charged, in picos, when its counter charged it `chargedNanos`:
 * the exact cost when the counter took all of it (rounded up), else the counter's cap.
 */
export function chargedPicosOf(costPicos: number, chargedNanos: number): number {
  return chargedNanos >= picosToNanosUp(costPicos) ? costPicos : chargedNanos * PICOS_PER_NANO;
}

/** May `reserved` more be taken with `spent` counted? A zero reservation needs room left. */
export function fits(spent: number, reserved: number, limit: number): boolean {
  return reserved > 0 ? spent + reserved <= limit : spent < limit;
}

/** What a call that reserved `reserved` is charged for costing `cost`, with `spent` counted (its reservation included). */
export function chargeOf(spent: number, reserved: number, cost: number, limit: number): number {
  if (cost <= reserved) return cost;
  return reserved + Math.max(0, Math.min(cost - reserved, limit - spent));
}
