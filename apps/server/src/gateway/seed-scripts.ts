/*
 * The scripts and names behind the correction of counters seeded again after a loss
 * (seed-corrections.ts, decision 049). `air:lost:<counter>` holds when a counter was dropped on
 * purpose (an instance's months re-seeded after it counted locally, a dead holder's leased months):
 * the next seed corrects for the calls counted before that instant. A seed that corrects itself
 * leaves a token (`air:seed:<counter>` for a month of calls, the `g` field of a spend counter) so
 * that its corrections stop once the counter is seeded again.
 */

export function lostKeyOf(counter: string): string {
  return `air:lost:${counter}`;
}

export function seedTokenKeyOf(counter: string): string {
  return `air:seed:${counter}`;
}

/**
 * KEYS[1] a month's counter, KEYS[2] its seed token; ARGV[1] the stored calls, ARGV[2] the token,
 * ARGV[3] the counter's time to live, ARGV[4] the token's. 1: seeded by this call; 0: another
 * instance seeded it first (its own corrections apply).
 */
export const SEED_CALLS_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3], 'NX') then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[4])
  return 1
end
return 0
`;

/** KEYS[1] the counter, KEYS[2] its seed token; ARGV[1] the token, ARGV[2] the calls to add. */
export const CORRECT_CALLS_SCRIPT = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] or redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1
`;

/** KEYS[1] a spend counter; ARGV[1] its seed's token, ARGV[2] the nanos to add. */
export const CORRECT_SPEND_SCRIPT = `
if redis.call('HGET', KEYS[1], 'g') ~= ARGV[1] then return 0 end
redis.call('HINCRBY', KEYS[1], 'v', ARGV[2])
return 1
`;
