import { describe, expect, it, vi } from 'vitest'
import type { BrandReview, ProductReview, ProductSummary } from '../../types/published.ts'
import type { ReviewView } from '../cursor/review-query.ts'
import { cursorSignerFromSecret } from '../cursor/signed-cursor.ts'
import { createMemoryBrandRatingStore } from '../sync/brand-rating-store.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { createMemorySummaryStore } from '../sync/summary-store.ts'
import type { ProductReplica } from './product-view.ts'
import { brandSection, type ProductSectionFacts, productSection, productSectionSource } from './section.ts'

const signer = cursorSignerFromSecret('a secret of the tests')
const first: ReviewView = { sort: 'newest', rates: [] }
const notFirst: ReviewView[] = [
  { sort: 'lowest', rates: [] },
  { sort: 'newest', rates: [5] },
  { sort: 'newest', rates: [], cursor: 'a cursor' },
]

/** A review and a summary of product `A` that say which source they come from. */
function review(from: string): ProductReview {
  return {
    review_id: `${from}-review`,
    product_variation_id: 'A',
    publish_date: '2025-03-09T10:00:00Z',
    review_rate: 5,
  } as ProductReview
}
function summary(count: number): ProductSummary {
  const ratings = {
    average: 5,
    count_total: count,
    count_5: count,
    count_4: 0,
    count_3: 0,
    count_2: 0,
    count_1: 0,
  }
  return { product_variation_id: 'A', ratings, extras: [] } as unknown as ProductSummary
}

/** The three sources of product `A`, each counting what it is asked; 1, 2 and 3 reviews in their summary. */
async function sources() {
  const catalog = {
    summaries: vi.fn(async () => new Map([['A', summary(1)]])),
    reviews: vi.fn(async () => [review('build')]),
  }
  const build = vi.fn(() => catalog)
  const replica: ProductReplica = {
    reviews: createMemoryReviewStore(),
    summaries: createMemorySummaryStore(),
  }
  await replica.reviews.putMany([review('replica')])
  await replica.summaries.putMany([summary(2)])
  const api = {
    products: {
      list: vi.fn(async () => ({ data: [summary(3)] })),
      reviews: { list: vi.fn(async () => ({ data: [review('api')] })) },
    },
  }
  // The client's resources are classes: a fake of their shape stands in.
  return { build, catalog, replica, api, client: api as never }
}

const facts = (
  view: ReviewView,
  given: Partial<ProductSectionFacts> & Pick<ProductSectionFacts, 'client'>,
) => ({
  ids: ['A'],
  view,
  limit: 5,
  signer,
  ...given,
})

describe('productSection: build catalog for a first page, then replica, then API', () => {
  it('takes the first page of the newest reviews from the build’s catalog, even beside a replica', async () => {
    const { build, catalog, replica, api, client } = await sources()
    const shown = await productSection(facts(first, { build, replica, client }))
    expect(productSectionSource(facts(first, { build, replica, client })).origin).toBe('build')
    expect(shown.data.map((shownReview) => shownReview.review_id)).toEqual(['build-review'])
    expect(shown.summary?.ratings?.count_total).toBe(1)
    expect(catalog.reviews).toHaveBeenCalledWith('A')
    expect(api.products.list).not.toHaveBeenCalled()
    expect(api.products.reviews.list).not.toHaveBeenCalled()
  })

  it.each(notFirst)(
    'reads any other view (%o) from the replica, without opening the catalog',
    async (view) => {
      const { build, replica, api, client } = await sources()
      const shown = await productSection(facts(view, { build, replica, client }))
      expect(productSectionSource(facts(view, { build, replica, client })).origin).toBe('replica')
      expect(build).not.toHaveBeenCalled()
      expect(shown.summary?.ratings?.count_total).toBe(2)
      expect(api.products.list).not.toHaveBeenCalled()
      expect(api.products.reviews.list).not.toHaveBeenCalled()
    },
  )

  it('reads the first page from the replica when the render is no prerender of the build', async () => {
    const { replica, api, client } = await sources()
    const shown = await productSection(facts(first, { replica, client }))
    expect(shown.data.map((shownReview) => shownReview.review_id)).toEqual(['replica-review'])
    expect(shown.summary?.ratings?.count_total).toBe(2)
    expect(api.products.list).not.toHaveBeenCalled()
  })

  it('asks the API, two calls, with neither a catalog for the view nor a replica', async () => {
    for (const view of [first, ...notFirst]) {
      const { build, api, client } = await sources()
      const given = view === first ? { client } : { build, client }
      const shown = await productSection(facts(view, given))
      expect(productSectionSource(facts(view, given)).origin).toBe('api')
      expect(build).not.toHaveBeenCalled()
      expect(shown.summary?.ratings?.count_total).toBe(3)
      expect(api.products.list).toHaveBeenCalledTimes(1)
      expect(api.products.reviews.list).toHaveBeenCalledTimes(1)
    }
  })
})

describe('brandSection: replica, then API', () => {
  const brandReview = { review_id: 'b1', shop_key: '', publish_date: '2025-03-09T10:00:00Z', review_rate: 4 }

  it('reads the replica when the server holds one, with no call', async () => {
    const replica = {
      reviews: createMemoryReviewStore<BrandReview>(),
      ratings: createMemoryBrandRatingStore(),
    }
    await replica.reviews.putMany([brandReview as unknown as BrandReview])
    const list = vi.fn()
    const client = { brands: { list, reviews: { list } } } as never
    const shown = await brandSection({ replica, client, shopKey: undefined, view: first, limit: 5, signer })
    expect(shown.data.map((shownReview) => shownReview.review_id)).toEqual(['b1'])
    expect(list).not.toHaveBeenCalled()
  })

  it('asks the API without a replica', async () => {
    const list = vi.fn(async () => ({ data: [{ shop_key: '', average: 4 }] }))
    const reviewsList = vi.fn(async () => ({ data: [brandReview] }))
    const client = { brands: { list, reviews: { list: reviewsList } } } as never
    const shown = await brandSection({ client, shopKey: undefined, view: first, limit: 5, signer })
    expect(shown.rating).toMatchObject({ average: 4 })
    expect(list).toHaveBeenCalledTimes(1)
    expect(reviewsList).toHaveBeenCalledTimes(1)
  })
})
