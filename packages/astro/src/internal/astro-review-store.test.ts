import type { ProductReview } from '@verified-reviews/core'
import type { DataStore, LoaderContext, MetaStore } from 'astro/loaders'
import { describe, expect, it } from 'vitest'
import { productReview } from '../../../../test/fixtures/reviews.ts'
import { astroReviewStore, SYNC_MARK_KEY } from './astro-review-store.ts'

type Entry = Parameters<DataStore['set']>[0]

/** An in-memory stand-in for the collection store and meta store Astro gives a loader. */
function loaderContext() {
  const entries = new Map<string, Entry>()
  const metadata = new Map<string, string>()
  const sets: string[] = []
  const store = {
    get: (id: string) => entries.get(id),
    entries: () => [...entries],
    set: (entry: Entry) => {
      if (entries.get(entry.id)?.digest === entry.digest) return false
      sets.push(entry.id)
      entries.set(entry.id, entry)
      return true
    },
    values: () => [...entries.values()],
    keys: () => [...entries.keys()],
    delete: (id: string) => entries.delete(id),
    clear: () => entries.clear(),
    has: (id: string) => entries.has(id),
  } as unknown as DataStore
  const meta: MetaStore = {
    get: (key) => metadata.get(key),
    set: (key, value) => metadata.set(key, value),
    has: (key) => metadata.has(key),
    delete: (key) => metadata.delete(key),
  }
  const context = {
    store,
    meta,
    parseData: async ({ data }) => data,
    generateDigest: (data) => JSON.stringify(data),
  } satisfies Pick<LoaderContext, 'store' | 'meta' | 'parseData' | 'generateDigest'>
  return { context, entries, metadata, sets }
}

const checkpoint = {
  phase: 'idle' as const,
  newReviews: 1,
  updatedReviews: 0,
  affected: [],
  watermark: '2025-01-01',
}

describe('astroReviewStore', () => {
  it('keeps one entry per review, with the review as its data and a digest', async () => {
    const { context, entries } = loaderContext()
    const store = astroReviewStore<ProductReview>(context, (review) => review.product_variation_id)
    await store.putMany([productReview({ review_id: 'a' })])
    expect(entries.get('a')).toEqual({
      id: 'a',
      data: productReview({ review_id: 'a' }),
      digest: JSON.stringify(productReview({ review_id: 'a' })),
    })
  })

  it('does not set an entry again when its digest did not change', async () => {
    const { context, sets } = loaderContext()
    const store = astroReviewStore<ProductReview>(context, (review) => review.product_variation_id)
    await store.putMany([productReview({ review_id: 'a' })])
    await store.putMany([productReview({ review_id: 'a' }), productReview({ review_id: 'b' })])
    expect(sets).toEqual(['a', 'b'])
    expect(store.writes).toEqual({ written: 2, unchanged: 1 })
  })

  it('keeps the sync mark in the meta store', async () => {
    const { context, metadata } = loaderContext()
    const store = astroReviewStore<ProductReview>(context, (review) => review.product_variation_id)
    await store.putMany([productReview()], checkpoint)
    expect(JSON.parse(metadata.get(SYNC_MARK_KEY) ?? '')).toEqual(checkpoint)
    expect(await store.getCheckpoint()).toEqual(checkpoint)
  })

  it('forgets a mark whose reviews are gone, so that the next sync is a full one', async () => {
    const { context, metadata } = loaderContext()
    metadata.set(SYNC_MARK_KEY, JSON.stringify(checkpoint))
    const store = astroReviewStore<ProductReview>(context, (review) => review.product_variation_id)
    expect(await store.getCheckpoint()).toBeUndefined()
  })

  it("lists a product's reviews newest first, and the products that have reviews", async () => {
    const { context } = loaderContext()
    const store = astroReviewStore<ProductReview>(context, (review) => review.product_variation_id)
    await store.putMany([
      productReview({ review_id: 'old', publish_date: '2024-01-01T00:00:00Z' }),
      productReview({ review_id: 'new', publish_date: '2025-01-01T00:00:00Z' }),
      productReview({ review_id: 'other', product_variation_id: 'SKU-2' }),
    ])
    expect((await store.list('SKU-1')).map((review) => review.review_id)).toEqual(['new', 'old'])
    expect(await store.keys()).toEqual(['SKU-1', 'SKU-2'])
    expect(await store.count()).toBe(3)
  })
})
