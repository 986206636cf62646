import { describe, expect, it } from 'vitest'
import type { ProductReviewListParams } from '../../types/params.ts'
import type { ProductReview } from '../../types/published.ts'
import { continuationCursor, isContinuationCursor, type ReviewsPage, resumeReviews } from './continuation.ts'

function review(review_id: string, publish_date: string): ProductReview {
  return { review_id, publish_date } as ProductReview
}

const NEWEST = { sort: ['publish_date'], desc: ['publish_date'] } as const

function recorder(pages: ReviewsPage[]) {
  const calls: ProductReviewListParams[] = []
  const list = async (params: ProductReviewListParams) => {
    calls.push(params)
    return pages[calls.length - 1] ?? { data: [], nextCursor: undefined }
  }
  return { calls, list }
}

describe('continuationCursor', () => {
  it('is undefined after an empty page', () => {
    expect(continuationCursor([])).toBeUndefined()
  })

  it('is recognized as a continuation and stays within printable ASCII', () => {
    const cursor = continuationCursor([review('a', '2026-01-02T00:00:00Z')])
    expect(isContinuationCursor(cursor)).toBe(true)
    expect(cursor).toMatch(/^[\x21-\x7e]+$/)
    expect(isContinuationCursor('eyJmIjoiIn0')).toBe(false)
  })
})

/** One page of `list` where the cursor may be a continuation, as a client's `products.reviews.list` asks for it. */
async function listProductReviews(
  list: (params: ProductReviewListParams) => Promise<ReviewsPage>,
  params: ProductReviewListParams,
): Promise<ReviewsPage> {
  const resumed = params.cursor === undefined ? undefined : resumeReviews(params, params.cursor)
  if (resumed === undefined) return list(params)
  const page = await list(resumed.params)
  return resumed.cut(page.data, page.nextCursor !== undefined)
}

describe('resumeReviews', () => {
  it('sends an API cursor as it is', async () => {
    const { calls, list } = recorder([{ data: [], nextCursor: undefined }])
    await listProductReviews(list, { ...NEWEST, cursor: 'abc', limit: 5 })
    expect(calls).toEqual([{ ...NEWEST, cursor: 'abc', limit: 5 }])
  })

  it('asks for the reviews published up to the last one shown, without a cursor', async () => {
    const cursor = continuationCursor([
      review('a', '2026-01-03T00:00:00Z'),
      review('b', '2026-01-02T00:00:00Z'),
    ])
    const { calls, list } = recorder([{ data: [], nextCursor: undefined }])
    await listProductReviews(list, { ...NEWEST, product_variation_id: ['SKU-1'], limit: 5, cursor })
    expect(calls).toEqual([
      { ...NEWEST, product_variation_id: ['SKU-1'], limit: 6, publish_date: { lte: '2026-01-02T00:00:00Z' } },
    ])
  })

  it('leaves out the reviews already shown at the last date, and still fills the page', async () => {
    const date = '2026-01-02T00:00:00Z'
    const cursor = continuationCursor([
      review('a', '2026-01-03T00:00:00Z'),
      review('b', date),
      review('c', date),
    ])
    const { calls, list } = recorder([
      {
        data: [review('c', date), review('b', date), review('d', date), review('e', '2026-01-01T00:00:00Z')],
        nextCursor: undefined,
      },
    ])
    const page = await listProductReviews(list, { ...NEWEST, limit: 2, cursor })
    expect(calls[0]?.limit).toBe(4)
    expect(page.data.map((item) => item.review_id)).toEqual(['d', 'e'])
  })

  it('gives the next page a continuation after its last review while the API has more', async () => {
    const cursor = continuationCursor([review('a', '2026-01-03T00:00:00Z')])
    const { calls, list } = recorder([
      {
        data: [review('a', '2026-01-03T00:00:00Z'), review('b', '2026-01-02T00:00:00Z')],
        nextCursor: 'api-2',
      },
      {
        data: [review('b', '2026-01-02T00:00:00Z'), review('c', '2026-01-01T00:00:00Z')],
        nextCursor: undefined,
      },
    ])
    const first = await listProductReviews(list, { ...NEWEST, limit: 1, cursor })
    expect(first.data.map((item) => item.review_id)).toEqual(['b'])
    const second = await listProductReviews(list, { ...NEWEST, limit: 1, cursor: first.nextCursor })
    expect(calls[1]).toEqual({ ...NEWEST, limit: 2, publish_date: { lte: '2026-01-02T00:00:00Z' } })
    expect(second.data.map((item) => item.review_id)).toEqual(['c'])
    expect(second.nextCursor).toBeUndefined()
  })

  it('refuses a continuation with another order, naming the cursor', async () => {
    const cursor = continuationCursor([review('a', '2026-01-02T00:00:00Z')])
    const { list } = recorder([])
    await expect(listProductReviews(list, { sort: ['publish_date'], cursor })).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'cursor',
    })
  })

  it('refuses a continuation with another rate filter, naming the cursor', async () => {
    const cursor = continuationCursor([review('a', '2026-01-02T00:00:00Z')], [5])
    const { list } = recorder([])
    await expect(listProductReviews(list, { ...NEWEST, review_rate: [4, 5], cursor })).rejects.toMatchObject({
      field: 'cursor',
    })
  })

  it('refuses a malformed continuation, naming the cursor', async () => {
    const { list } = recorder([])
    await expect(listProductReviews(list, { ...NEWEST, cursor: '~vr1~bm90LWpzb24' })).rejects.toMatchObject({
      field: 'cursor',
    })
  })
})
