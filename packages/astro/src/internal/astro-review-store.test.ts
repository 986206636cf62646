import type { ProductReview } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { productReview } from '../../../../test/fixtures/reviews.ts'
import { loaderContext } from '../../test/loader-context.ts'
import { astroReviewStore, SYNC_MARK_KEY } from './astro-review-store.ts'

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
