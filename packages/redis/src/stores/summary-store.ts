import type { ProductReview } from '@verified-reviews/core'
import type { ProductReplica, ProductSummaryStore } from '@verified-reviews/core/sync'
import { type RedisConnection, runnerOf } from '../connection.ts'
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
  }
}

/**
 * The site's replica of the account in Redis: the product reviews (the review store named `reviews`,
 * which the revalidate route syncs) and their summaries, read by the renders of every instance. Give it
 * to `shareClientState({ replica })` of `@verified-reviews/next/advanced` in `instrumentation.ts`.
 */
export function createRedisReplica(connection: RedisConnection): ProductReplica {
  return {
    reviews: createRedisReviewStore<ProductReview>(connection),
    summaries: createRedisSummaryStore(connection),
  }
}
