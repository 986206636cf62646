import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  brandRating,
  brandReview,
  productReview,
  productSummary,
} from '../../../../../test/fixtures/reviews.ts'
import type { BrandReview, ProductReview } from '../../types/published.ts'
import { createMemoryBrandRatingStore } from './brand-rating-store.ts'
import { createMemoryReviewStore } from './memory-store.ts'
import { copyReplicaFromFile, openSqliteReplica } from './replica-file.ts'
import type { ReviewStore, SyncCheckpoint } from './store.ts'
import { createMemorySummaryStore } from './summary-store.ts'

const BUILT_AT = '2025-03-05T09:00:00.000Z'
const checkpoint = (completedAt: string): SyncCheckpoint => ({
  phase: 'idle',
  newReviews: 0,
  updatedReviews: 0,
  affected: [],
  completedAt,
})

/** 1,100 reviews of 20 products: three writes of 500 at most. */
const BUILT = Array.from({ length: 1100 }, (_, index) =>
  productReview({ review_id: `rev-${index}`, product_variation_id: `SKU-${index % 20}` }),
)

let dir: string
let source: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vr-replica-copy-'))
  source = join(dir, 'reviews.sqlite')
  const built = openSqliteReplica(source)
  await built.summaries.putMany([productSummary({ product_variation_id: 'SKU-0' })])
  await built.reviews.putMany(BUILT, checkpoint(BUILT_AT))
  await built.close()
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** `store`, recording whether each `putMany` carried the checkpoint, and failing the write numbered `failAt`. */
function recorded(store: ReviewStore<ProductReview>, failAt = Number.POSITIVE_INFINITY) {
  const writes: boolean[] = []
  return {
    writes,
    store: {
      ...store,
      removeExcept: store.removeExcept?.bind(store),
      async putMany(reviews: readonly ProductReview[], mark?: SyncCheckpoint) {
        if (writes.length === failAt) throw new Error('the target went away')
        writes.push(mark !== undefined)
        await store.putMany(reviews, mark)
      },
    } satisfies ReviewStore<ProductReview>,
  }
}

describe('copyReplicaFromFile', () => {
  it('copies the summaries, then the reviews a few hundred per write, the checkpoint with the last', async () => {
    const target = recorded(createMemoryReviewStore())
    const summaries = createMemorySummaryStore()
    const copy = await copyReplicaFromFile(source, { reviews: target.store, summaries }, { when: 'older' })
    expect(copy).toEqual({ outcome: 'copied', reviews: 1100, summaries: 1 })
    expect(target.writes).toEqual([false, false, true])
    expect(await target.store.count()).toBe(1100)
    expect((await target.store.getCheckpoint())?.completedAt).toBe(BUILT_AT)
    expect(await summaries.count()).toBe(1)
  })

  it('brings up an older replica to the source, dropping the reviews the source does not hold', async () => {
    const reviews = createMemoryReviewStore()
    await reviews.putMany(
      [productReview({ review_id: 'removed-upstream' })],
      checkpoint('2025-03-01T00:00:00Z'),
    )
    const copy = await copyReplicaFromFile(source, { reviews }, { when: 'older' })
    expect(copy.outcome).toBe('copied')
    expect(await reviews.has('removed-upstream')).toBe(false)
    expect(await reviews.count()).toBe(1100)
  })

  it('leaves a replica synced after the source as it is, and with `empty` any replica with a checkpoint', async () => {
    const later = createMemoryReviewStore()
    await later.putMany([productReview({ review_id: 'synced-later' })], checkpoint('2025-03-06T00:00:00Z'))
    expect((await copyReplicaFromFile(source, { reviews: later }, { when: 'older' })).outcome).toBe('current')
    const older = createMemoryReviewStore()
    await older.putMany([productReview({ review_id: 'older' })], checkpoint('2025-03-01T00:00:00Z'))
    expect((await copyReplicaFromFile(source, { reviews: older }, { when: 'empty' })).outcome).toBe('current')
    expect(await later.count()).toBe(1)
    expect(await older.count()).toBe(1)
  })

  it('leaves no checkpoint after an interrupted copy, so that the next copy is made again', async () => {
    const store = createMemoryReviewStore()
    const failing = recorded(store, 1)
    await expect(copyReplicaFromFile(source, { reviews: failing.store }, { when: 'older' })).rejects.toThrow(
      'the target went away',
    )
    expect(await store.getCheckpoint()).toBeUndefined()
    expect(await store.count()).toBe(500)
    expect((await copyReplicaFromFile(source, { reviews: store }, { when: 'empty' })).outcome).toBe('copied')
    expect(await store.count()).toBe(1100)
  })

  it('writes nothing without a source file, and creates none', async () => {
    const reviews = createMemoryReviewStore()
    const missing = join(dir, 'none.sqlite')
    expect((await copyReplicaFromFile(missing, { reviews }, { when: 'older' })).outcome).toBe('no-source')
    await expect(import('node:fs/promises').then((fs) => fs.access(missing))).rejects.toThrow()
  })
})

describe('copyReplicaFromFile, the brand part', () => {
  const BRANDS_AT = '2025-03-05T09:05:00.000Z'
  /** 600 brand and shop reviews: two writes. */
  const BRAND_REVIEWS = Array.from({ length: 600 }, (_, index) =>
    brandReview({ review_id: `brand-${index}`, shop_key: index % 3 === 0 ? '' : `shop-${index % 3}` }),
  )
  const RATINGS = [brandRating(), brandRating({ shop_key: 'shop-1' }), brandRating({ shop_key: 'shop-2' })]

  beforeEach(async () => {
    const built = openSqliteReplica(source)
    await built.brands.ratings.replaceAll(RATINGS, BRANDS_AT)
    await built.brands.reviews.putMany(BRAND_REVIEWS, checkpoint(BRANDS_AT))
    await built.close()
  })

  const target = () => ({
    reviews: createMemoryReviewStore(),
    summaries: createMemorySummaryStore(),
    brands: { reviews: createMemoryReviewStore<BrandReview>(), ratings: createMemoryBrandRatingStore() },
  })

  it('copies the statistics with their fetch time, then the brand and shop reviews with their checkpoint, after the product part', async () => {
    const into = target()
    const copy = await copyReplicaFromFile(source, into, { when: 'older' })
    expect(copy).toEqual({
      outcome: 'copied',
      reviews: 1100,
      summaries: 1,
      brands: { outcome: 'copied', reviews: 600, ratings: 3 },
    })
    expect(await into.brands.reviews.count()).toBe(600)
    expect((await into.brands.reviews.getCheckpoint())?.completedAt).toBe(BRANDS_AT)
    expect(await into.brands.ratings.fetchedAt()).toBe(BRANDS_AT)
    expect(await into.brands.ratings.getMany(['', 'shop-2', 'shop-9'])).toEqual([
      RATINGS[0],
      RATINGS[2],
      undefined,
    ])
  })

  it('copies the brand part of a target whose product part is current, by its own marks', async () => {
    const into = target()
    await into.reviews.putMany(
      [productReview({ review_id: 'synced-later' })],
      checkpoint('2025-03-06T00:00:00Z'),
    )
    const copy = await copyReplicaFromFile(source, into, { when: 'empty' })
    expect(copy.outcome).toBe('current')
    expect(copy.brands).toEqual({ outcome: 'copied', reviews: 600, ratings: 3 })
    expect(await into.reviews.count()).toBe(1)
  })

  it('leaves brand reviews and statistics synced after the source as they are, and with `empty` any held', async () => {
    for (const [when, at] of [
      ['older', '2025-03-06T00:00:00Z'],
      ['empty', '2025-03-01T00:00:00Z'],
    ] as const) {
      const into = target()
      const held = [brandReview({ review_id: 'held' })]
      await into.brands.reviews.putMany(held, checkpoint(at))
      await into.brands.ratings.replaceAll([brandRating({ shop_key: 'held' })], at)
      const copy = await copyReplicaFromFile(source, into, { when })
      expect(copy.brands, when).toEqual({ outcome: 'current', reviews: 0, ratings: 0 })
      expect(await into.brands.reviews.list('lyon')).toEqual(held)
      expect(await into.brands.ratings.fetchedAt()).toBe(at)
    }
  })

  it('brings older brand reviews up to the source, dropping those the source does not hold', async () => {
    const into = target()
    await into.brands.reviews.putMany(
      [brandReview({ review_id: 'removed-upstream' })],
      checkpoint('2025-03-01T00:00:00Z'),
    )
    await into.brands.ratings.replaceAll([brandRating({ shop_key: 'closed' })], '2025-03-01T00:00:00Z')
    expect((await copyReplicaFromFile(source, into, { when: 'older' })).brands?.outcome).toBe('copied')
    expect(await into.brands.reviews.has('removed-upstream')).toBe(false)
    expect(await into.brands.reviews.count()).toBe(600)
    expect(await into.brands.ratings.getMany(['closed'])).toEqual([undefined])
  })

  it('copies no brand reviews of a sync that did not complete', async () => {
    const built = openSqliteReplica(source)
    const held = await built.brands.reviews.getCheckpoint()
    if (held === undefined) throw new Error('no checkpoint')
    await built.brands.reviews.setCheckpoint({ ...held, phase: 'full', completedAt: undefined })
    await built.close()
    const into = target()
    const copy = await copyReplicaFromFile(source, into, { when: 'older' })
    expect(copy.brands).toEqual({ outcome: 'copied', reviews: 0, ratings: 3 })
    expect(await into.brands.reviews.getCheckpoint()).toBeUndefined()
    expect(await into.brands.reviews.count()).toBe(0)
  })
})
