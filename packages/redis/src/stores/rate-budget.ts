import { randomUUID } from 'node:crypto'
import { type RateBudgetAnswer, type SharedRateBudget, ValidationError } from '@verified-reviews/core'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { retryDelay, windowsOf } from '../internal/rate-headers.ts'
import { defineScript } from '../internal/runner.ts'

/** One rate window of an API: at most `requests` requests in any `windowMs` milliseconds. */
export interface RateWindow {
  requests: number
  windowMs: number
}

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
   * Milliseconds added to every window, for requests that reach the API later than they left the
   * budget (a slow network, a busy event loop): the budget never lets more than the limit go in any
   * window this much longer than the API's.
   * @default 100
   */
  margin?: number
  /**
   * Names this budget under the connection's prefix.
   * @default 'budget'
   */
  name?: string
}

// One sliding window per limit (a sorted set of the times requests left): a request goes when every
// window has room, and then counts in all of them. Time is Redis's, the same for every instance.
const RESERVE = defineScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local blocked = tonumber(redis.call('GET', KEYS[2]) or '0')
if blocked > now then return blocked - now end
local margin = tonumber(ARGV[1])
local limits = {}
local unknown = false
if #ARGV > 3 then
  for i = 4, #ARGV, 2 do limits[#limits + 1] = { tonumber(ARGV[i]), tonumber(ARGV[i + 1]) } end
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
    local oldest = redis.call('ZRANGE', window, count - limit[2], count - limit[2], 'WITHSCORES')
    local free = tonumber(oldest[2]) + span - now
    if free > wait then wait = free end
  end
end
if wait > 0 then
  if unknown and wait > 50 then return 50 end
  return math.ceil(wait)
end
for _, limit in ipairs(limits) do
  local window = ARGV[3] .. limit[1]
  redis.call('ZADD', window, now, ARGV[2])
  redis.call('PEXPIRE', window, limit[1] + margin)
end
return 0
`)

// A 429 stops every instance until the API's reset; other answers teach the limits.
const SETTLE = defineScript(`
if ARGV[1] == '429' then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local ms = tonumber(ARGV[2])
  local blocked = tonumber(redis.call('GET', KEYS[2]) or '0')
  if now + ms > blocked then redis.call('SET', KEYS[2], now + ms, 'PX', ms) end
  return 1
end
if ARGV[3] ~= '1' then return 0 end
if #ARGV >= 5 then
  redis.call('DEL', KEYS[1])
  for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
elseif ARGV[4] == 'none' and redis.call('EXISTS', KEYS[1]) == 0 then
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
 * the API's limit. Each limit is a sliding window: at most `requests` requests leave in any
 * `windowMs + margin` milliseconds. A 429 answered to any instance holds every instance until the
 * API's `Retry-After`.
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
  const configured = options.limits
  if (configured !== undefined) checkWindows(configured)
  const pairs = (configured ?? []).flatMap((limit) => [String(limit.windowMs), String(limit.requests)])
  const base = `${runner.prefix}${options.name ?? 'budget'}:`
  const keysOf = (key: string) => [`${base}${key}:limits`, `${base}${key}:block`]

  return {
    async reserve(key) {
      const wait = await runner.script(RESERVE, keysOf(key), [
        String(margin),
        randomUUID(),
        `${base}${key}:w:`,
        ...pairs,
      ])
      return typeof wait === 'number' && wait > 0 ? wait : 0
    },
    async settle(key, answer: RateBudgetAnswer) {
      if (answer.status === 429) {
        await runner.script(SETTLE, keysOf(key), ['429', String(retryDelay(answer.headers)), '0'])
        return
      }
      if (configured !== undefined || answer.status >= 500) return
      const learned = windowsOf(answer.headers).flatMap((limit) => [
        String(limit.windowMs),
        String(limit.requests),
      ])
      await runner.script(SETTLE, keysOf(key), [
        String(answer.status),
        '0',
        '1',
        ...(learned.length > 0 ? learned : ['none']),
      ])
    },
  }
}
