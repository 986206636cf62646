import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { takeOperations } from '../test/build-fixture.ts'
import { type LiveProductReviews, LiveReviewsError, liveProductReviewsLoader } from './live-loader.ts'

const sb = sandboxForFile({ seed: 1 })

function loader(options: { reviews?: number; secret?: string } = {}) {
  const client = sb.client({
    maxRetries: 0,
    ...(options.secret === undefined ? {} : { clientSecret: options.secret }),
  })
  return liveProductReviewsLoader({
    client,
    ...(options.reviews === undefined ? {} : { reviews: options.reviews }),
  })
}

function dataOf(result: unknown): LiveProductReviews {
  if (typeof result !== 'object' || result === null || !('data' in result)) throw new Error('no entry')
  return result.data as LiveProductReviews
}

describe('liveProductReviewsLoader', () => {
  it("gives an entry with the product's rating and its newest reviews, in two calls", async () => {
    const result = await loader({ reviews: 3 }).loadEntry({
      filter: { id: 'SKU-001' },
      collection: 'reviews',
    })
    const data = dataOf(result)
    expect(data.rating).toMatchObject({ product_variation_id: 'SKU-001', count_total: 11 })
    expect(data.reviews).toHaveLength(3)
    const dates = data.reviews.map((review) => review.publish_date)
    expect(dates).toEqual([...dates].sort().reverse())
    const { 'token.published': _token, ...operations } = await takeOperations(sb)
    expect(operations).toEqual({ 'products.ratings.list': 1, 'products.reviews.list': 1 })
  })

  it('tags the entry with its product and dates it by its newest review', async () => {
    const result = await loader().loadEntry({ filter: { id: 'SKU-001', reviews: 1 }, collection: 'reviews' })
    const data = dataOf(result)
    expect(result).toMatchObject({
      cacheHint: {
        tags: ['verified-reviews:product:SKU-001'],
        lastModified: new Date(data.reviews[0]?.publish_date ?? ''),
      },
    })
  })

  it('gives a product without reviews a null rating and no reviews', async () => {
    const data = dataOf(await loader().loadEntry({ filter: { id: 'SKU-012' }, collection: 'reviews' }))
    expect(data).toEqual({ product_variation_id: 'SKU-012', rating: null, reviews: [] })
  })

  it('gives the ratings of a collection of products in one call', async () => {
    const result = await loader().loadCollection({
      filter: { products: ['SKU-001', 'SKU-002', 'SKU-012'] },
      collection: 'reviews',
    })
    if (!('entries' in result)) throw result.error
    expect(result.entries.map((entry) => [entry.id, entry.data.rating?.count_total ?? null])).toEqual([
      ['SKU-001', 11],
      ['SKU-002', 19],
      ['SKU-012', null],
    ])
    const { 'token.published': _token, ...operations } = await takeOperations(sb)
    expect(operations).toEqual({ 'products.ratings.list': 1 })
  })

  it('adds the reviews of each product with reviews when asked, one call per product', async () => {
    const result = await loader().loadCollection({
      filter: { products: ['SKU-001', 'SKU-012'], reviews: 2 },
      collection: 'reviews',
    })
    if (!('entries' in result)) throw result.error
    expect(result.entries.map((entry) => entry.data.reviews.length)).toEqual([2, 0])
    expect((await takeOperations(sb))['products.reviews.list']).toBe(1)
  })

  it('returns the failure as an error instead of throwing', async () => {
    const result = await loader({ secret: 'wrong' }).loadEntry({
      filter: { id: 'SKU-001' },
      collection: 'reviews',
    })
    expect(result).toEqual({ error: expect.any(LiveReviewsError) })
    expect((result as { error: Error }).error.message).toMatch(/^Could not load the reviews of SKU-001: /)
  })
})
