/*
 * The spend counters' scripts in Redis (redis-spend.ts). A counter is a hash per limit and period:
 * `v` what is spent (reservations included), `s` the limit (its save time, or a key's budget) it
 * was seeded for, `c` the charges settled, and one field per holder, `h:<holder>`, with the
 * reservations that holder has not settled yet (holders.ts: an instance's connection to Redis; a
 * holder that stops beating is swept and its holds given back, so a process killed with calls in
 * flight leaves nothing counted). A call under several limits (the account's spend limit and the
 * key's budget) reserves and settles on all of them in one script. Sums go through HINCRBY with the
 * caller's own digits where they can, and stay under 2^53 (limits are at most 1e15 nanos).
 */

/**
 * Reserve: KEYS[1..n] the counters, KEYS[n+1] the holder's set of counters; ARGV[1] the
 * reservation, ARGV[2] the holder's field, then per counter its limit and what names it. -i: the
 * i-th counter is not seeded for this limit yet (the caller seeds it and runs the script again);
 * -(10 + i): it would pass the i-th limit; 0: reserved on every counter.
 */
export const RESERVE_SCRIPT = `
local n = #KEYS - 1
local reserved = tonumber(ARGV[1])
for i = 1, n do
  if redis.call('HGET', KEYS[i], 's') ~= ARGV[2 + 2 * i] then return -i end
end
for i = 1, n do
  local spent = tonumber(redis.call('HGET', KEYS[i], 'v'))
  local limit = tonumber(ARGV[1 + 2 * i])
  if reserved > 0 then
    if spent + reserved > limit then return -(10 + i) end
  elseif spent >= limit then
    return -(10 + i)
  end
end
for i = 1, n do
  redis.call('HINCRBY', KEYS[i], 'v', ARGV[1])
  redis.call('HINCRBY', KEYS[i], ARGV[2], ARGV[1])
  redis.call('SADD', KEYS[n + 1], KEYS[i])
end
return 0
`;

/**
 * Seed (once per limit, on any instance): KEYS[1] the counter, ARGV[1] the stored spend, ARGV[2]
 * the charges settled when the seed began (read before the pending rows were written), ARGV[3]
 * what names the limit, ARGV[4] the counter's time to live, ARGV[5] the seed's token when it
 * corrects itself after a loss (seed-scripts.ts), else ''. The counter becomes the stored spend
 * plus every holder's reservations and the charges settled since the mark. 1: seeded by this
 * call; 0: seeded already.
 */
export const SEED_SPEND_SCRIPT = `
if redis.call('HGET', KEYS[1], 's') == ARGV[3] then return 0 end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'g', ARGV[5]) else redis.call('HDEL', KEYS[1], 'g') end
local fields = redis.call('HGETALL', KEYS[1])
local held = 0
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 2) == 'h:' then held = held + tonumber(fields[i + 1]) end
end
local settled = redis.call('HGET', KEYS[1], 'c') or '0'
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', ARGV[3], 'c', settled)
if held > 0 then redis.call('HINCRBY', KEYS[1], 'v', string.format('%d', held)) end
if tonumber(settled) > tonumber(ARGV[2]) then
  redis.call('HINCRBY', KEYS[1], 'v', settled)
  if ARGV[2] ~= '0' then redis.call('HINCRBY', KEYS[1], 'v', '-' .. ARGV[2]) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

/**
 * Settle: KEYS[1..n] the counters, KEYS[n+1] the holder's set; ARGV[1] the reservation, ARGV[2]
 * the holder's field, ARGV[3] the cost, then each counter's limit. The charge is the cost, capped
 * at what is left of the tightest limit (modules/money's chargeOf on each), and is counted on
 * every counter. A counter that no longer holds the reservation (Redis restarted and it was seeded
 * again, or the holder was swept) counts the charge alone; one gone charges up to the reservation.
 */
export const SETTLE_SCRIPT = `
local n = #KEYS - 1
local reserved = tonumber(ARGV[1])
local cost = tonumber(ARGV[3])
local charged = cost
local holds = {}
for i = 1, n do
  local spent = redis.call('HGET', KEYS[i], 'v')
  if not spent then
    holds[i] = 'gone'
    if reserved < charged then charged = reserved end
  else
    spent = tonumber(spent)
    local limit = tonumber(ARGV[3 + i])
    local mine = tonumber(redis.call('HGET', KEYS[i], ARGV[2]) or '0')
    local room = limit - spent
    local most
    if mine >= reserved then
      holds[i] = 'held'
      most = cost
      if cost > reserved then
        if room < 0 then room = 0 end
        if cost - reserved < room then room = cost - reserved end
        most = reserved + room
      end
    else
      holds[i] = 'not'
      if room < 0 then room = 0 end
      most = cost
      if room < most then most = room end
    end
    if most < charged then charged = most end
  end
end
for i = 1, n do
  if holds[i] == 'held' then
    if charged ~= reserved then redis.call('HINCRBY', KEYS[i], 'v', string.format('%d', charged - reserved)) end
    if reserved > 0 then
      if redis.call('HINCRBY', KEYS[i], ARGV[2], '-' .. ARGV[1]) <= 0 then
        redis.call('HDEL', KEYS[i], ARGV[2])
        redis.call('SREM', KEYS[n + 1], KEYS[i])
      end
    end
  elseif holds[i] == 'not' and charged > 0 then
    redis.call('HINCRBY', KEYS[i], 'v', string.format('%d', charged))
  end
  if holds[i] ~= 'gone' then redis.call('HINCRBY', KEYS[i], 'c', string.format('%d', charged)) end
end
return charged
`;
