import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  comparator,
  expectError,
  expectRatings,
  type ProductRating,
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
let catalogue: string[]
let byProduct: Map<string, ProductReview[]>
/** Products with at least one review, in catalogue order. */
let reviewed: string[]

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  const walked = await walkCatalogue(api)
  catalogue = walked.products.map((p) => p.product_variation_id)
  byProduct = walked.byProduct
  reviewed = catalogue.filter((name) => byProduct.has(name))
})

afterAll(async () => {
  await sb?.close()
})

function eanOf(name: string): string {
  return byProduct.get(name)?.[0]?.product_ean ?? ''
}

function expected(name: string) {
  return ratingsOf((byProduct.get(name) ?? []).map((review) => review.review_rate))
}

function ratings(type: string, values: string[], extra: Record<string, string> = {}) {
  return api.get<ProductRating[]>('/products/ratings', { type, value: values.join(','), ...extra })
}

function names(list: ProductRating[]): string[] {
  return list.map((rating) => rating.product_variation_id)
}

describe('GET /products/ratings', () => {
  it('type=product_variation_id answers the ratings computed from every requested product’s reviews', async () => {
    const requested = [...catalogue].reverse()
    const answer = await ratings('product_variation_id', requested)
    expect(answer.status, answer.text).toBe(200)
    expect(names(answer.body)).toEqual(requested.filter((name) => byProduct.has(name)))
    for (const rating of answer.body) {
      expectRatings(rating, expected(rating.product_variation_id), rating.product_variation_id)
      expect(rating.product_ean).toBe(eanOf(rating.product_variation_id))
    }
  })

  it('type=product_ean answers the same ratings, looked up by EAN', async () => {
    const requested = [...reviewed].reverse()
    const answer = await ratings(
      'product_ean',
      requested.map((name) => eanOf(name)),
    )
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.map((rating) => rating.product_ean)).toEqual(requested.map((name) => eanOf(name)))
    expect(names(answer.body)).toEqual(requested)
    for (const rating of answer.body) {
      expectRatings(rating, expected(rating.product_variation_id), rating.product_ean)
    }
  })

  it('answers in the order of the requested values', async () => {
    const requested = [reviewed[9], reviewed[2], reviewed[30], reviewed[6]].map(String)
    const answer = await ratings('product_variation_id', requested)
    expect(names(answer.body)).toEqual(requested)
  })

  it('leaves out unknown products and products without reviews', async () => {
    const empty = catalogue.find((name) => !byProduct.has(name)) ?? ''
    const known = reviewed[0] ?? ''
    const answer = await ratings('product_variation_id', ['NO-SUCH-PRODUCT', empty, known])
    expect(names(answer.body)).toEqual([known])
    const byEan = await ratings('product_ean', ['0000000000000', eanOf(known)])
    expect(names(byEan.body)).toEqual([known])
  })

  it('gives every entry an extras array of counts, averages and labels', async () => {
    const answer = await ratings('product_variation_id', reviewed)
    for (const rating of answer.body) {
      expect(Array.isArray(rating.extras)).toBe(true)
      for (const extra of rating.extras) {
        expect(extra).toMatchObject({
          count: expect.any(Number),
          average: expect.any(Number),
          label: expect.any(String),
        })
      }
    }
  })

  it('gives each entry the same criteria as /products, as count, average and label', async () => {
    const summaries = (await api.walk<ProductSummary>('/products', { limit: 200 })).items
    const answer = await ratings('product_variation_id', reviewed)
    for (const rating of answer.body) {
      const summary = summaries.find(
        (product) => product.product_variation_id === rating.product_variation_id,
      )
      expect(rating.extras, rating.product_variation_id).toEqual(
        (summary?.extras ?? []).map((extra) => ({
          count: extra.rate.count,
          average: extra.rate.average,
          label: extra.label,
        })),
      )
    }
  })

  it('answers a repeated value once', async () => {
    const [first, second] = reviewed
    const answer = await ratings('product_variation_id', [String(first), String(second), String(first)])
    expect(names(answer.body)).toEqual([first, second])
  })

  it('counts a repeated value once toward the 200 values', async () => {
    const distinctValues = [
      ...Array.from({ length: 199 }, (_, index) => `UNKNOWN-${index}`),
      String(reviewed[0]),
    ]
    const answer = await ratings('product_variation_id', [...distinctValues, 'UNKNOWN-0'])
    expect(answer.status, answer.text).toBe(200)
    expect(names(answer.body)).toEqual([reviewed[0]])
  })

  it('is not paged: no Link header even for many values', async () => {
    const answer = await ratings('product_variation_id', reviewed)
    expect(answer.body).toHaveLength(reviewed.length)
    expect(answer.headers.get('link')).toBeNull()
  })

  it.each([
    { sort: 'average', desc: 'average' },
    { sort: 'count_total', desc: '' },
    { sort: 'product_ean', desc: 'product_ean' },
  ])('sort=$sort (desc $desc) orders the entries instead of the request order', async ({ sort, desc }) => {
    const answer = await ratings('product_variation_id', reviewed, desc ? { sort, desc } : { sort })
    const order = [...answer.body].sort(comparator(sort.split(','), desc.split(','), 'product_variation_id'))
    expect(names(answer.body)).toEqual(names(order))
  })

  it('accepts 200 values', async () => {
    const values = Array.from({ length: 200 }, (_, index) => catalogue[index] ?? `UNKNOWN-${index}`)
    const answer = await ratings('product_variation_id', values)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toHaveLength(reviewed.length)
  })

  it('refuses 201 values with 400 on field value', async () => {
    const values = Array.from({ length: 201 }, (_, index) => `UNKNOWN-${index}`)
    expectError(await ratings('product_variation_id', values), 400, 'invalid_parameter', 'value')
  })

  it('refuses a missing type with 400 on field type', async () => {
    expectError(await api.get('/products/ratings', { value: 'SKU-001' }), 400, 'invalid_parameter', 'type')
  })

  it('refuses an unknown type with 400 on field type', async () => {
    expectError(await ratings('product_sku', ['SKU-001']), 400, 'invalid_parameter', 'type')
  })

  it('refuses a missing value with 400 on field value', async () => {
    const answer = await api.get('/products/ratings', { type: 'product_variation_id' })
    expectError(answer, 400, 'invalid_parameter', 'value')
  })

  it('refuses an empty value with 400 on field value', async () => {
    expectError(await ratings('product_variation_id', ['']), 400, 'invalid_parameter', 'value')
  })

  it('refuses an unknown sort field with 400 on field sort', async () => {
    expectError(
      await ratings('product_variation_id', ['SKU-001'], { sort: 'review_rate' }),
      400,
      'invalid_parameter',
      'sort',
    )
  })

  it.each(['limit', 'cursor'])(
    'refuses the paging parameter %s with 400, the operation not being paged',
    async (name) => {
      expectError(await ratings('product_variation_id', ['SKU-001'], { [name]: '10' }), 400)
    },
  )
})
