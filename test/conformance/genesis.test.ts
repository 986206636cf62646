import { createHash } from 'node:crypto'
import { createSandbox } from '@verified-reviews/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Answer,
  admin,
  type BrandRating,
  type BrandReview,
  call,
  expectError,
  type ProductRating,
  type ProductReview,
  type PublishedClient,
  publishedClient,
  type Sandbox,
} from './helpers.ts'

interface GenesisReview {
  id_review: string
  rate: string
  review: string
  firstname: string
  lastname: string
  order_ref: string
  review_date: string
  publish_date: string
  order_date: string
  language: string
  moderation: { comment: string; date: string; origin: string }[]
}

interface GenesisBrandReview extends GenesisReview {
  id_shop: string
}

interface GenesisProductReview extends GenesisReview {
  id_product: string
}

interface WebsiteAnswer {
  count: string
  average: string
  page: number
  range: number
  reviews: GenesisBrandReview[]
}

const SECRET = 'conformance-genesis-secret'
const OTHER_WEBSITE = '11111111-2222-4333-8444-555555555555'
const DAY = 86_400_000

let sb: Sandbox
let api: PublishedClient
let brandReviews: BrandReview[]
let productReviews: ProductReview[]

beforeAll(async () => {
  sb = await createSandbox({ rateLimit: 0, genesisSecret: SECRET })
  api = await publishedClient(sb)
  brandReviews = (await api.walk<BrandReview>('/brands/reviews', { limit: 200 })).items
  productReviews = (await api.walk<ProductReview>('/products/reviews', { limit: 200 })).items
})

afterAll(async () => {
  await sb?.close()
})

function token(offsetDays = 0, idWebsite = sb.websiteId, secret = SECRET): string {
  const day = new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10)
  return createHash('sha256').update(`${idWebsite}${secret}${day}`).digest('hex')
}

function website<T = WebsiteAnswer>(query: Record<string, string> = {}, auth = true): Promise<Answer<T>> {
  const url = new URL(`${sb.origin}/genesis/website`)
  if (auth) {
    url.searchParams.set('idWebsite', sb.websiteId)
    url.searchParams.set('token', token())
  }
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return call<T>(url.toString())
}

function product<T = Record<string, unknown[]>>(
  body: unknown,
  query: Record<string, string> = { idWebsite: sb.websiteId, token: token() },
): Promise<Answer<T>> {
  const url = new URL(`${sb.origin}/genesis/product`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return call<T>(url.toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

function round2(value: number): number {
  return Math.round(value * 100) / 100
}

function mean(rates: readonly number[]): number {
  return rates.length === 0 ? 0 : round2(rates.reduce((a, b) => a + b, 0) / rates.length)
}

function newestFirst<T extends { publish_date: string; review_id: string }>(reviews: readonly T[]): T[] {
  return [...reviews].sort((a, b) =>
    a.publish_date === b.publish_date
      ? a.review_id.localeCompare(b.review_id)
      : Date.parse(b.publish_date) - Date.parse(a.publish_date),
  )
}

/** The product with the most reviews. */
function busiest(): string {
  const counts = new Map<string, number>()
  for (const r of productReviews)
    counts.set(r.product_variation_id, (counts.get(r.product_variation_id) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] as string
}

async function walkWebsite(query: Record<string, string>): Promise<GenesisBrandReview[]> {
  const reviews: GenesisBrandReview[] = []
  for (let p = 1; p < 1000; p++) {
    const answer = await website({ ...query, p: String(p) })
    expect(answer.status, answer.text).toBe(200)
    if (answer.body.reviews.length === 0) break
    reviews.push(...answer.body.reviews)
  }
  return reviews
}

describe('Genesis token', () => {
  it.each([
    ['yesterday', -1],
    ['today', 0],
    ['tomorrow', 1],
  ])('accepts the token of %s (UTC)', async (_name, offset) => {
    const answer = await website({ idWebsite: sb.websiteId, token: token(offset) }, false)
    expect(answer.status, answer.text).toBe(200)
  })

  it('refuses the token of two days ago with 401 JSON', async () => {
    expectError(
      await website({ idWebsite: sb.websiteId, token: token(-2) }, false),
      401,
      'unauthorized',
      'token',
    )
  })

  it('refuses a token made with another secret', async () => {
    const answer = await website({ idWebsite: sb.websiteId, token: token(0, sb.websiteId, 'guess') }, false)
    expectError(answer, 401, 'unauthorized')
  })

  it('refuses a missing token', async () => {
    expectError(await website({ idWebsite: sb.websiteId }, false), 401, 'unauthorized')
  })

  it('refuses the token in upper case', async () => {
    const answer = await website({ idWebsite: sb.websiteId, token: token().toUpperCase() }, false)
    expectError(answer, 401, 'unauthorized')
  })

  it('answers 400 naming idWebsite when it is missing', async () => {
    expectError(await website({ token: token() }, false), 400, 'invalid_parameter', 'idWebsite')
  })

  it('answers 404 for another website, even with its valid token', async () => {
    const answer = await website({ idWebsite: OTHER_WEBSITE, token: token(0, OTHER_WEBSITE) }, false)
    expectError(answer, 404, 'not_found')
  })

  it('protects POST /genesis/product too', async () => {
    const answer = await product(
      { query: 'average', product: ['SKU-001'] },
      { idWebsite: sb.websiteId, token: 'x' },
    )
    expectError(answer, 401, 'unauthorized')
  })

  it('is not rate limited', async () => {
    const answer = await website()
    expect(answer.headers.get('ratelimit-limit')).toBeNull()
  })
})

describe('GET /genesis/website', () => {
  it('answers count and average of every brand review, and the first 10 newest', async () => {
    const answer = await website()
    expect(answer.status, answer.text).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/json/)
    expect(answer.body).toMatchObject({
      count: String(brandReviews.length),
      average: String(mean(brandReviews.map((r) => r.review_rate))),
      page: 1,
      range: 10,
    })
    expect(answer.body.reviews.map((r) => r.id_review)).toEqual(
      newestFirst(brandReviews)
        .slice(0, 10)
        .map((r) => r.review_id),
    )
  })

  it('maps each brand review to the Genesis fields', async () => {
    const answer = await website({ range: '200' })
    const byId = new Map(brandReviews.map((r) => [r.review_id, r]))
    for (const review of answer.body.reviews) {
      const source = byId.get(review.id_review) as BrandReview
      expect(review).toEqual({
        id_review: source.review_id,
        rate: String(source.review_rate),
        review: source.review_content,
        firstname: source.author_firstname,
        lastname: source.author_lastname,
        order_ref: source.order_reference,
        review_date: source.review_date,
        publish_date: source.publish_date,
        order_date: source.order_date,
        language: expect.stringMatching(/^[a-z]{2}_[A-Z]{2}$/),
        id_shop: source.shop_key,
        moderation: source.moderations.map((m) => ({ comment: m.comment, date: m.date, origin: m.origin })),
      })
    }
  })

  it('pages through every brand review with range and p', async () => {
    const walked = await walkWebsite({ range: '77' })
    expect(walked.map((r) => r.id_review)).toEqual(newestFirst(brandReviews).map((r) => r.review_id))
  })

  it('answers an empty page past the end', async () => {
    const answer = await website({ range: '200', p: '1000' })
    expect(answer.body.reviews).toEqual([])
  })

  it('orders by rate ascending, ties by review id', async () => {
    const answer = await website({ order_by: 'rate', order_type: 'asc', range: '200' })
    const expected = [...brandReviews].sort(
      (a, b) => a.review_rate - b.review_rate || a.review_id.localeCompare(b.review_id),
    )
    expect(answer.body.reviews.map((r) => r.id_review)).toEqual(
      expected.slice(0, 200).map((r) => r.review_id),
    )
  })

  it('keeps the reviews of the rate filter, as the Published review_rate filter does', async () => {
    const answer = await website({ field: 'rate', sign: '>=', compare: '4', range: '200' })
    const published = await api.walk<BrandReview>('/brands/reviews', { limit: 200, review_rate: '4,5' })
    expect(answer.body.count).toBe(String(published.items.length))
    expect(answer.body.reviews.every((r) => Number(r.rate) >= 4)).toBe(true)
  })

  it.each([
    ['=', 3, (rate: number) => rate === 3],
    ['!=', 5, (rate: number) => rate !== 5],
    ['<', 3, (rate: number) => rate < 3],
    ['<=', 2, (rate: number) => rate <= 2],
    ['>', 4, (rate: number) => rate > 4],
  ])('filters with sign %s', async (sign, compare, keep) => {
    const answer = await website({ field: 'rate', sign, compare: String(compare) })
    expect(answer.body.count).toBe(String(brandReviews.filter((r) => keep(r.review_rate)).length))
  })

  it('accepts iso_code and plateforme and still returns every language', async () => {
    const answer = await website({ iso_code: 'fr', plateforme: 'fr' })
    expect(answer.body.count).toBe(String(brandReviews.length))
  })

  it.each([
    [{ format: 'xml' }, 'format'],
    [{ range: '0' }, 'range'],
    [{ range: '201' }, 'range'],
    [{ p: '0' }, 'p'],
    [{ p: 'last' }, 'p'],
    [{ order_by: 'helpfulness' }, 'order_by'],
    [{ order_type: 'up' }, 'order_type'],
    [{ field: 'rate', sign: '>=' }, 'compare'],
    [{ field: 'date', sign: '=', compare: '3' }, 'field'],
    [{ field: 'rate', sign: '~', compare: '3' }, 'sign'],
    [{ field: 'rate', sign: '=', compare: '6' }, 'compare'],
    [{ limit: '5' }, 'limit'],
  ])('answers 400 for %o naming %s', async (query, field) => {
    expectError(await website(query), 400, 'invalid_parameter', field)
  })
})

describe('POST /genesis/product', () => {
  it('answers the average of each product as the Published /products/ratings does', async () => {
    const ratings = await api.get<ProductRating[]>('/products/ratings', {
      type: 'product_variation_id',
      value: 'SKU-001,SKU-002,SKU-003',
    })
    const answer = await product({ query: 'average', product: ['SKU-001', 'SKU-002', 'SKU-003'] })
    expect(answer.status, answer.text).toBe(200)
    for (const rating of ratings.body) {
      expect(answer.body[rating.product_variation_id]).toEqual([
        { rate: String(rating.average), count: String(rating.count_total) },
      ])
    }
  })

  it('answers an empty list for an unknown product', async () => {
    const answer = await product({ query: 'average', product: ['NOPE-404'] })
    expect(answer.body).toEqual({ 'NOPE-404': [] })
  })

  it('answers the newest 10 reviews of each product by default', async () => {
    const id = busiest()
    const answer = await product<Record<string, GenesisProductReview[]>>({ query: 'reviews', product: [id] })
    const expected = newestFirst(productReviews.filter((r) => r.product_variation_id === id)).slice(0, 10)
    expect(answer.body[id]?.map((r) => r.id_review)).toEqual(expected.map((r) => r.review_id))
    expect(answer.body[id]?.[0]).toMatchObject({
      id_product: id,
      rate: String(expected[0]?.review_rate),
      review: expected[0]?.review_content,
    })
  })

  it('applies limit, offset and order to each product', async () => {
    const ids = ['SKU-001', 'SKU-002']
    const answer = await product<Record<string, GenesisProductReview[]>>({
      query: 'reviews',
      product: ids,
      limit: 4,
      offset: 2,
      order: 'rate_asc',
    })
    for (const id of ids) {
      const expected = productReviews
        .filter((r) => r.product_variation_id === id)
        .sort((a, b) => a.review_rate - b.review_rate || a.review_id.localeCompare(b.review_id))
        .slice(2, 6)
      expect(answer.body[id]?.map((r) => r.id_review)).toEqual(expected.map((r) => r.review_id))
    }
  })

  it('takes idWebsite from the body', async () => {
    const answer = await product(
      { query: 'average', product: ['SKU-001'], idWebsite: sb.websiteId, plateforme: 'fr' },
      { token: token() },
    )
    expect(answer.status, answer.text).toBe(200)
  })

  it('refuses an idWebsite in the body that differs from the query', async () => {
    expectError(
      await product({ query: 'average', product: ['SKU-001'], idWebsite: OTHER_WEBSITE }),
      400,
      'invalid_parameter',
      'idWebsite',
    )
  })

  it.each([
    [{ query: 'ratings', product: ['SKU-001'] }, 'query'],
    [{ product: ['SKU-001'] }, 'query'],
    [{ query: 'reviews', product: [] }, 'product'],
    [{ query: 'reviews', product: 'SKU-001' }, 'product'],
    [{ query: 'reviews', product: [1] }, 'product'],
    [{ query: 'reviews', product: ['SKU-001'], limit: 0 }, 'limit'],
    [{ query: 'reviews', product: ['SKU-001'], limit: 201 }, 'limit'],
    [{ query: 'reviews', product: ['SKU-001'], offset: -1 }, 'offset'],
    [{ query: 'reviews', product: ['SKU-001'], order: 'newest' }, 'order'],
    [{ query: 'reviews', product: ['SKU-001'], colour: 'red' }, 'colour'],
    [{ query: 'reviews', product: ['SKU-001'], plateforme: 3 }, 'plateforme'],
  ])('answers 400 for %o naming %s', async (body, field) => {
    const answer = await product(body)
    expectError(answer, 400, undefined, field)
  })

  it('answers 400 invalid_body for a body that is not JSON', async () => {
    expectError(await product('{"query":'), 400, 'invalid_body', 'body')
  })
})

describe('static files', () => {
  async function file(name: string, idWebsite = sb.websiteId): Promise<Answer<string>> {
    return call<string>(`${sb.origin}/genesis/static/${idWebsite}/${name}`)
  }

  it('infosite.txt holds one line count;average of every brand review, without a token', async () => {
    const answer = await file('infosite.txt')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(answer.text).toBe(`${brandReviews.length};${mean(brandReviews.map((r) => r.review_rate))}\n`)
  })

  it('infosite.txt agrees with the brand entry of /brands, which covers every brand review', async () => {
    const brands = await api.walk<BrandRating>('/brands', { limit: 200 })
    const [count] = (await file('infosite.txt')).text.trim().split(';')
    const brand = brands.items.find((b) => b.shop_key === '')
    expect(Number(count)).toBe(brand?.count_total_since_creation)
  })

  it('infoshops.txt has the header and one line per shop that agrees with /brands', async () => {
    const answer = await file('infoshops.txt')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
    const [header, ...lines] = answer.text.trimEnd().split('\n')
    expect(header).toBe('id_shop;name_shop;review_number;rating;certificate_url')
    const brands = await api.walk<BrandRating>('/brands', { limit: 200 })
    const shops = brands.items.filter((b) => b.shop_key !== '')
    expect(lines).toHaveLength(shops.length)
    for (const line of lines) {
      const [idShop, name, reviewNumber, rating, certificate] = line.split(';')
      const entry = shops.find((b) => b.shop_key === idShop)
      expect(entry, line).toBeDefined()
      expect(Number(reviewNumber)).toBe(entry?.count_total_since_creation)
      const rates = brandReviews.filter((r) => r.shop_key === idShop).map((r) => r.review_rate)
      expect(Number(rating)).toBe(mean(rates))
      expect(name).not.toBe('')
      expect(certificate).toMatch(/^https?:\/\//)
    }
  })

  it('answers 404 JSON for another website', async () => {
    expectError(await file('infosite.txt', OTHER_WEBSITE), 404, 'not_found')
    expectError(await file('infoshops.txt', OTHER_WEBSITE), 404, 'not_found')
  })

  it('counts each file under its own operation', async () => {
    await admin(sb, 'DELETE', 'stats')
    await file('infosite.txt')
    await file('infoshops.txt')
    await file('infoshops.txt')
    const stats = await admin<{ operations: Record<string, number> }>(sb, 'GET', 'stats')
    expect(stats.body.operations).toMatchObject({ 'genesis.static.brand': 1, 'genesis.static.shops': 2 })
  })
})
