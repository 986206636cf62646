import { randomUUID } from 'node:crypto'
import { type RateBudgetAnswer, type SharedRateBudget, ValidationError } from '@verified-reviews/core'
import { type RateWindow, rateWindowsOf } from '@verified-reviews/core/internal'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { positive } from '../internal/check.ts'
import { retryDelay } from '../internal/rate-headers.ts'
import { defineScript } from '../internal/runner.ts'

export type { RateWindow } from '@verified-reviews/core/internal'

/** Options of {@link createRedisRateBudget}. */
export interface RedisRateBudgetOptions {
  /**
   * The API's limits, when you know them (the API's numbers are per account). Without them, the budget
   * learns them from the rate-limit headers of the answers (`X-RateLimit-Limit-Second`,
   * `X-RateLimit-Limit-Minute`, `RateLimit-Policy`, or `RateLimit-Limit` with a reset of one second);
   * until the first answer tells them, one request goes at a time.
   * @default learned from the answers
   */
  limits?: readonly RateWindow[]
  /**
   * Milliseconds added to every window, for a difference between the clocks of Redis and of the API.
   * @default 100
   */
  margin?: number
  /**
   * Milliseconds a request that has not ended yet (its answer not told to the budget) holds its place
   * at most, for a process that died while it was under way.
   * @default 30_000
   */
  inFlightTimeout?: number
  /**
   * Names this budget under the connection's prefix.
   * @default 'budget'
   */
  name?: string
}

/** Milliseconds between two looks at the budget while the requests that fill it are under way. */
const POLL_MS = 25

// One sliding window per limit: a sorted set of the requests that left, each scored by when it ended
// (a request under way is scored in the future, so it holds its place until it ends: the API counts a
// request when it arrives, which is before it ends). A request goes when every window has room, and
// then counts in all of them. Time is Redis's, the same for every instance.
// KEYS: learned limits, 429 block, window keys. ARGV: margin, member, window prefix, in-flight ms,
// poll ms, then the configured limits as (window ms, requests) pairs.
const RESERVE = defineScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local blocked = tonumber(redis.call('GET', KEYS[2]) or '0')
if blocked > now then return blocked - now end
local margin, inflight, poll = tonumber(ARGV[1]), tonumber(ARGV[4]), tonumber(ARGV[5])
local limits = {}
local unknown = false
if #ARGV > 5 then
  for i = 6, #ARGV, 2 do limits[#limits + 1] = { tonumber(ARGV[i]), tonumber(ARGV[i + 1]) } end
else
  local learned = redis.call('HGETALL', KEYS[1])
  if #learned == 0 then
    unknown = true
    limits[1] = { 1000, 1 }
  else
    for i = 1, #learned, 2 do
      if learned[i] ~= 'none' then limits[#limits + 1] = { tonumber(learned[i]), tonumber(learned[i + 1]) } end
    end
  end
end
local wait = 0
for _, limit in ipairs(limits) do
  local window = ARGV[3] .. limit[1]
  local span = limit[1] + margin
  redis.call('ZREMRANGEBYSCORE', window, '-inf', now - span)
  local count = redis.call('ZCARD', window)
  if count >= limit[2] then
    local held = redis.call('ZRANGE', window, count - limit[2], count - limit[2], 'WITHSCORES')
    local ended = tonumber(held[2])
    local free = poll
    if ended <= now then free = ended + span - now end
    if free > wait then wait = free end
  end
end
if wait > 0 then
  if unknown and wait > poll then return poll end
  return math.ceil(wait)
end
for _, limit in ipairs(limits) do
  local window = ARGV[3] .. limit[1]
  redis.call('ZADD', window, now + inflight, ARGV[2])
  redis.call('PEXPIRE', window, inflight + limit[1] + margin)
  redis.call('SADD', KEYS[3], window)
end
redis.call('PEXPIRE', KEYS[3], inflight + 3600000)
return 0
`)

// Scores the request that ended at the time it ended; a 429 stops every instance until the API's
// reset; other answers teach the limits. ARGV: status, 429 wait ms, learn flag, member (or ''), then
// the learned (window ms, requests) pairs, or 'none'.
const SETTLE = defineScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[4] ~= '' then
  for _, window in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    redis.call('ZADD', window, 'XX', now, ARGV[4])
  end
end
if ARGV[1] == '429' then
  local ms = tonumber(ARGV[2])
  local blocked = tonumber(redis.call('GET', KEYS[2]) or '0')
  if now + ms > blocked then redis.call('SET', KEYS[2], now + ms, 'PX', ms) end
  return 1
end
if ARGV[3] ~= '1' then return 0 end
if #ARGV >= 6 then
  redis.call('DEL', KEYS[1])
  for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
elseif ARGV[5] == 'none' and redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'none', '1')
end
redis.call('PEXPIRE', KEYS[1], 3600000)
return 1
`)

function checkWindows(limits: readonly RateWindow[]): void {
  limits.forEach((limit, index) => {
    for (const field of ['requests', 'windowMs'] as const) {
      const value = limit?.[field]
      if (!(Number.isInteger(value) && value > 0)) {
        throw new ValidationError([
          { field: `limits[${index}].${field}`, message: `must be a positive integer, got ${String(value)}` },
        ])
      }
    }
  })
}

/**
 * A {@link SharedRateBudget} in Redis, the client's `rateBudget`: every instance takes each request
 * from one budget, in one Lua script (atomic, on Redis's clock), so that N instances together stay under
 * the API's limit. Each limit is a sliding window of requests: a request holds its place from when it
 * leaves, while it is under way, and until `windowMs + margin` after it ended (when its answer, or its
 * failure, is told to the budget). The API counts a request when it arrives, which is between the two,
 * so at most `requests` requests reach the API in any `windowMs`, however long they take to get there.
 * A 429 answered to any instance holds every instance until the API's `Retry-After`.
 *
 * While Redis is unavailable, its methods throw `RedisUnavailableError` at once: each client's own
 * budget (which reads the API's rate-limit headers) then decides alone.
 */
export function createRedisRateBudget(
  connection: RedisConnection,
  options: RedisRateBudgetOptions = {},
): SharedRateBudget {
  const runner = runnerOf(connection)
  const margin = options.margin ?? 100
  if (!(Number.isInteger(margin) && margin >= 0)) {
    throw new ValidationError([
      { field: 'margin', message: 'must be an integer number of milliseconds, 0 or more' },
    ])
  }
  const inFlightTimeout = Math.ceil(positive('inFlightTimeout', options.inFlightTimeout ?? 30_000))
  const configured = options.limits
  if (configured !== undefined) checkWindows(configured)
  const pairs = (configured ?? []).flatMap((limit) => [String(limit.windowMs), String(limit.requests)])
  const base = `${runner.prefix}${options.name ?? 'budget'}:`
  const keysOf = (key: string) => [`${base}${key}:limits`, `${base}${key}:block`, `${base}${key}:windows`]
  // The requests this instance let go and that have not ended, by key. Which one a settle ends does not
  // matter: the windows only count how many requests ended when, so the oldest is taken.
  const underWay = new Map<string, string[]>()

  return {
    async reserve(key) {
      const member = randomUUID()
      const wait = await runner.script(RESERVE, keysOf(key), [
        String(margin),
        member,
        `${base}${key}:w:`,
        String(inFlightTimeout),
        String(POLL_MS),
        ...pairs,
      ])
      if (typeof wait === 'number' && wait > 0) return wait
      const members = underWay.get(key) ?? []
      members.push(member)
      underWay.set(key, members)
      return 0
    },
    async settle(key, answer: RateBudgetAnswer) {
      const members = underWay.get(key)
      const member = members?.shift() ?? ''
      if (members?.length === 0) underWay.delete(key)
      const learn = configured === undefined && answer.status > 0 && answer.status < 500
      const learned = learn
        ? rateWindowsOf(answer.headers).flatMap((limit) => [String(limit.windowMs), String(limit.requests)])
        : []
      await runner.script(SETTLE, keysOf(key), [
        String(answer.status),
        answer.status === 429 ? String(retryDelay(answer.headers)) : '0',
        learn ? '1' : '0',
        member,
        ...(learned.length > 0 ? learned : ['none']),
      ])
    },
  }
}
