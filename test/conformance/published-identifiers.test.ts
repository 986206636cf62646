import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  admin,
  type BrandReview,
  expectError,
  type ProductReview,
  type ProductSummary,
  type PublishedClient,
  publishedClient,
  type Sandbox,
  sortedIds,
  startSandbox,
} from './helpers.ts'

// The spec forbids whitespace only in product_variation_id of /products/structured-datas, and caps
// only the value list of /products/ratings at 200: every other identifier list takes both.

let sb: Sandbox
let api: PublishedClient
let added: ProductReview[]

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  const answer = await admin<ProductReview[]>(sb, 'POST', 'product-reviews', [
    { product_variation_id: 'TEE-42', product_sku: 'TEE 42', order_reference: 'ORDER 7 A' },
    { product_variation_id: 'TEE-42-PAD', product_sku: 'TEE 42 ', order_reference: 'ORDER 7 B' },
    { product_variation_id: 'TEE-42-XL', product_sku: 'TEE 42 XL', order_reference: 'ORDER 7 C' },
  ])
  expect(answer.status, answer.text).toBe(201)
  added = answer.body
  api = await publishedClient(sb)
})

afterAll(async () => {
  await sb?.close()
})

function reviewOf(sku: string): ProductReview {
  const review = added.find((candidate) => candidate.product_sku === sku)
  if (review === undefined) throw new Error(`no review added for ${JSON.stringify(sku)}`)
  return review
}

describe('identifiers holding whitespace', () => {
  it('a product_sku with spaces, sent as %20, filters /products/reviews', async () => {
    const answer = await api.fetch<ProductReview[]>(
      `${api.url('/products/reviews')}?product_sku=TEE%2042,TEE%2042%20XL`,
    )
    expect(answer.status, answer.text).toBe(200)
    expect(sortedIds(answer.body)).toEqual(sortedIds([reviewOf('TEE 42'), reviewOf('TEE 42 XL')]))
  })

  it('a space sent as + is read as a space', async () => {
    const answer = await api.fetch<ProductReview[]>(`${api.url('/products/reviews')}?product_sku=TEE+42+XL`)
    expect(answer.status, answer.text).toBe(200)
    expect(sortedIds(answer.body)).toEqual(sortedIds([reviewOf('TEE 42 XL')]))
  })

  it('a trailing space is part of the identifier', async () => {
    const answer = await api.get<ProductReview[]>('/products/reviews', { product_sku: 'TEE 42 ' })
    expect(answer.status, answer.text).toBe(200)
    expect(sortedIds(answer.body)).toEqual(sortedIds([reviewOf('TEE 42 ')]))
  })

  it('an order_reference with spaces filters /products/reviews', async () => {
    const answer = await api.get<ProductReview[]>('/products/reviews', {
      order_reference: 'ORDER 7 A,ORDER 7 C',
    })
    expect(answer.status, answer.text).toBe(200)
    expect(sortedIds(answer.body)).toEqual(sortedIds([reviewOf('TEE 42'), reviewOf('TEE 42 XL')]))
  })

  it('a product_variation_id with whitespace is taken by /products and /products/reviews', async () => {
    for (const path of ['/products', '/products/reviews']) {
      const answer = await api.get<unknown[]>(path, { product_variation_id: 'TEE 42,TEE-42' })
      expect(answer.status, answer.text).toBe(200)
      expect(answer.body.length, path).toBeGreaterThan(0)
    }
  })

  it('an identifier of whitespace only is 400 naming the parameter', async () => {
    const answer = await api.get('/products/reviews', { product_sku: 'TEE 42, ' })
    expectError(answer, 400, 'invalid_parameter', 'product_sku')
  })
})

describe('identifier lists over 200 values', () => {
  const missing = (count: number) => Array.from({ length: count }, (_, i) => `MISSING-${i}`)

  it('/products/reviews takes 500 product_sku values in one request', async () => {
    const value = [...missing(498), 'TEE 42', 'TEE 42 XL'].join(',')
    const answer = await api.get<ProductReview[]>('/products/reviews', { product_sku: value })
    expect(answer.status, answer.text).toBe(200)
    expect(sortedIds(answer.body)).toEqual(sortedIds([reviewOf('TEE 42'), reviewOf('TEE 42 XL')]))
  })

  it('/products takes 300 product_variation_id values in one request', async () => {
    const value = [...missing(299), 'TEE-42'].join(',')
    const answer = await api.get<ProductSummary[]>('/products', { product_variation_id: value })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.map((product) => product.product_variation_id)).toEqual(['TEE-42'])
  })

  it('/brands/reviews and /brands take 250 shop_key values in one request', async () => {
    const value = [...missing(249), 'shop-paris'].join(',')
    const reviews = await api.get<BrandReview[]>('/brands/reviews', { shop_key: value, limit: 200 })
    expect(reviews.status, reviews.text).toBe(200)
    expect(reviews.body.length).toBeGreaterThan(0)
    expect(reviews.body.every((review) => review.shop_key === 'shop-paris')).toBe(true)
    const brands = await api.get<{ shop_key: string }[]>('/brands', { shop_key: value })
    expect(brands.body.map((brand) => brand.shop_key)).toEqual(['shop-paris'])
  })

  it('/products/ratings keeps its cap: 201 values is 400 on value', async () => {
    const answer = await api.get('/products/ratings', {
      type: 'product_variation_id',
      value: missing(201).join(','),
    })
    expectError(answer, 400, 'invalid_parameter', 'value')
  })
})
