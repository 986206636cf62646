import type { BrandReview } from '@verified-reviews/core'
import type { RevalidateRouteOptions } from '@verified-reviews/next'
import { createRedisConnection, createRedisReviewStore, type RedisConnection } from '@verified-reviews/redis'

/**
 * The connection to the Redis that several `next start` instances share, when `REDIS_URL` is set;
 * `undefined` otherwise (one instance, no Redis: the demo as `pnpm demo` runs it).
 */
export const redis: RedisConnection | undefined = process.env.REDIS_URL ? createRedisConnection() : undefined

/**
 * Where the revalidate route keeps the brand reviews it syncs: in Redis when `REDIS_URL` is set, so that a
 * revalidation scheduled on any instance goes on from the checkpoint they all share. The product reviews
 * go to the replica `instrumentation.ts` gives `shareClientState`, which every instance reads (filled from
 * the build's store first, so the route's first call is incremental); without Redis, to this server's
 * replica.
 */
export function revalidateStores(): Pick<RevalidateRouteOptions, 'brandStore'> {
  if (redis === undefined) return {}
  return { brandStore: createRedisReviewStore<BrandReview>(redis, { name: 'brand-reviews' }) }
}
