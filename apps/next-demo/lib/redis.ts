import { join } from 'node:path'
import type { BrandReview, ProductReview } from '@verified-reviews/core'
import { readEnvironment } from '@verified-reviews/core'
import { createJsonFileReviewStore, type ReviewStore } from '@verified-reviews/core/sync'
import type { RevalidateRouteOptions } from '@verified-reviews/next'
import { createRedisConnection, createRedisReviewStore, type RedisConnection } from '@verified-reviews/redis'

/**
 * The connection to the Redis that several `next start` instances share, when `REDIS_URL` is set;
 * `undefined` otherwise (one instance, no Redis: the demo as `pnpm demo` runs it).
 */
export const redis: RedisConnection | undefined = process.env.REDIS_URL ? createRedisConnection() : undefined

/**
 * `store` as it is, after copying into it the review store the build prefetch left in
 * `<distDir>/verified-reviews/` when `store` holds no sync yet (the first deployment on this Redis), so
 * that the first revalidation is incremental and revalidates only what changed since the build, as the
 * `'build'` store of one instance does. Two instances seeding at once write the same reviews.
 */
function seededFromBuild(store: ReviewStore<ProductReview>): ReviewStore<ProductReview> {
  let seeding: Promise<void> | undefined
  const seed = async () => {
    if ((await store.getCheckpoint()) !== undefined) return
    const distDir = readEnvironment().distDir ?? '.next'
    const built = createJsonFileReviewStore(
      join(process.cwd(), distDir, 'verified-reviews/product-reviews.json'),
    )
    const checkpoint = await built.getCheckpoint()
    if (checkpoint !== undefined) await store.putMany(await built.all(), checkpoint)
  }
  const ready = () => {
    seeding ??= seed().catch((error: unknown) => {
      seeding = undefined
      throw error
    })
    return seeding
  }
  const after =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await ready()
      return method(...args)
    }
  return {
    get: after((id) => store.get(id)),
    getMany: after((ids) => store.getMany(ids)),
    has: after((id) => store.has(id)),
    putMany: after((reviews, checkpoint) => store.putMany(reviews, checkpoint)),
    list: after((key) => store.list(key)),
    keys: after(() => store.keys()),
    all: after(() => store.all()),
    count: after(() => store.count()),
    getCheckpoint: after(() => store.getCheckpoint()),
    setCheckpoint: after((checkpoint) => store.setCheckpoint(checkpoint)),
  }
}

/**
 * Where the revalidate route keeps the reviews it syncs: in Redis when `REDIS_URL` is set, so that a
 * revalidation scheduled on any instance goes on from the checkpoint they all share; otherwise the
 * route's defaults (the build's store, in memory).
 */
export function revalidateStores(): Pick<RevalidateRouteOptions, 'store' | 'brandStore'> {
  if (redis === undefined) return {}
  return {
    store: seededFromBuild(createRedisReviewStore<ProductReview>(redis)),
    brandStore: createRedisReviewStore<BrandReview>(redis, { name: 'brand-reviews' }),
  }
}
