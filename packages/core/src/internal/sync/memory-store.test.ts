import { describe, expect, it } from 'vitest'
import type { ProductReview } from '../../types/published.ts'
import { createMemoryReviewStore, Slabs } from './memory-store.ts'

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

describe('Slabs', () => {
  it('writes reviews side by side in one buffer, and a long one in a buffer of its own', () => {
    const slabs = new Slabs()
    const views = Array.from({ length: 100 }, (_, i) => slabs.encode(review(`r${i}`, 'P1', '2025-01-01')))
    expect(new Set(views.map((view) => view.buffer)).size).toBe(1)
    expect(JSON.parse(new TextDecoder().decode(views[42])).review_id).toBe('r42')
    const long = slabs.encode({ ...review('long', 'P1', '2025-01-01'), review_content: 'é'.repeat(300_000) })
    expect(long.buffer).not.toBe(views[0]?.buffer)
    expect(long.byteLength).toBe(long.buffer.byteLength)
    expect(slabs.written).toBe(views.reduce((sum, view) => sum + view.length, 0) + long.length)
  })

  it('starts a new slab when a review does not fit in what is left, keeping multi-byte text whole', () => {
    const slabs = new Slabs()
    const text = 'Ďakujeme Ευχαριστούμε Благодарим '.repeat(600)
    const views = Array.from({ length: 200 }, (_, i) =>
      slabs.encode({ ...review(`r${i}`, 'P1', '2025-01-01'), review_content: text }),
    )
    expect(new Set(views.map((view) => view.buffer)).size).toBeGreaterThan(1)
    for (const view of views) expect(JSON.parse(new TextDecoder().decode(view)).review_content).toBe(text)
  })
})

describe('createMemoryReviewStore, reviews replaced many times', () => {
  it('keeps every review whole when the slabs are rewritten to drop replaced bytes', async () => {
    const store = createMemoryReviewStore()
    const text = 'x'.repeat(2_000)
    await store.putMany([
      review('kept', 'P1', '2024-01-01'),
      { ...review('other', 'P2', '2024-01-01'), review_content: 'ü'.repeat(100_000) },
    ])
    // 10,000 versions of some 2 KB: 20 MB written for 2 KB held, past the 8 MiB that starts a rewrite.
    for (let version = 0; version < 10_000; version += 100) {
      await store.putMany(
        Array.from({ length: 100 }, (_, i) => ({
          ...review('changing', 'P1', '2025-01-01'),
          review_content: `${version + i} ${text}`,
        })),
      )
    }
    expect((await store.get('changing'))?.review_content).toBe(`9999 ${text}`)
    expect((await store.get('kept'))?.review_content).toBe('kept')
    expect((await store.get('other'))?.review_content).toBe('ü'.repeat(100_000))
    expect((await store.list('P1')).map((r) => r.review_id)).toEqual(['changing', 'kept'])
    expect(await store.count()).toBe(3)
  })
})
