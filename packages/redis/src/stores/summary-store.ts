import { createHash } from 'node:crypto'
import {
  type BrandRating,
  type BrandReview,
  type ProductReview,
  readEnvironment,
} from '@verified-reviews/core'
import { replicaAccount } from '@verified-reviews/core/internal'
import type { BrandRatingStore, ProductReplica, ProductSummaryStore } from '@verified-reviews/core/sync'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { defineScript } from '../internal/runner.ts'
import { createRedisReviewStore } from './review-store.ts'

/** Options of {@link createRedisSummaryStore}. */
export interface RedisSummaryStoreOptions {
  /**
   * Names this store under the connection's prefix.
   * @default 'summaries'
   */
  name?: string
}

/** Summaries written or read by one command at most. */
const BATCH = 500

/**
 * A `ProductSummaryStore` in Redis (one hash, product id to the summary's JSON), shared by every server:
 * the summaries of the site's replica on several servers or on a serverless host.
 */
export function createRedisSummaryStore(
  connection: RedisConnection,
  options: RedisSummaryStoreOptions = {},
): ProductSummaryStore {
  const runner = runnerOf(connection)
  const key = `${runner.prefix}${options.name ?? 'summaries'}`
  return {
    async getMany(ids) {
      const found = []
      for (let start = 0; start < ids.length; start += BATCH) {
        const texts = (await runner.send(['HMGET', key, ...ids.slice(start, start + BATCH)])) as unknown[]
        for (const text of texts) found.push(typeof text === 'string' ? JSON.parse(text) : undefined)
      }
      return found
    },
    async putMany(summaries) {
      for (let start = 0; start < summaries.length; start += BATCH) {
        const fields = summaries
          .slice(start, start + BATCH)
          .flatMap((summary) => [summary.product_variation_id, JSON.stringify(summary)])
        await runner.send(['HSET', key, ...fields])
      }
    },
    async count() {
      return Number(await runner.send(['HLEN', key]))
    },
    async removeMany(ids) {
      for (let start = 0; start < ids.length; start += BATCH) {
        await runner.send(['HDEL', key, ...ids.slice(start, start + BATCH)])
      }
    },
  }
}

/** Options of {@link createRedisBrandRatingStore}. */
export interface RedisBrandRatingStoreOptions {
  /**
   * Names this store under the connection's prefix.
   * @default 'brand_ratings'
   */
  name?: string
}

/**
 * A `BrandRatingStore` in Redis, shared by every server: one hash of the statistics (shop key to JSON,
 * `''` for the brand) and one key of their fetch time, replaced together in one transaction.
 */
export function createRedisBrandRatingStore(
  connection: RedisConnection,
  options: RedisBrandRatingStoreOptions = {},
): BrandRatingStore {
  const runner = runnerOf(connection)
  const key = `${runner.prefix}${options.name ?? 'brand_ratings'}`
  const fetchedKey = `${key}:fetched_at`
  return {
    async getMany(keys) {
      if (keys.length === 0) return []
      const texts = (await runner.send(['HMGET', key, ...keys])) as unknown[]
      return texts.map((text) => (typeof text === 'string' ? (JSON.parse(text) as BrandRating) : undefined))
    },
    async replaceAll(ratings, fetchedAt) {
      const fields = ratings.flatMap((rating) => [rating.shop_key, JSON.stringify(rating)])
      await runner.script(REPLACE_RATINGS, [key, fetchedKey], [fetchedAt, ...fields])
    },
    async fetchedAt() {
      const text = await runner.send(['GET', fetchedKey])
      return typeof text === 'string' ? text : undefined
    },
  }
}

/** Replaces the statistics and their fetch time at once. KEYS: hash, fetch time. ARGV: fetch time, then shop key and JSON of each. */
const REPLACE_RATINGS = defineScript(`
redis.call('DEL', KEYS[1])
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('SET', KEYS[2], ARGV[1])
return 1
`)

/**
 * The site's replica of the account in Redis, read by the renders of every instance, under keys of its
 * account (client id and API origin, see {@link RedisReplicaOptions}): the product reviews
 * (the review store named `reviews`, which the revalidate route syncs) and their summaries, the brand and
 * shop reviews (`brand_reviews`) and their statistics. Give it to `shareClientState({ replica })` of
 * `@verified-reviews/next/advanced` in `instrumentation.ts`.
 */
export function createRedisReplica(
  connection: RedisConnection,
  options: RedisReplicaOptions = {},
): ProductReplica {
  const account = options.account ?? replicaAccount(readEnvironment(process.env))
  const key = `replica:${createHash('sha256').update(account).digest('hex').slice(0, 12)}:`
  return {
    reviews: createRedisReviewStore<ProductReview>(connection, { name: `${key}reviews` }),
    summaries: createRedisSummaryStore(connection, { name: `${key}summaries` }),
    brands: {
      reviews: createRedisReviewStore<BrandReview>(connection, { name: `${key}brand_reviews` }),
      ratings: createRedisBrandRatingStore(connection, { name: `${key}brand_ratings` }),
    },
  }
}

/** Options of {@link createRedisReplica}. */
export interface RedisReplicaOptions {
  /**
   * The account the replica holds the reviews of: its keys are named after a digest of it
   * (`replica:<12 hex digits>:reviews`, `…:summaries`, `…:brand_reviews`, `…:brand_ratings`), so that
   * another account (or the sandbox) never reads this one's, and several can share one Redis.
   * @default the client id and API origin of the environment (`VERIFIED_REVIEWS_CLIENT_ID`, `VERIFIED_REVIEWS_ORIGIN`), never the secret
   */
  account?: string
}
