import { describe, expect, it } from 'vitest'
import type { ProductReview } from '../../types/published.ts'
import { createMemoryReviewStore } from './memory-store.ts'

const review = (id: string, product: string, publish_date: string) =>
  ({ review_id: id, product_variation_id: product, publish_date, review_content: id }) as ProductReview

describe('createMemoryReviewStore', () => {
  it('holds reviews by id', async () => {
    const store = createMemoryReviewStore()
    await store.putMany([review('a', 'P1', '2025-01-01')])
    expect(await store.has('a')).toBe(true)
    expect(await store.has('b')).toBe(false)
    expect((await store.get('a'))?.review_content).toBe('a')
    expect((await store.getMany(['b', 'a'])).map((r) => r?.review_id)).toEqual([undefined, 'a'])
  })

  it('hands out copies, so changing a review read does not change the held one', async () => {
    const store = createMemoryReviewStore()
    await store.putMany([review('a', 'P1', '2025-01-01')])
    const read = await store.get('a')
    if (read !== undefined) read.review_content = 'changed'
    expect((await store.get('a'))?.review_content).toBe('a')
  })

  it('lists the reviews of a product newest first', async () => {
    const store = createMemoryReviewStore()
    await store.putMany([
      review('a', 'P1', '2025-01-01'),
      review('b', 'P1', '2025-03-01'),
      review('c', 'P2', '2025-02-01'),
    ])
    expect((await store.list('P1')).map((r) => r.review_id)).toEqual(['b', 'a'])
    expect(await store.list('P3')).toEqual([])
  })

  it('lists the product ids that have reviews, sorted', async () => {
    const store = createMemoryReviewStore()
    await store.putMany([review('a', 'P2', '2025-01-01'), review('b', 'P1', '2025-01-01')])
    expect(await store.keys()).toEqual(['P1', 'P2'])
  })

  it('moves a review that is stored again under another product', async () => {
    const store = createMemoryReviewStore()
    await store.putMany([review('a', 'P1', '2025-01-01')])
    await store.putMany([review('a', 'P2', '2025-01-01')])
    expect(await store.keys()).toEqual(['P2'])
    expect(await store.count()).toBe(1)
  })

  it('saves a checkpoint alone or with reviews', async () => {
    const store = createMemoryReviewStore()
    expect(await store.getCheckpoint()).toBeUndefined()
    const checkpoint = {
      phase: 'full' as const,
      cursor: 'c1',
      newReviews: 1,
      updatedReviews: 0,
      affected: ['P1'],
    }
    await store.putMany([review('a', 'P1', '2025-01-01')], checkpoint)
    expect(await store.getCheckpoint()).toEqual(checkpoint)
    await store.setCheckpoint({ ...checkpoint, phase: 'idle' })
    expect((await store.getCheckpoint())?.phase).toBe('idle')
  })

  it('returns every review held', async () => {
    const store = createMemoryReviewStore()
    await store.putMany([review('a', 'P1', '2025-01-01'), review('b', 'P2', '2025-01-01')])
    expect((await store.all()).map((r) => r.review_id).sort()).toEqual(['a', 'b'])
  })
})
