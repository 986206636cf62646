import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ProductReview } from '@verified-reviews/core'
import {
  createMemoryReviewStore,
  createSqliteReviewStore,
  type ReviewStore,
  type SyncCheckpoint,
} from '@verified-reviews/core/sync'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { connectionsFor, redisForFile } from '../../../test/fixtures/redis.ts'
import { productReview } from '../../../test/fixtures/reviews.ts'
import { createRedisReviewStore } from '../../redis/src/stores/review-store.ts'
import { seedFromBuild } from './seed-from-build.ts'

const CHECKPOINT: SyncCheckpoint = {
  phase: 'idle',
  watermark: '2025-03-05T08:00:00Z',
  newReviews: 1200,
  updatedReviews: 0,
  affected: [],
}

/** 1,200 reviews of 30 products: more than one write of the seeding. */
const BUILT = Array.from({ length: 1200 }, (_, index) =>
  productReview({ review_id: `rev-${index}`, product_variation_id: `SKU-${index % 30}` }),
)

const redis = redisForFile()
const connect = connectionsFor(redis)
let distDir: string

beforeEach(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'vr-seed-'))
})
afterEach(async () => {
  await rm(distDir, { recursive: true, force: true })
})

/** Leaves in `distDir` the review store the build prefetch writes. */
async function buildStore(): Promise<void> {
  const store = createSqliteReviewStore(join(distDir, 'verified-reviews', 'reviews.sqlite'))
  await store.putMany(BUILT, CHECKPOINT)
  await store.close()
}

/** `store`, counting its writes. */
function counted(store: ReviewStore<ProductReview>): ReviewStore<ProductReview> & { writes: () => number } {
  let writes = 0
  return Object.assign(Object.create(null), store, {
    putMany: (reviews: readonly ProductReview[], checkpoint?: SyncCheckpoint) => {
      writes++
      return store.putMany(reviews, checkpoint)
    },
    writes: () => writes,
  })
}

describe('seedFromBuild', () => {
  it("copies the build's reviews and checkpoint into a store that holds no sync", async () => {
    await buildStore()
    const store = seedFromBuild(createMemoryReviewStore(), { distDir })
    expect(await store.getCheckpoint()).toEqual(CHECKPOINT)
    expect(await store.count()).toBe(1200)
    expect((await store.list('SKU-7')).length).toBe(40)
  })

  it('copies once for concurrent callers, a few hundred reviews per write', async () => {
    await buildStore()
    const inner = counted(createMemoryReviewStore())
    const store = seedFromBuild(inner, { distDir })
    await Promise.all([store.getCheckpoint(), store.count(), store.has('rev-1'), store.keys()])
    await store.count()
    // 1,200 reviews in writes of at least 500: three writes, the checkpoint with the last.
    expect(inner.writes()).toBe(3)
  })

  it('leaves a store that holds a checkpoint as it is', async () => {
    await buildStore()
    const inner = createMemoryReviewStore()
    await inner.putMany([productReview({ review_id: 'own' })], { ...CHECKPOINT, newReviews: 1 })
    const store = seedFromBuild(inner, { distDir })
    expect(await store.count()).toBe(1)
    expect((await store.getCheckpoint())?.newReviews).toBe(1)
  })

  it('copies nothing when the build left no review store', async () => {
    const store = seedFromBuild(createMemoryReviewStore(), { distDir })
    expect(await store.getCheckpoint()).toBeUndefined()
    expect(await store.count()).toBe(0)
  })

  it('tries a failed copy again at the next call', async () => {
    await buildStore()
    const inner = createMemoryReviewStore()
    const getCheckpoint = vi
      .spyOn(inner, 'getCheckpoint')
      .mockRejectedValueOnce(new Error('store out of reach'))
    const store = seedFromBuild(inner, { distDir })
    await expect(store.count()).rejects.toThrow('store out of reach')
    expect(await store.count()).toBe(1200)
    expect(getCheckpoint).toHaveBeenCalled()
  })

  it('reads the build store of VERIFIED_REVIEWS_DIST_DIR when no distDir is given', async () => {
    await buildStore()
    vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
    try {
      expect(await seedFromBuild(createMemoryReviewStore()).count()).toBe(1200)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('gives two servers seeding one Redis at once the whole build store', async () => {
    await buildStore()
    const servers = [connect(), connect()].map((connection) =>
      seedFromBuild(createRedisReviewStore(connection), { distDir }),
    )
    const counts = await Promise.all(servers.map((store) => store.count()))
    expect(counts).toEqual([1200, 1200])
    expect(await createRedisReviewStore(connect()).getCheckpoint()).toEqual(CHECKPOINT)
    // A third server, started later, finds the checkpoint and copies nothing.
    const later = counted(createRedisReviewStore(connect()))
    expect(await seedFromBuild(later, { distDir }).count()).toBe(1200)
    expect(later.writes()).toBe(0)
  })
})
