import type { ProductReview } from '@verified-reviews/core'
import {
  loadStoredReviewCodec,
  queryByList,
  type ReviewStore,
  type ReviewStoreQuery,
  type StoredReviewCodec,
  type SyncCheckpoint,
  type SyncedReview,
} from '@verified-reviews/core/sync'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { defineScript } from '../internal/runner.ts'

/** Options of {@link createRedisReviewStore}. */
export interface RedisReviewStoreOptions {
  /**
   * Names this store under the connection's prefix: give the product and the brand review stores
   * different names.
   * @default 'reviews'
   */
  name?: string
}

/**
 * Takes a review out of the two view indexes of its group, when it is in them (a review stored by a
 * version without them is not): its rate is read back from its score in the date index.
 */
const UNINDEX = `
local function unindex(group, id)
  local score = redis.call('ZSCORE', dprefix .. group, id)
  if score then
    score = tonumber(score)
    local rate = score - math.floor(score / 8) * 8
    redis.call('ZREM', dprefix .. group, id)
    redis.call('ZREM', tprefix .. group, string.format('%d', rate) .. id)
  end
end
`

/**
 * Stores reviews, moves each to its group's set and view indexes, then saves the checkpoint, in one
 * script: a checkpoint never runs ahead of the reviews it counts. A store empty before the write is
 * marked as indexed. KEYS: reviews (id -> stored review), groups (id -> group), group keys (sorted set),
 * checkpoint, index mark. ARGV: group set prefix, date index prefix, rate index prefix, has-checkpoint
 * flag, checkpoint JSON, then id, group, stored form, date score and rate digit of each review. Answers 1 when
 * the store is marked as indexed.
 */
const PUT_MANY = defineScript(`
local prefix, dprefix, tprefix = ARGV[1], ARGV[2], ARGV[3]
${UNINDEX}
if redis.call('EXISTS', KEYS[5]) == 0 and redis.call('HLEN', KEYS[1]) == 0 then redis.call('SET', KEYS[5], '1') end
for i = 6, #ARGV, 5 do
  local id, group, json, score, rate = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local held = redis.call('HGET', KEYS[2], id)
  if held then unindex(held, id) end
  if held and held ~= group then
    redis.call('SREM', prefix .. held, id)
    if redis.call('SCARD', prefix .. held) == 0 then redis.call('ZREM', KEYS[3], held) end
  end
  redis.call('HSET', KEYS[1], id, json)
  redis.call('HSET', KEYS[2], id, group)
  redis.call('SADD', prefix .. group, id)
  redis.call('ZADD', KEYS[3], 0, group)
  redis.call('ZADD', dprefix .. group, score, id)
  redis.call('ZADD', tprefix .. group, 0, rate .. id)
end
if ARGV[4] == '1' then redis.call('SET', KEYS[4], ARGV[5]) end
return redis.call('EXISTS', KEYS[5])
`)

/**
 * Removes reviews and takes each out of its group's set and view indexes (and a group left empty out
 * of the group keys). KEYS: reviews, groups, group keys. ARGV: group set prefix, date index prefix,
 * rate index prefix, then the ids.
 */
const REMOVE = defineScript(`
local prefix, dprefix, tprefix = ARGV[1], ARGV[2], ARGV[3]
${UNINDEX}
for i = 4, #ARGV do
  local id = ARGV[i]
  local group = redis.call('HGET', KEYS[2], id)
  if group then
    unindex(group, id)
    redis.call('SREM', prefix .. group, id)
    if redis.call('SCARD', prefix .. group) == 0 then redis.call('ZREM', KEYS[3], group) end
  end
  redis.call('HDEL', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
end
return 1
`)

/**
 * Indexes reviews held without view indexes (written by an earlier version), skipping any the index
 * already has: `putMany` indexed it, from its latest JSON. KEYS: reviews, groups. ARGV: date index
 * prefix, rate index prefix, then id, date score and rate digit of each review, read from its JSON.
 */
const INDEX = defineScript(`
local dprefix, tprefix = ARGV[1], ARGV[2]
for i = 3, #ARGV, 3 do
  local id = ARGV[i]
  local group = redis.call('HGET', KEYS[2], id)
  if group and redis.call('HEXISTS', KEYS[1], id) == 1 and not redis.call('ZSCORE', dprefix .. group, id) then
    redis.call('ZADD', dprefix .. group, ARGV[i + 1], id)
    redis.call('ZADD', tprefix .. group, 0, ARGV[i + 2] .. id)
  end
end
return 1
`)

/**
 * One page of a view (see {@link ReviewStore.query}), read through the view indexes of its keys: per
 * key, a date index (score: publish date in epoch ms * 8 + rate digit, member: review id) and a rate
 * index (score 0, member: rate digit then review id, in byte order). Each key's index is walked in the
 * view's order (ties by ascending id in every order: a date's entries are read whole and sorted, a
 * rate's are read by id range) and the keys are merged, up to the page and one more, then one entry on
 * the other side of the position. Ids are compared byte by byte, never with Lua's `<` (locale-bound).
 * KEYS: reviews, index mark. ARGV: date index prefix, rate index prefix, order, rate mask ('' for every
 * rate, else '1' at each kept digit), direction (none, after, before), position value, position id,
 * limit, then the keys. Answers nil when the store is not marked as indexed, else more (0/1), less, and
 * the JSON of each review of the page.
 */
const QUERY = defineScript(`
if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('HLEN', KEYS[1]) > 0 then return false end
  redis.call('SET', KEYS[2], '1')
end
local dprefix, tprefix, order, mask, direction = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local limit = tonumber(ARGV[8])
local byDate = order == 'newest' or order == 'oldest'
local desc = order == 'newest' or order == 'highest'
local position = nil
if direction ~= 'none' then position = { tonumber(ARGV[6]), ARGV[7] } end

local function fmt(x) return string.format('%.17g', x) end
local function kept(rate) return mask == '' or string.sub(mask, rate + 1, rate + 1) == '1' end
local function lt(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
local function gt(a, b) return lt(b, a) end
-- Whether entry a ({ value, id }) comes before entry b in the view's order.
local function precedes(a, b)
  if a[1] ~= b[1] then return (a[1] > b[1]) == desc end
  return lt(a[2], b[2])
end
-- Whether an id lies beyond the position's id in the walk (or is it, when inclusive).
local function beyond(id, forward, inclusive)
  if id == position[2] then return inclusive end
  if forward then return lt(position[2], id) end
  return lt(id, position[2])
end

-- The entries of one key's date index in the walk: forward (the view's order) or backward.
local function dateStream(key, forward, from, inclusive, chunk)
  local s = { buffer = {}, at = 1, done = false }
  local down = desc == forward
  local bound = nil
  local function push(date, ids)
    table.sort(ids, forward and lt or gt)
    for _, id in ipairs(ids) do s.buffer[#s.buffer + 1] = { date, id } end
  end
  local function group(date, keep)
    local found = redis.call('ZRANGEBYSCORE', key, fmt(date * 8), fmt(date * 8 + 7), 'WITHSCORES')
    local ids = {}
    for i = 1, #found, 2 do
      if kept(tonumber(found[i + 1]) - date * 8) and keep(found[i]) then ids[#ids + 1] = found[i] end
    end
    push(date, ids)
  end
  local function all() return true end
  if from then
    local date = math.floor(position[1])
    if date == position[1] then
      group(date, function(id) return beyond(id, forward, inclusive) end)
      if down then bound = date * 8 else bound = date * 8 + 8 end
    else
      bound = (date + 1) * 8
    end
  end
  function s.fill()
    s.buffer, s.at = {}, 1
    local found
    if down then
      found = redis.call('ZREVRANGEBYSCORE', key, bound and '(' .. fmt(bound) or '+inf', '-inf', 'WITHSCORES', 'LIMIT', 0, chunk)
    else
      found = redis.call('ZRANGEBYSCORE', key, bound and fmt(bound) or '-inf', '+inf', 'WITHSCORES', 'LIMIT', 0, chunk)
    end
    local n = #found / 2
    if n < chunk then s.done = true end
    if n == 0 then return end
    local dates, groups = {}, {}
    for i = 1, #found, 2 do
      local score = tonumber(found[i + 1])
      local date = math.floor(score / 8)
      if dates[#dates] ~= date then
        dates[#dates + 1] = date
        groups[#groups + 1] = {}
      end
      if kept(score - date * 8) then table.insert(groups[#groups], found[i]) end
    end
    local last = dates[#dates]
    if n == chunk and #dates == 1 then
      -- One date fills the chunk: read it whole.
      group(last, all)
    else
      -- The chunk may end inside its last date: that date is read again by the next fill.
      local count = #dates
      if n == chunk then count = count - 1 end
      for i = 1, count do push(dates[i], groups[i]) end
      last = dates[count]
    end
    if down then bound = last * 8 else bound = last * 8 + 8 end
  end
  return s
end

-- The entries of one key's rate index in the walk.
local function rateStream(key, forward, from, inclusive, chunk)
  local s = { buffer = {}, at = 1, done = false }
  local down = desc == forward
  local rates = {}
  for k = 0, 7 do
    local rate = k
    if down then rate = 7 - k end
    if kept(rate) and (not from or rate == position[1] or (rate < position[1]) == down) then rates[#rates + 1] = rate end
  end
  local r, cursor = 1, nil
  if from and rates[1] == position[1] then
    cursor = (inclusive and '[' or '(') .. string.format('%d', rates[1]) .. position[2]
  end
  function s.fill()
    s.buffer, s.at = {}, 1
    local rate = rates[r]
    if rate == nil then
      s.done = true
      return
    end
    local digit, after = string.format('%d', rate), string.format('%d', rate + 1)
    local found
    if forward then
      found = redis.call('ZRANGEBYLEX', key, cursor or '[' .. digit, '(' .. after, 'LIMIT', 0, chunk)
    else
      found = redis.call('ZREVRANGEBYLEX', key, cursor or '(' .. after, '[' .. digit, 'LIMIT', 0, chunk)
    end
    for i = 1, #found do s.buffer[i] = { rate, string.sub(found[i], 2) } end
    if #found < chunk then
      r, cursor = r + 1, nil
    else
      cursor = '(' .. found[#found]
    end
  end
  return s
end

-- Up to n entries of the keys, merged, in the walk from the position (or the start).
local function walk(forward, from, inclusive, n)
  local streams = {}
  local chunk = math.max(n, 16)
  for i = 9, #ARGV do
    if byDate then
      streams[#streams + 1] = dateStream(dprefix .. ARGV[i], forward, from, inclusive, chunk)
    else
      streams[#streams + 1] = rateStream(tprefix .. ARGV[i], forward, from, inclusive, chunk)
    end
  end
  local function peek(s)
    while s.at > #s.buffer do
      if s.done then return nil end
      s.fill()
    end
    return s.buffer[s.at]
  end
  local out = {}
  while #out < n do
    local best, entry = nil, nil
    for _, s in ipairs(streams) do
      local e = peek(s)
      if e and (entry == nil or (forward and precedes(e, entry)) or (not forward and precedes(entry, e))) then
        best, entry = s, e
      end
    end
    if best == nil then break end
    best.at = best.at + 1
    out[#out + 1] = entry
  end
  return out
end

local page, more, less = {}, false, false
if direction == 'before' then
  local got = walk(false, true, false, limit + 1)
  less = #got > limit
  for i = math.min(#got, limit), 1, -1 do page[#page + 1] = got[i] end
  more = #walk(true, true, true, 1) > 0
else
  local got = walk(true, position ~= nil, false, limit + 1)
  more = #got > limit
  for i = 1, math.min(#got, limit) do page[i] = got[i] end
  less = position ~= nil and #walk(false, true, true, 1) > 0
end
local answer = { more and 1 or 0, less and 1 or 0 }
for i = 1, #page do answer[i + 2] = redis.call('HGET', KEYS[1], page[i][2]) end
return answer
`)

/** Reviews written by one script call at most: a sync page is 200; a larger write goes in parts. */
const BATCH = 500

/** The product id of a product review, the shop key of a brand review. */
function groupOf(review: SyncedReview): string {
  return 'product_variation_id' in review ? review.product_variation_id : review.shop_key
}

/** Newest published first, ties by review id, as every review store lists a group. */
function newestFirst(a: SyncedReview, b: SyncedReview): number {
  if (a.publish_date !== b.publish_date) return a.publish_date < b.publish_date ? 1 : -1
  return a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0
}

/**
 * Dates the date index holds: epoch ms within ±2^49 (some 17,800 years around 1970), so that the score
 * (ms * 8 + rate digit) stays an exact double. A date outside, or unparsable, is indexed as 0.
 */
const DATE_LIMIT = 2 ** 49

/** The largest page {@link QUERY} reads; a larger one goes through {@link queryByList}. */
const MAX_LIMIT = 10_000

/** The rate digit of the indexes: the rate when it is an integer from 0 to 6, else 7 (never a filter's). */
function rateDigit(rate: unknown): number {
  return typeof rate === 'number' && Number.isInteger(rate) && rate >= 0 && rate <= 6 ? rate : 7
}

/** The date score and rate digit a review is indexed under, as script arguments. */
function indexArgs(review: SyncedReview): [string, string] {
  const date = Date.parse(review.publish_date)
  const rate = rateDigit(review.review_rate)
  return [String((Number.isFinite(date) && Math.abs(date) <= DATE_LIMIT ? date : 0) * 8 + rate), String(rate)]
}

/**
 * The arguments of {@link QUERY} after the two prefixes, or undefined for a query the indexes cannot
 * answer as {@link queryByList} would (a position off the indexed values, a limit that is no count),
 * which `queryByList` answers then.
 */
function queryArgs(query: ReviewStoreQuery): string[] | undefined {
  const { keys, order, rates, from, limit } = query
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_LIMIT) return undefined
  if (
    from !== undefined &&
    !(Number.isFinite(from.position.value) && Math.abs(from.position.value) <= DATE_LIMIT)
  ) {
    return undefined
  }
  const kept = new Set(rates.filter((rate) => rateDigit(rate) !== 7))
  const mask =
    rates.length === 0 ? '' : Array.from({ length: 8 }, (_, digit) => (kept.has(digit) ? '1' : '0')).join('')
  return [
    order,
    mask,
    from?.direction ?? 'none',
    String(from?.position.value ?? 0),
    from?.position.id ?? '',
    String(limit),
    ...keys,
  ]
}

function parse<T>(text: unknown): T | undefined {
  return typeof text === 'string' ? (JSON.parse(text) as T) : undefined
}

/** A review as the hash holds it (the stored form, or the JSON text of earlier versions), read as bytes. */
function decoded<R>(codec: StoredReviewCodec, stored: unknown): R | undefined {
  return stored instanceof Uint8Array ? codec.decode<R>(stored) : undefined
}

/**
 * A `ReviewStore` of the sync in Redis, shared by every server: the store of the Next revalidate route
 * (`createRevalidateRoute({ store })`) on several servers or on a serverless host, where files do not
 * survive between calls, and of `syncProductReviews` / `syncBrandReviews` anywhere. Reviews are in a hash
 * in their stored form (their JSON compressed: `StoredReviewCodec` of `@verified-reviews/core/sync`; the
 * JSON text that earlier versions wrote is read too, and each review is stored anew when a sync writes it
 * again), grouped by product (or shop) in sets; `putMany` stores a page of reviews and the checkpoint in
 * one script, so a sync interrupted anywhere resumes from a checkpoint that never runs ahead of its
 * reviews. Every step is linear in the reviews it touches: no read of the whole store per page.
 *
 * `query` (a page of a view of the replica) reads two sorted sets per product, by date and by rate,
 * which `putMany` and `removeExcept` keep in their scripts: about one page of entries and the JSON of
 * the page's reviews, whatever the product's size, answering exactly as {@link queryByList} would. A
 * store written by an earlier version, without those sets, is detected by its missing `index` key: its
 * views are answered by {@link queryByList} (from `list`) while the first `query`, in the background, or
 * the first `putMany`, awaited, builds them once from the reviews' JSON.
 *
 * While Redis is unavailable, its methods throw `RedisUnavailableError`: a sync fails (the revalidate
 * route answers 502) and the next one resumes from the checkpoint Redis still holds; pages keep
 * rendering from the API and the cache.
 */
export function createRedisReviewStore<R extends SyncedReview = ProductReview>(
  connection: RedisConnection,
  options: RedisReviewStoreOptions = {},
): ReviewStore<R> {
  const runner = runnerOf(connection)
  const base = `${runner.prefix}${options.name ?? 'reviews'}:`
  const reviewsKey = `${base}r`
  const groupsKey = `${base}g`
  const groupKeysKey = `${base}keys`
  const checkpointKey = `${base}checkpoint`
  const groupPrefix = `${base}k:`
  const datePrefix = `${base}d:`
  const ratePrefix = `${base}t:`
  const indexedKey = `${base}index`
  const buildingKey = `${base}index:build`
  /** The marks of the full syncs (`markSeen`): review ids scored by the generation that last saw them. */
  const seenKey = `${base}seen`
  // Loaded on first use: `node:zlib` (a promise of the module, made once).
  let codec: Promise<StoredReviewCodec> | undefined
  const codecOf = () => {
    codec ??= loadStoredReviewCodec()
    return codec
  }

  /**
   * Visits every field of a hash with its value (as bytes with `bytes`), 1,000 at a time (a field seen
   * twice is visited twice), and calls `visited` after each of those.
   */
  const scan = async <V extends string | Buffer = string>(
    key: string,
    visit: (field: string, value: V) => void,
    bytes = false,
    visited?: () => Promise<void>,
  ): Promise<void> => {
    let cursor = '0'
    do {
      const [next, pairs] = (await runner.send(
        ['HSCAN', key, cursor, 'COUNT', '1000'],
        undefined,
        bytes,
      )) as [string | Buffer, (string | Buffer)[]]
      for (let i = 0; i + 1 < pairs.length; i += 2) visit(String(pairs[i]), pairs[i + 1] as V)
      await visited?.()
      cursor = String(next)
    } while (cursor !== '0')
  }

  /**
   * Indexes the reviews of a store written by an earlier version (no view indexes), from their stored form,
   * then marks it indexed; one server at a time (a lock of 5 minutes, which a build that stopped half
   * way lets expire: the next build goes over what that one indexed again, skipping it).
   */
  const build = async (): Promise<void> => {
    if ((await runner.send(['SET', buildingKey, '1', 'NX', 'EX', '300'])) !== 'OK') return
    const stored = await codecOf()
    let args: string[] = []
    await scan<Buffer>(
      reviewsKey,
      (id, value) => {
        const review = decoded<SyncedReview>(stored, value)
        if (review !== undefined) args.push(id, ...indexArgs(review))
      },
      true,
      async () => {
        for (let start = 0; start < args.length; start += 3 * BATCH) {
          await runner.script(
            INDEX,
            [reviewsKey, groupsKey],
            [datePrefix, ratePrefix, ...args.slice(start, start + 3 * BATCH)],
          )
        }
        args = []
      },
    )
    await runner.send(['SET', indexedKey, '1'])
    await runner.send(['DEL', buildingKey])
  }
  let building: Promise<void> | undefined
  /** Builds the indexes once per store object at a time (see {@link build}). */
  const ensureIndexed = (): Promise<void> => {
    building ??= build().finally(() => {
      building = undefined
    })
    return building
  }

  const getMany = async (ids: readonly string[]): Promise<(R | undefined)[]> => {
    const stored = await codecOf()
    const found: (R | undefined)[] = []
    for (let start = 0; start < ids.length; start += BATCH) {
      const values = (await runner.send(
        ['HMGET', reviewsKey, ...ids.slice(start, start + BATCH)],
        undefined,
        true,
      )) as unknown[]
      for (const value of values) found.push(decoded<R>(stored, value))
    }
    return found
  }

  const removeIds = async (removed: readonly string[]): Promise<void> => {
    for (let start = 0; start < removed.length; start += BATCH) {
      await runner.script(
        REMOVE,
        [reviewsKey, groupsKey, groupKeysKey],
        [groupPrefix, datePrefix, ratePrefix, ...removed.slice(start, start + BATCH)],
      )
    }
  }

  const store: ReviewStore<R> = {
    async get(reviewId) {
      const stored = await codecOf()
      return decoded<R>(stored, await runner.send(['HGET', reviewsKey, reviewId], undefined, true))
    },
    getMany: (reviewIds) => (reviewIds.length === 0 ? Promise.resolve([]) : getMany(reviewIds)),
    async has(reviewId) {
      return (await runner.send(['HEXISTS', reviewsKey, reviewId])) === 1
    },
    async putMany(reviews: readonly R[], checkpoint?: SyncCheckpoint) {
      const stored = await codecOf()
      const keys = [reviewsKey, groupsKey, groupKeysKey, checkpointKey, indexedKey]
      let indexed = true
      // The checkpoint goes with the last part, after every review it counts.
      for (let start = 0; start < reviews.length || start === 0; start += BATCH) {
        const part = reviews.slice(start, start + BATCH)
        const last = start + BATCH >= reviews.length
        const withCheckpoint = last && checkpoint !== undefined
        const args: (string | Buffer)[] = [
          groupPrefix,
          datePrefix,
          ratePrefix,
          withCheckpoint ? '1' : '0',
          withCheckpoint ? JSON.stringify(checkpoint) : '',
        ]
        for (const review of part) {
          const value = stored.encode(JSON.stringify(review))
          args.push(
            review.review_id,
            groupOf(review),
            Buffer.from(value.buffer, value.byteOffset, value.length),
            ...indexArgs(review),
          )
        }
        if (part.length > 0 || withCheckpoint) indexed = (await runner.script(PUT_MANY, keys, args)) === 1
      }
      // A store of an earlier version: the sync that writes to it indexes it.
      if (!indexed) await ensureIndexed()
    },
    async list(key) {
      const ids = (await runner.send(['SMEMBERS', `${groupPrefix}${key}`])) as string[]
      const reviews = await getMany(ids)
      return reviews.filter((review): review is R => review !== undefined).sort(newestFirst)
    },
    async removeExcept(kept) {
      const removed: string[] = []
      const groups = new Set<string>()
      // Ids and groups only: no review is read.
      await scan(groupsKey, (id, group) => {
        if (kept.has(id)) return
        removed.push(id)
        groups.add(group)
      })
      for (let start = 0; start < removed.length; start += BATCH) {
        await runner.script(
          REMOVE,
          [reviewsKey, groupsKey, groupKeysKey],
          [groupPrefix, datePrefix, ratePrefix, ...removed.slice(start, start + BATCH)],
        )
      }
      return [...groups].sort()
    },
    async query(query) {
      const args = queryArgs(query)
      const answer =
        args === undefined
          ? null
          : ((await runner.script(
              QUERY,
              [reviewsKey, indexedKey],
              [datePrefix, ratePrefix, ...args],
              true,
            )) as unknown[] | null)
      if (answer === null) {
        // Not indexed yet (written by an earlier version): answered from the lists meanwhile.
        if (args !== undefined) ensureIndexed().catch(() => {})
        return queryByList(store, query)
      }
      const stored = await codecOf()
      const data = answer
        .slice(2)
        .map((value) => decoded<R>(stored, value))
        .filter((review) => review !== undefined)
      return { data, more: answer[0] === 1, less: answer[1] === 1 }
    },
    async markSeen(reviewIds, generation) {
      for (let start = 0; start < reviewIds.length; start += BATCH) {
        const args = ['ZADD', seenKey, 'GT']
        for (const id of reviewIds.slice(start, start + BATCH)) args.push(String(generation), id)
        if (args.length > 3) await runner.send(args)
      }
    },
    async removeUnseen(generation) {
      const removed: string[] = []
      const groups = new Set<string>()
      // Ids and groups only, 1,000 at a time with their marks: neither every id nor any JSON is held.
      let cursor = '0'
      do {
        const [next, pairs] = (await runner.send(['HSCAN', groupsKey, cursor, 'COUNT', '1000'])) as [
          string,
          string[],
        ]
        const ids = pairs.filter((_, i) => i % 2 === 0)
        const marks = ids.length === 0 ? [] : ((await runner.send(['ZMSCORE', seenKey, ...ids])) as unknown[])
        ids.forEach((id, i) => {
          if (marks[i] !== null && marks[i] !== undefined && Number(marks[i]) >= generation) return
          removed.push(id)
          groups.add(pairs[2 * i + 1] as string)
        })
        cursor = next
      } while (cursor !== '0')
      await removeIds([...new Set(removed)])
      await runner.send(['ZREMRANGEBYSCORE', seenKey, '-inf', String(generation)])
      return [...groups].sort()
    },
    async removeMany(reviewIds) {
      const groups = new Set<string>()
      for (let start = 0; start < reviewIds.length; start += BATCH) {
        const ids = reviewIds.slice(start, start + BATCH)
        const held = (await runner.send(['HMGET', groupsKey, ...ids])) as unknown[]
        for (const group of held) if (typeof group === 'string') groups.add(group)
      }
      await removeIds(reviewIds)
      if (reviewIds.length > 0) await runner.send(['ZREM', seenKey, ...reviewIds])
      return [...groups].sort()
    },
    async countByKey(keys) {
      const counts: number[] = []
      for (const key of keys) counts.push(Number(await runner.send(['SCARD', `${groupPrefix}${key}`])))
      return counts
    },
    async keys() {
      const keys = (await runner.send(['ZRANGE', groupKeysKey, '0', '-1'])) as string[]
      return keys.sort()
    },
    async all() {
      const stored = await codecOf()
      const reviews = new Map<string, R>()
      await scan<Buffer>(reviewsKey, (id, value) => reviews.set(id, stored.decode<R>(value)), true)
      return [...reviews.values()]
    },
    async count() {
      return Number(await runner.send(['HLEN', reviewsKey]))
    },
    async getCheckpoint() {
      return parse<SyncCheckpoint>(await runner.send(['GET', checkpointKey]))
    },
    async setCheckpoint(checkpoint) {
      await runner.send(['SET', checkpointKey, JSON.stringify(checkpoint)])
    },
  }
  return store
}
