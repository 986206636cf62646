import { type ProductReview, ValidationError } from '@verified-reviews/core'
import { continuationCursor } from '@verified-reviews/core/endpoint'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

const NEWEST = { sort: ['publish_date'], desc: ['publish_date'] } as const

async function newestFirst(productId: string): Promise<ProductReview[]> {
  const all: ProductReview[] = []
  const walk = sb.client().products.reviews.list({ product_variation_id: [productId], ...NEWEST, limit: 200 })
  for await (const review of walk) all.push(review)
  return all
}

const ids = (reviews: readonly ProductReview[]) => reviews.map((review) => review.review_id)

describe('products.reviews.list with a continuation cursor', () => {
  it('answers the page after the reviews shown, of the limit asked', async () => {
    const all = await newestFirst('SKU-058')
    const page = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-058'],
      ...NEWEST,
      limit: 7,
      cursor: continuationCursor(all.slice(0, 10)),
    })
    expect(ids(page.data)).toEqual(ids(all.slice(10, 17)))
    expect(page.previousCursor).toBeUndefined()
  })

  it('walks from it to the last review, page after page', async () => {
    const all = await newestFirst('SKU-058')
    const walked: ProductReview[] = []
    const walk = sb.client().products.reviews.list({
      product_variation_id: ['SKU-058'],
      ...NEWEST,
      limit: 20,
      cursor: continuationCursor(all.slice(0, 10)),
    })
    for await (const review of walk) walked.push(review)
    expect(ids(walked)).toEqual(ids(all.slice(10)))
  })

  it('refuses it with another sort, naming the cursor, before sending anything', async () => {
    const all = await newestFirst('SKU-001')
    const before = (await sb.stats()).total
    const refused = sb.client().products.reviews.list({
      product_variation_id: ['SKU-001'],
      sort: ['review_rate'],
      cursor: continuationCursor(all.slice(0, 3)),
    })
    await expect(refused).rejects.toThrow(ValidationError)
    await expect(refused).rejects.toMatchObject({ field: 'cursor' })
    expect((await sb.stats()).total).toBe(before)
  })
})
