import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  admin,
  type BrandRating,
  type BrandReview,
  call,
  expectError,
  OPERATION_PROBES,
  type ProductRating,
  type ProductReview,
  type ProductSummary,
  PUBLISHED,
  PUBLISHED_TOKEN_FORM,
  PUBLISHED_TOKEN_PATH,
  type PublishedClient,
  publishedClient,
  rawRequest,
  resetSandbox,
  type Sandbox,
  startSandbox,
  tokenRequest,
  validGtin,
} from './helpers.ts'

interface Stats {
  total: number
  operations: Record<string, number>
}

const PRODUCT_REVIEW_FIELDS = [
  'review_id',
  'author_firstname',
  'author_lastname',
  'is_personal_data_disclosed',
  'locale',
  'review_date',
  'publish_date',
  'order_date',
  'review_content',
  'review_rate',
  'order_reference',
  'order_id',
  'product_variation_id',
  'product_ean',
  'product_upc',
  'product_jan',
  'product_sku',
  'product_mpn',
  'product_brand',
  'product_name',
  'is_verified',
  'medias',
  'incentivization',
  'syndicated_review',
  'syndicated_review_source',
  'syndicated_review_source_url',
  'translated_review',
  'moderations',
  'extras',
]

const BRAND_REVIEW_FIELDS = [
  'review_id',
  'order_reference',
  'shop_key',
  'review_content',
  'author_firstname',
  'author_lastname',
  'locale',
  'website_id',
  'review_rate',
  'incentivization',
  'is_verified',
  'is_personal_data_disclosed',
  'order_date',
  'review_date',
  'publish_date',
  'moderations',
  'extras',
]

let sb: Sandbox
let api: PublishedClient
let latestSeeded: number

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  const newest = await api.get<ProductReview[]>('/products/reviews', {
    sort: 'publish_date',
    desc: 'publish_date',
    limit: 1,
  })
  latestSeeded = Date.parse(newest.body[0]?.publish_date ?? '')
})

afterAll(async () => {
  await sb?.close()
})

function addProductReviews(reviews: unknown): ReturnType<typeof admin<ProductReview[]>> {
  return admin<ProductReview[]>(sb, 'POST', 'product-reviews', reviews)
}

function addBrandReviews(reviews: unknown): ReturnType<typeof admin<BrandReview[]>> {
  return admin<BrandReview[]>(sb, 'POST', 'brand-reviews', reviews)
}

async function productSummary(name: string): Promise<ProductSummary | undefined> {
  return (await api.get<ProductSummary[]>('/products', { product_variation_id: name })).body[0]
}

async function productRating(name: string): Promise<ProductRating | undefined> {
  return (await api.get<ProductRating[]>('/products/ratings', { type: 'product_variation_id', value: name }))
    .body[0]
}

async function stats(): Promise<Stats> {
  const answer = await admin<Stats>(sb, 'GET', 'stats')
  expect(answer.status, answer.text).toBe(200)
  return answer.body
}

describe('POST /__sandbox/product-reviews', () => {
  afterEach(async () => {
    await resetSandbox(sb, api)
  })

  it('answers 201 with a full review filled in from a product_variation_id alone', async () => {
    const answer = await addProductReviews([{ product_variation_id: 'SKU-004' }])
    expect(answer.status, answer.text).toBe(201)
    expect(answer.body).toHaveLength(1)
    const [review] = answer.body
    for (const field of PRODUCT_REVIEW_FIELDS) expect(review, field).toHaveProperty(field)
    expect(review?.product_variation_id).toBe('SKU-004')
    expect(review?.review_id).toMatch(/\S/)
    expect([1, 2, 3, 4, 5]).toContain(review?.review_rate)
  })

  it('fills in the product identifiers of the catalogue product', async () => {
    const seeded = (
      await api.get<ProductReview[]>('/products/reviews', { product_variation_id: 'SKU-004', limit: 1 })
    ).body[0]
    const [review] = (await addProductReviews([{ product_variation_id: 'SKU-004' }])).body
    for (const field of [
      'product_ean',
      'product_sku',
      'product_mpn',
      'product_upc',
      'product_jan',
      'product_name',
    ]) {
      expect(review?.[field as keyof ProductReview], field).toEqual(seeded?.[field as keyof ProductReview])
    }
  })

  it('keeps the members it is given', async () => {
    const given = {
      product_variation_id: 'SKU-005',
      review_rate: 2,
      review_content: 'Lid cracked after a week',
    }
    const [review] = (await addProductReviews([given])).body
    expect(review).toMatchObject(given)
  })

  it('publishes the reviews after every earlier review, each strictly later than the one before', async () => {
    const answer = await addProductReviews([
      { product_variation_id: 'SKU-001' },
      { product_variation_id: 'SKU-001' },
      { product_variation_id: 'SKU-002' },
    ])
    const times = answer.body.map((review) => Date.parse(review.publish_date))
    expect(times[0]).toBeGreaterThan(latestSeeded)
    expect(times[1]).toBeGreaterThan(times[0] ?? Number.POSITIVE_INFINITY)
    expect(times[2]).toBeGreaterThan(times[1] ?? Number.POSITIVE_INFINITY)
    const [later] = (await addProductReviews([{ product_variation_id: 'SKU-003' }])).body
    expect(Date.parse(later?.publish_date ?? '')).toBeGreaterThan(times[2] ?? Number.POSITIVE_INFINITY)
  })

  it('makes the review the newest of /products/reviews', async () => {
    const [review] = (await addProductReviews([{ product_variation_id: 'SKU-006' }])).body
    const newest = await api.get<ProductReview[]>('/products/reviews', {
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 1,
    })
    expect(newest.body).toEqual([review])
  })

  it('adds the review to the product’s aggregates in /products and /products/ratings', async () => {
    const before = await productSummary('SKU-008')
    const ratingBefore = await productRating('SKU-008')
    await addProductReviews([{ product_variation_id: 'SKU-008', review_rate: 1 }])
    const after = await productSummary('SKU-008')
    const ratingAfter = await productRating('SKU-008')
    expect(after?.ratings.count_total).toBe((before?.ratings.count_total ?? 0) + 1)
    expect(after?.ratings.count_1).toBe((before?.ratings.count_1 ?? 0) + 1)
    expect(ratingAfter?.count_total).toBe((ratingBefore?.count_total ?? 0) + 1)
    expect(ratingAfter?.average).toBeLessThan(ratingBefore?.average ?? 0)
  })

  it('makes a review_content given alone its own only translation', async () => {
    const [review] = (
      await addProductReviews([
        { product_variation_id: 'SKU-009', locale: 'de_DE', review_content: 'Sehr gut verarbeitet' },
      ])
    ).body
    expect(review?.translated_review).toEqual({ de: 'Sehr gut verarbeitet' })
  })

  it('publishes additions at the current time, seeded dates lying in the past', async () => {
    const before = Date.now()
    const [review] = (await addProductReviews([{ product_variation_id: 'SKU-010' }])).body
    const after = Date.now()
    const published = Date.parse(review?.publish_date ?? '')
    expect(published).toBeGreaterThanOrEqual(before)
    expect(published).toBeLessThanOrEqual(after)
  })

  it('fills in dates in order: order, then review, then publication', async () => {
    const [review] = (await addProductReviews([{ product_variation_id: 'SKU-011' }])).body
    const [order, written, published] = [review?.order_date, review?.review_date, review?.publish_date].map(
      (d) => Date.parse(d ?? ''),
    )
    expect(order).toBeLessThanOrEqual(written ?? Number.NaN)
    expect(written).toBeLessThanOrEqual(published ?? Number.NaN)
  })

  it('gives a new product valid EAN-13, UPC-A and JAN codes', async () => {
    const [review] = (await addProductReviews([{ product_variation_id: 'SKU-NEW-3' }])).body
    expect(validGtin(review?.product_ean ?? '', 13)).toBe(true)
    expect(validGtin(review?.product_upc ?? '', 12)).toBe(true)
    expect(validGtin(review?.product_jan ?? '', 13)).toBe(true)
    expect(review?.product_jan).toMatch(/^49/)
  })

  it('gives a product its AI summary when it reaches three reviews', async () => {
    const products = (await api.walk<ProductSummary>('/products', { limit: 200 })).items
    const few = products.find((product) => product.ratings.count_total > 0 && product.ratings.count_total < 3)
    expect(few).toBeDefined()
    const name = few?.product_variation_id ?? ''
    const missing = 3 - (few?.ratings.count_total ?? 0)
    await addProductReviews(Array.from({ length: missing }, () => ({ product_variation_id: name })))
    const summary = await productSummary(name)
    expect(summary?.review_summary?.content).toMatch(/\S/)
  })

  it('gives a product without reviews its first ratings', async () => {
    const empty = (await api.walk<ProductSummary>('/products', { limit: 200 })).items.find(
      (product) => product.ratings.count_total === 0,
    )
    const name = empty?.product_variation_id ?? ''
    await addProductReviews([{ product_variation_id: name, review_rate: 4 }])
    expect((await productSummary(name))?.ratings).toMatchObject({ average: 4, count_total: 1, count_4: 1 })
    expect(await productRating(name)).toMatchObject({
      product_variation_id: name,
      average: 4,
      count_total: 1,
    })
  })

  it('adds an unknown product to the catalogue', async () => {
    await addProductReviews([{ product_variation_id: 'SKU-NEW-1', review_rate: 5 }])
    const products = (await api.walk<ProductSummary>('/products', { limit: 200 })).items
    expect(products).toHaveLength(61)
    const added = products.find((product) => product.product_variation_id === 'SKU-NEW-1')
    expect(added?.ratings).toMatchObject({ average: 5, count_total: 1, count_5: 1 })
    const reviews = await api.get<ProductReview[]>('/products/reviews', { product_variation_id: 'SKU-NEW-1' })
    expect(reviews.body).toHaveLength(1)
  })
})

describe('POST /__sandbox/brand-reviews', () => {
  afterEach(async () => {
    await resetSandbox(sb, api)
  })

  it('adds a shop for a new shop_key', async () => {
    await addBrandReviews([{ shop_key: 'shop-nantes', review_rate: 4 }])
    const brands = (await api.get<BrandRating[]>('/brands')).body
    expect(brands.map((brand) => brand.shop_key)).toContain('shop-nantes')
    expect(brands.find((brand) => brand.shop_key === 'shop-nantes')?.count_total_since_creation).toBe(1)
  })

  it('answers 201 with a full brand review from an empty object', async () => {
    const answer = await addBrandReviews([{}])
    expect(answer.status, answer.text).toBe(201)
    const [review] = answer.body
    for (const field of BRAND_REVIEW_FIELDS) expect(review, field).toHaveProperty(field)
    expect(review?.website_id).toBe(sb.websiteId)
  })

  it('makes the review the newest of /brands/reviews and counts it for its shop', async () => {
    const brands = (await api.get<BrandRating[]>('/brands')).body
    const shop = brands.find((brand) => brand.shop_key !== '') as BrandRating
    const [review] = (await addBrandReviews([{ shop_key: shop.shop_key, review_rate: 2 }])).body
    expect(review).toMatchObject({ shop_key: shop.shop_key, review_rate: 2 })
    const newest = await api.get<BrandReview[]>('/brands/reviews', {
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 1,
    })
    expect(newest.body).toEqual([review])
    const after = (await api.get<BrandRating[]>('/brands', { shop_key: shop.shop_key })).body[0]
    expect(after?.count_total_since_creation).toBe(shop.count_total_since_creation + 1)
  })
})

describe('refused admin bodies', () => {
  afterAll(async () => {
    await resetSandbox(sb, api)
  })

  it.each([
    { name: 'an empty array', body: [], field: undefined },
    {
      name: 'an unknown member',
      body: [{ product_variation_id: 'SKU-001' }, { product_variation_id: 'SKU-001', colour: 'red' }],
      field: '[1].colour',
    },
    {
      name: 'a wrong type',
      body: [{ product_variation_id: 'SKU-001', review_rate: '5' }],
      field: '[0].review_rate',
    },
    {
      name: 'a publish_date',
      body: [{ product_variation_id: 'SKU-001', publish_date: '2026-01-01T00:00:00.000Z' }],
      field: '[0].publish_date',
    },
    {
      name: 'a future order_date',
      body: [{ product_variation_id: 'SKU-001', order_date: '2099-01-01T00:00:00.000Z' }],
      field: '[0].order_date',
    },
    {
      name: 'a review_date before the order_date',
      body: [
        {
          product_variation_id: 'SKU-001',
          order_date: '2025-05-02T00:00:00.000Z',
          review_date: '2025-05-01T00:00:00.000Z',
        },
      ],
      field: undefined,
    },
    {
      name: 'a last name with is_personal_data_disclosed false',
      body: [
        { product_variation_id: 'SKU-001', is_personal_data_disclosed: false, author_lastname: 'Martin' },
      ],
      field: undefined,
    },
    {
      name: 'a product field other than the catalogue’s',
      body: [{ product_variation_id: 'SKU-001', product_ean: '0000000000000' }],
      field: '[0].product_ean',
    },
  ])('refuses $name with 400 invalid_body and adds nothing', async ({ body, field }) => {
    const before = (await api.get<ProductSummary[]>('/products', { product_variation_id: 'SKU-001' })).body[0]
    expectError(await addProductReviews(body), 400, 'invalid_body', field)
    const after = (await api.get<ProductSummary[]>('/products', { product_variation_id: 'SKU-001' })).body[0]
    expect(after?.ratings.count_total).toBe(before?.ratings.count_total)
  })

  it('refuses a review_id already taken with 400 invalid_body', async () => {
    const seeded = (await api.get<ProductReview[]>('/products/reviews', { limit: 1 })).body[0]
    const answer = await addProductReviews([
      { product_variation_id: 'SKU-001', review_id: seeded?.review_id },
    ])
    expectError(answer, 400, 'invalid_body', '[0].review_id')
  })

  it('refuses a brand review with an unknown member with 400 invalid_body', async () => {
    expectError(await addBrandReviews([{ colour: 'red' }]), 400, 'invalid_body', '[0].colour')
  })

  it('refuses a review_rate outside 1 to 5 with a 400 JSON error', async () => {
    expectError(await addProductReviews([{ product_variation_id: 'SKU-001', review_rate: 9 }]), 400)
    expectError(await addBrandReviews([{ review_rate: 0 }]), 400)
  })

  it('refuses a review without product_variation_id with a 400 JSON error', async () => {
    expectError(await addProductReviews([{ review_rate: 5 }]), 400)
  })

  it('refuses a body that is not an array with a 400 JSON error', async () => {
    expectError(await addProductReviews({ product_variation_id: 'SKU-001' }), 400)
  })

  it('refuses a brand review body that is not an array with a 400 JSON error', async () => {
    expectError(await addBrandReviews({}), 400)
  })
})

describe('stats', () => {
  it('DELETE /__sandbox/stats zeroes the counters and answers 204', async () => {
    await api.get('/products')
    const deleted = await admin(sb, 'DELETE', 'stats')
    expect(deleted.status, deleted.text).toBe(204)
    const counters = await stats()
    expect(counters.total).toBe(0)
    for (const count of Object.values(counters.operations)) expect(count).toBe(0)
  })

  it('counts API requests by operation, errors included', async () => {
    await admin(sb, 'DELETE', 'stats')
    await api.get('/products')
    await api.get('/products', { limit: 2 })
    await api.get('/products/reviews')
    await api.get('/products/reviews', { limit: 0 })
    await api.get('/brands')
    await tokenRequest(sb, PUBLISHED_TOKEN_PATH, PUBLISHED_TOKEN_FORM)
    const counters = await stats()
    expect(counters.total).toBe(6)
    expect(counters.operations).toMatchObject({
      'products.list': 2,
      'products.reviews.list': 2,
      'brands.list': 1,
      'token.published': 1,
    })
  })

  it.each(OPERATION_PROBES)('counts a request of $operation under that name', async (probe) => {
    await admin(sb, 'DELETE', 'stats')
    expect((await probe.send(sb, api.token)).status).toBe(200)
    const counters = await stats()
    expect(counters.total).toBe(1)
    expect(counters.operations[probe.operation]).toBe(1)
  })

  it('lists only the operations counted, in name order, with their sum as total', async () => {
    await admin(sb, 'DELETE', 'stats')
    await api.get('/brands')
    await api.get('/products')
    await api.get('/brands/reviews')
    await api.get('/brands')
    const counters = await stats()
    expect(Object.entries(counters.operations)).toEqual([
      ['brands.list', 2],
      ['brands.reviews.list', 1],
      ['products.list', 1],
    ])
    expect(counters.total).toBe(4)
  })

  it('does not count requests to unknown paths', async () => {
    await admin(sb, 'DELETE', 'stats')
    await call(`${sb.origin}/verified-reviews/v1/published/no-such-list`)
    await call(`${sb.origin}/nowhere`)
    expect((await stats()).total).toBe(0)
  })

  it('counts unauthenticated requests too', async () => {
    await admin(sb, 'DELETE', 'stats')
    await call(`${api.url('/brands/reviews')}`)
    expect((await stats()).operations['brands.reviews.list']).toBe(1)
  })

  it('does not count admin requests', async () => {
    await admin(sb, 'DELETE', 'stats')
    await admin(sb, 'GET', 'stats')
    await admin(sb, 'GET', 'faults')
    await addProductReviews([{ product_variation_id: 'SKU-001' }])
    const counters = await stats()
    expect(counters.total).toBe(0)
  })
})

describe('POST /__sandbox/reset', () => {
  afterEach(async () => {
    await resetSandbox(sb, api)
  })

  it('brings back the seeded reviews and catalogue', async () => {
    await addProductReviews([{ product_variation_id: 'SKU-NEW-2' }, { product_variation_id: 'SKU-001' }])
    await addBrandReviews([{}])
    await resetSandbox(sb, api)
    const products = (await api.get<ProductSummary[]>('/products', { limit: 200 })).body
    expect(products).toHaveLength(60)
    expect(products.reduce((sum, product) => sum + product.ratings.count_total, 0)).toBe(3000)
    const newest = await api.get<ProductReview[]>('/products/reviews', {
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 1,
    })
    expect(Date.parse(newest.body[0]?.publish_date ?? '')).toBe(latestSeeded)
    const brand = (await api.get<BrandRating[]>('/brands', { linked_to_shop: false })).body[0]
    expect(brand?.count_total_since_creation).toBe(500)
  })

  it('zeroes the stats and clears the faults', async () => {
    await api.get('/products')
    await admin(sb, 'POST', 'faults', [{ operation: 'brands.list', status: 500 }])
    const reset = await admin(sb, 'POST', 'reset')
    expect(reset.status, reset.text).toBe(204)
    expect((await stats()).total).toBe(0)
    expect((await admin(sb, 'GET', 'faults')).body).toEqual([])
  })

  it('makes the sandbox behave like a new one, additions included', async () => {
    await addProductReviews([{ product_variation_id: 'SKU-001' }])
    await resetSandbox(sb, api)
    const [afterReset] = (await addProductReviews([{ product_variation_id: 'SKU-002' }])).body
    const fresh = await startSandbox({ rateLimit: 0 })
    try {
      const [inFresh] = (
        await admin<ProductReview[]>(fresh, 'POST', 'product-reviews', [{ product_variation_id: 'SKU-002' }])
      ).body
      // Dates of additions follow the clock, so only they may differ.
      const comparable = (review: ProductReview | undefined, origin: string) =>
        JSON.stringify(review)
          .replaceAll(origin, '')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'DATE')
      expect(comparable(afterReset, sb.origin)).toBe(comparable(inFresh, fresh.origin))
    } finally {
      await fresh.close()
    }
  })

  it('ends every token', async () => {
    await admin(sb, 'POST', 'reset')
    expectError(await api.fetch(api.url('/products')), 401, 'unauthorized')
  })
})

describe('admin routes', () => {
  it('POST /__sandbox/tokens/expire answers 204', async () => {
    expect((await admin(sb, 'POST', 'tokens/expire')).status).toBe(204)
    await api.renew()
  })

  it('HEAD is answered as GET without a body', async () => {
    const head = await rawRequest(
      sb,
      `${PUBLISHED}/products?limit=3`,
      { authorization: `Bearer ${api.token}` },
      'HEAD',
    )
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(String(head.headers['content-type'])).toMatch(/json/)
  })

  it('a body over 1 MiB is refused with 413 invalid_body', async () => {
    const huge = [{ product_variation_id: 'SKU-001', review_content: 'x'.repeat(1_100_000) }]
    const answer = await addProductReviews(huge).catch(() => undefined)
    // The sandbox closes the connection; when the answer still arrives, it must be the 413.
    if (answer !== undefined) expectError(answer, 413, 'invalid_body', 'body')
  })

  it('an unknown admin route is 404 JSON', async () => {
    expectError(await admin(sb, 'GET', 'no-such-route'), 404, 'not_found')
  })

  it('an unknown API path is 404 JSON', async () => {
    expectError(await call(`${sb.origin}/verified-reviews/v1/published/no-such-list`), 404, 'not_found')
  })

  it('a wrong method on an API path is 405 JSON', async () => {
    const answer = await call(api.url('/products'), {
      method: 'DELETE',
      headers: { authorization: `Bearer ${api.token}` },
    })
    expectError(answer, 405, 'method_not_allowed')
    expect(answer.headers.get('allow') ?? '').toMatch(/\bGET\b/)
  })
})
