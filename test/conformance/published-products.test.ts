import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  expectAverage,
  expectError,
  expectRatings,
  type ProductReview,
  type ProductSummary,
  type PublishedClient,
  publishedClient,
  ratingsOf,
  type Sandbox,
  startSandbox,
  walkCatalogue,
} from './helpers.ts'

let sb: Sandbox
let api: PublishedClient
let products: ProductSummary[]
let byProduct: Map<string, ProductReview[]>

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  const catalogue = await walkCatalogue(api)
  products = catalogue.products
  byProduct = catalogue.byProduct
})

afterAll(async () => {
  await sb?.close()
})

interface Criterion {
  code: string
  extra: { type: 'rate'; display_name: string; label: string }
  count: number
  average: number
}

/** The numeric criteria of some reviews, as the README says /products averages them. */
function criteriaOf(reviews: ProductReview[]): Criterion[] {
  const found = new Map<string, Criterion & { sum: number }>()
  for (const review of reviews) {
    for (const [code, extra] of Object.entries(review.extras)) {
      if (extra.type !== 'I1') continue
      const criterion = found.get(code) ?? {
        code,
        extra: { type: 'rate' as const, display_name: extra.display_name, label: extra.label },
        count: 0,
        average: 0,
        sum: 0,
      }
      criterion.count += 1
      criterion.sum += Number(extra.value)
      criterion.average = criterion.sum / criterion.count
      found.set(code, criterion)
    }
  }
  return [...found.values()]
    .sort((a, b) => (a.code < b.code ? -1 : 1))
    .map(({ sum: _sum, ...criterion }) => criterion)
}

function names(list: ProductSummary[]): string[] {
  return list.map((product) => product.product_variation_id)
}

describe('GET /products', () => {
  it('lists every catalogue product, those without reviews included', () => {
    const expected = Array.from({ length: 60 }, (_, index) => `SKU-${String(index + 1).padStart(3, '0')}`)
    expect(names(products)).toEqual(expected)
  })

  it('gives every product the website id of the credentials', () => {
    for (const product of products) expect(product.website_id).toBe(sb.websiteId)
  })

  it('gives every product the ratings computed from its reviews', () => {
    for (const product of products) {
      const rates = (byProduct.get(product.product_variation_id) ?? []).map((review) => review.review_rate)
      expectRatings(product.ratings, ratingsOf(rates), product.product_variation_id)
    }
  })

  it('gives a product without reviews zero ratings, average 0 and no review_summary member', () => {
    const empty = products.filter((product) => !byProduct.has(product.product_variation_id))
    expect(empty.length).toBeGreaterThan(0)
    for (const product of empty) {
      expect(product.ratings).toEqual({
        average: 0,
        count_total: 0,
        count_5: 0,
        count_4: 0,
        count_3: 0,
        count_2: 0,
        count_1: 0,
      })
      expect('review_summary' in product, product.product_variation_id).toBe(false)
    }
  })

  it('gives some reviewed products an AI review_summary with content and a last_updated_at date', () => {
    const summarized = products.filter((product) => product.review_summary !== undefined)
    expect(summarized.length).toBeGreaterThan(0)
    for (const product of summarized) {
      expect(product.ratings.count_total).toBeGreaterThan(0)
      expect(product.review_summary?.content).toMatch(/\S/)
      expect(Number.isNaN(Date.parse(product.review_summary?.last_updated_at ?? ''))).toBe(false)
    }
  })

  it('gives every product an extras array of rate criteria with an average and a count', () => {
    for (const product of products) {
      expect(Array.isArray(product.extras), product.product_variation_id).toBe(true)
      for (const extra of product.extras) {
        expect(extra).toMatchObject({
          type: 'rate',
          display_name: expect.any(String),
          label: expect.any(String),
          rate: { average: expect.any(Number), count: expect.any(Number) },
        })
        expect(Number.isInteger(extra.rate.count)).toBe(true)
      }
    }
    expect(products.some((product) => product.extras.length > 0)).toBe(true)
  })

  it('averages every numeric (I1) criterion of the product’s reviews in extras, in criterion code order', () => {
    for (const product of products) {
      const expected = criteriaOf(byProduct.get(product.product_variation_id) ?? [])
      expect(
        product.extras.map((extra) => ({ ...extra, rate: { ...extra.rate, average: 0 } })),
        product.product_variation_id,
      ).toEqual(
        expected.map((criterion) => ({ ...criterion.extra, rate: { count: criterion.count, average: 0 } })),
      )
      product.extras.forEach((extra, index) => {
        expectAverage(extra.rate.average, expected[index]?.average ?? Number.NaN, extra.label)
      })
    }
  })

  it('gives an AI summary to exactly the products with three reviews or more, dated after their latest review', () => {
    for (const product of products) {
      const own = byProduct.get(product.product_variation_id) ?? []
      expect('review_summary' in product, product.product_variation_id).toBe(own.length >= 3)
      if (product.review_summary === undefined) continue
      const latest = Math.max(...own.map((review) => Date.parse(review.publish_date)))
      expect(Date.parse(product.review_summary.last_updated_at)).toBeGreaterThan(latest)
    }
  })

  it('product_variation_id keeps the listed products only', async () => {
    const answer = await api.get<ProductSummary[]>('/products', { product_variation_id: 'SKU-010,SKU-002' })
    expect(answer.status, answer.text).toBe(200)
    expect(names(answer.body)).toEqual(['SKU-002', 'SKU-010'])
  })

  it('product_variation_id answers the same summary as the full list', async () => {
    const answer = await api.get<ProductSummary[]>('/products', { product_variation_id: 'SKU-007' })
    expect(answer.body).toEqual(products.filter((product) => product.product_variation_id === 'SKU-007'))
  })

  it('product_variation_id lists a product without reviews too', async () => {
    const empty = products.find((product) => product.ratings.count_total === 0)
    const name = empty?.product_variation_id ?? ''
    const answer = await api.get<ProductSummary[]>('/products', { product_variation_id: name })
    expect(names(answer.body)).toEqual([name])
  })

  it('an unknown product_variation_id is left out', async () => {
    const answer = await api.get<ProductSummary[]>('/products', {
      product_variation_id: 'NO-SUCH-PRODUCT,SKU-003',
    })
    expect(names(answer.body)).toEqual(['SKU-003'])
  })

  it('a review filter is an unknown parameter on /products: 400', async () => {
    expectError(await api.get('/products', { review_rate: 5 }), 400, 'invalid_parameter', 'review_rate')
  })
})
