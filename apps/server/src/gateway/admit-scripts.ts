/* The call counters' scripts in Redis (redis-counters.ts): the rate limit, the quota and the key caps. */

/**
 * One script run per call: the key's counter for this minute, then the account's counter for this
 * month, then (for a key with a monthly cap, ARGV[3] > 0) the key's counter for this month, each
 * checked and incremented atomically (no other call can run between check and increment, on any
 * instance). When every counter has ARGV[5] calls of room left, it counts ARGV[4] calls at once
 * (a lease, admit-leases.ts). -1: rate limit hit; -2 (-4): the account's (key's) month counter does
 * not exist yet (the caller seeds it from the stored usage and runs the script again; the rate hit
 * is taken back); -3: quota reached; -5: the key's cap reached; else the calls counted (1, or the
 * lease's size). KEYS[4] is the holder's set of leased months.
 */
export const ADMIT_SCRIPT = `
local rate = redis.call('INCR', KEYS[1])
if rate == 1 then redis.call('PEXPIRE', KEYS[1], 61000) end
local rateLimit = tonumber(ARGV[1])
if rate > rateLimit then return -1 end
local used = redis.call('GET', KEYS[2])
if not used then
  redis.call('DECR', KEYS[1])
  return -2
end
used = tonumber(used)
local quota = tonumber(ARGV[2])
if used >= quota then return -3 end
local cap = tonumber(ARGV[3])
local keyUsed = 0
if cap > 0 then
  local counted = redis.call('GET', KEYS[3])
  if not counted then
    redis.call('DECR', KEYS[1])
    return -4
  end
  keyUsed = tonumber(counted)
  if keyUsed >= cap then return -5 end
end
local grant = 1
local room = tonumber(ARGV[5])
if rateLimit - rate >= room and quota - used >= room and (cap == 0 or cap - keyUsed >= room) then
  grant = tonumber(ARGV[4])
  redis.call('INCRBY', KEYS[1], grant - 1)
  -- The months a block was leased from, in the holder's set: if this instance dies with calls of
  -- the block unused, they are dropped and seeded again from the stored calls (holders.ts).
  redis.call('SADD', KEYS[4], KEYS[2])
  if cap > 0 then redis.call('SADD', KEYS[4], KEYS[3]) end
end
if cap > 0 then redis.call('INCRBY', KEYS[3], grant) end
redis.call('INCRBY', KEYS[2], grant)
return grant
`;

/** A lease's unused calls, given back to the counters that still exist (KEYS[3] may repeat KEYS[2]). */
export const GIVE_BACK_SCRIPT = `
for i = 1, #KEYS do
  if (i < 3 or KEYS[i] ~= KEYS[2]) and redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('DECRBY', KEYS[i], ARGV[1])
  end
end
return 0
`;

/** The rate window alone (a refused call of a known key): its count this minute. */
export const RATE_SCRIPT = `
local rate = redis.call('INCR', KEYS[1])
if rate == 1 then redis.call('PEXPIRE', KEYS[1], 61000) end
return rate
`;
