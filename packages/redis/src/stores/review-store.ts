import type { ProductReview } from '@verified-reviews/core'
import {
  loadStoredReviewCodec,
  type ReviewStore,
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
 * Stores reviews and moves each to its group's set, then saves the checkpoint, in one script: a
 * checkpoint never runs ahead of the reviews it counts. KEYS: reviews (id -> stored review), groups (id ->
 * group), group keys (sorted set), checkpoint. ARGV: group set prefix, has-checkpoint flag,
 * checkpoint JSON, then id, group, stored form of each review.
 */
const PUT_MANY = defineScript(`
local prefix = ARGV[1]
for i = 4, #ARGV, 3 do
  local id, group, json = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local held = redis.call('HGET', KEYS[2], id)
  if held and held ~= group then
    redis.call('SREM', prefix .. held, id)
    if redis.call('SCARD', prefix .. held) == 0 then redis.call('ZREM', KEYS[3], held) end
  end
  redis.call('HSET', KEYS[1], id, json)
  redis.call('HSET', KEYS[2], id, group)
  redis.call('SADD', prefix .. group, id)
  redis.call('ZADD', KEYS[3], 0, group)
end
if ARGV[2] == '1' then redis.call('SET', KEYS[4], ARGV[3]) end
return 1
`)

/**
 * Removes reviews and takes each out of its group's set (and a group left empty out of the group keys).
 * KEYS: reviews, groups, group keys. ARGV: group set prefix, then the ids.
 */
const REMOVE = defineScript(`
local prefix = ARGV[1]
for i = 2, #ARGV do
  local id = ARGV[i]
  local group = redis.call('HGET', KEYS[2], id)
  if group then
    redis.call('SREM', prefix .. group, id)
    if redis.call('SCARD', prefix .. group) == 0 then redis.call('ZREM', KEYS[3], group) end
  end
  redis.call('HDEL', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
end
return 1
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
  // Loaded on first use: `node:zlib` (a promise of the module, made once).
  let codec: Promise<StoredReviewCodec> | undefined
  const codecOf = () => {
    codec ??= loadStoredReviewCodec()
    return codec
  }

  /**
   * Visits every field of a hash with its value (as bytes with `bytes`), 1,000 at a time (a field seen
   * twice is visited twice).
   */
  const scan = async <V extends string | Buffer = string>(
    key: string,
    visit: (field: string, value: V) => void,
    bytes = false,
  ): Promise<void> => {
    let cursor = '0'
    do {
      const [next, pairs] = (await runner.send(
        ['HSCAN', key, cursor, 'COUNT', '1000'],
        undefined,
        bytes,
      )) as [string | Buffer, (string | Buffer)[]]
      for (let i = 0; i + 1 < pairs.length; i += 2) visit(String(pairs[i]), pairs[i + 1] as V)
      cursor = String(next)
    } while (cursor !== '0')
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

  return {
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
      const keys = [reviewsKey, groupsKey, groupKeysKey, checkpointKey]
      // The checkpoint goes with the last part, after every review it counts.
      for (let start = 0; start < reviews.length || start === 0; start += BATCH) {
        const part = reviews.slice(start, start + BATCH)
        const last = start + BATCH >= reviews.length
        const withCheckpoint = last && checkpoint !== undefined
        const args: (string | Buffer)[] = [
          groupPrefix,
          withCheckpoint ? '1' : '0',
          withCheckpoint ? JSON.stringify(checkpoint) : '',
        ]
        for (const review of part) {
          const value = stored.encode(JSON.stringify(review))
          args.push(
            review.review_id,
            groupOf(review),
            Buffer.from(value.buffer, value.byteOffset, value.length),
          )
        }
        if (part.length > 0 || withCheckpoint) await runner.script(PUT_MANY, keys, args)
      }
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
          [groupPrefix, ...removed.slice(start, start + BATCH)],
        )
      }
      return [...groups].sort()
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
}
