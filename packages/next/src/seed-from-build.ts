import type { ProductReview } from '@verified-reviews/core'
import { copyReplicaFromFile, type ReviewStore } from '@verified-reviews/core/sync'
import { buildStorePath } from './internal/paths.ts'

/** Options of {@link seedFromBuild}. */
export interface SeedFromBuildOptions {
  /**
   * The Next.js build directory, where the build prefetch left its review store
   * (`<distDir>/verified-reviews/reviews.sqlite`).
   * @default VERIFIED_REVIEWS_DIST_DIR, else '.next'
   */
  distDir?: string
}

/**
 * `store`, which first copies into itself the review store the build prefetch left in
 * `<distDir>/verified-reviews/reviews.sqlite` when it holds no checkpoint yet (the first deployment
 * on a new Redis or database), so that the first revalidation is incremental and revalidates only what
 * changed since the build, as the `'build'` store of one server does. The copy (`copyReplicaFromFile`
 * of `@verified-reviews/core/sync`) runs once, before the first call of any method; concurrent callers
 * wait for the same copy, and a copy that fails (the store is unreachable) is tried again at the next
 * call. It goes a few hundred reviews per write, with the checkpoint in the last write, so an
 * interrupted copy leaves no checkpoint and is done again. Several servers seeding one shared store at once write the same reviews. Without a build store
 * (a build without credentials) nothing is copied, and the first sync is a full one.
 *
 * `createRevalidateRoute({ store })` does this by default (`seedFromBuild: false` turns it off); call it
 * yourself for a store you sync elsewhere.
 *
 * @example
 * import { seedFromBuild } from '@verified-reviews/next/advanced'
 * import { createRedisConnection, createRedisReviewStore } from '@verified-reviews/redis'
 * const store = seedFromBuild(createRedisReviewStore(createRedisConnection()))
 */
export function seedFromBuild(
  store: ReviewStore<ProductReview>,
  options: SeedFromBuildOptions = {},
): ReviewStore<ProductReview> {
  let seeding: Promise<void> | undefined
  const seed = async (): Promise<void> => {
    await copyReplicaFromFile(await buildStorePath(options.distDir), { reviews: store }, { when: 'empty' })
  }
  const ready = (): Promise<void> => {
    seeding ??= seed().catch((error: unknown) => {
      seeding = undefined
      throw error
    })
    return seeding
  }
  const seeded =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await ready()
      return method(...args)
    }
  const { query, removeExcept } = store
  return {
    get: seeded((id) => store.get(id)),
    getMany: seeded((ids) => store.getMany(ids)),
    has: seeded((id) => store.has(id)),
    putMany: seeded((reviews, checkpoint) => store.putMany(reviews, checkpoint)),
    list: seeded((key) => store.list(key)),
    keys: seeded(() => store.keys()),
    all: seeded(() => store.all()),
    count: seeded(() => store.count()),
    getCheckpoint: seeded(() => store.getCheckpoint()),
    setCheckpoint: seeded((checkpoint) => store.setCheckpoint(checkpoint)),
    // What the store has besides: a full sync removes what it did not see, a view reads through an index.
    ...(query === undefined ? {} : { query: seeded((q) => query.call(store, q)) }),
    ...(removeExcept === undefined ? {} : { removeExcept: seeded((kept) => removeExcept.call(store, kept)) }),
  }
}
