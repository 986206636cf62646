import type { BrandReview, ProductReview } from '@verified-reviews/core'
import type { RevalidateRouteOptions } from '@verified-reviews/next'
import { createRedisConnection, createRedisReviewStore, type RedisConnection } from '@verified-reviews/redis'

/**
 * The connection to the Redis that several `next start` instances share, when `REDIS_URL` is set;
 * `undefined` otherwise (one instance, no Redis: the demo as `pnpm demo` runs it).
 */
export const redis: RedisConnection | undefined = process.env.REDIS_URL ? createRedisConnection() : undefined

/**
 * Where the revalidate route keeps the reviews it syncs: in Redis when `REDIS_URL` is set, so that a
 * revalidation scheduled on any instance goes on from the checkpoint they all share (the route fills an
 * empty Redis from the build's review store first, so its first call is incremental); otherwise the
 * route's defaults (the build's store).
 */
export function revalidateStores(): Pick<RevalidateRouteOptions, 'store' | 'brandStore'> {
  if (redis === undefined) return {}
  return {
    store: createRedisReviewStore<ProductReview>(redis),
    brandStore: createRedisReviewStore<BrandReview>(redis, { name: 'brand-reviews' }),
  }
}
