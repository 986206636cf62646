import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  admin,
  type BrandRating,
  type BrandReview,
  distinct,
  expectAverage,
  expectError,
  groupBy,
  type PeriodRatings,
  type PublishedClient,
  publishedClient,
  type Query,
  ratingsOf,
  resetSandbox,
  type Sandbox,
  sortedIds,
  startSandbox,
} from './helpers.ts'

let sb: Sandbox
let api: PublishedClient
let all: BrandReview[]
let brands: BrandRating[]
let byShop: Map<string, BrandReview[]>
let shops: string[]

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  all = (await api.walk<BrandReview>('/brands/reviews', { limit: 200 })).items
  brands = (await api.walk<BrandRating>('/brands', { limit: 200 })).items
  byShop = groupBy(all, (review) => review.shop_key)
  shops = distinct(all.map((review) => review.shop_key).filter((key) => key !== '')).sort()
})

afterAll(async () => {
  await sb?.close()
})

async function expectFilter(query: Query, keep: (review: BrandReview) => boolean): Promise<void> {
  const expected = all.filter(keep)
  // A filter that keeps nothing or everything would prove nothing.
  expect(expected.length).toBeGreaterThan(0)
  expect(expected.length).toBeLessThan(all.length)
  const got = (await api.walk<BrandReview>('/brands/reviews', { limit: 200, ...query })).items
  expect(sortedIds(got)).toEqual(sortedIds(expected))
}

function time(value: string): number {
  return Date.parse(value)
}

/**
 * The reviews an entry of /brands aggregates: a shop's own, or for the brand (empty shop_key) every
 * review, shops included, since the spec's migration guide maps the brand-wide infosite file onto it.
 */
function reviewsOf(brand: BrandRating): BrandReview[] {
  return brand.shop_key === '' ? all : (byShop.get(brand.shop_key) ?? [])
}

function expectPeriod(period: PeriodRatings, rates: number[], label: string): void {
  const { count_total: _total, average, ...counts } = ratingsOf(rates)
  expect(period, label).toMatchObject(counts)
  expectAverage(period.average, average, label)
}

describe('GET /brands/reviews', () => {
  it('holds reviews of the brand itself (empty shop_key) and of its five shops', () => {
    expect(byShop.has('')).toBe(true)
    expect(shops).toEqual(['shop-bordeaux', 'shop-lille', 'shop-lyon', 'shop-marseille', 'shop-paris'])
  })

  it('gives every review the website id of the credentials', () => {
    for (const review of all) expect(review.website_id).toBe(sb.websiteId)
  })

  it('gives every review every field of the spec with its type', () => {
    const strings = [
      'review_id',
      'order_reference',
      'shop_key',
      'review_content',
      'author_firstname',
      'author_lastname',
      'locale',
      'website_id',
      'incentivization',
      'order_date',
      'review_date',
      'publish_date',
    ]
    for (const review of all) {
      const record = review as unknown as Record<string, unknown>
      for (const field of strings) expect(typeof record[field], `${review.review_id}.${field}`).toBe('string')
      expect(typeof review.is_verified).toBe('boolean')
      expect(typeof review.is_personal_data_disclosed).toBe('boolean')
      expect([1, 2, 3, 4, 5]).toContain(review.review_rate)
      expect(Array.isArray(review.moderations)).toBe(true)
      expect(typeof review.extras).toBe('object')
    }
  })

  it('gives brand review moderations no translated_comment', () => {
    const moderations = all.flatMap((review) => review.moderations)
    expect(moderations.length).toBeGreaterThan(0)
    for (const moderation of moderations) {
      expect(moderation).toMatchObject({ comment: expect.any(String), origin_type: 'moderator' })
      expect('translated_comment' in moderation).toBe(false)
    }
  })

  it('shop_key keeps the reviews of that shop', async () => {
    const [shop] = shops
    await expectFilter({ shop_key: shop ?? '' }, (review) => review.shop_key === shop)
  })

  it('shop_key takes several shops separated by commas', async () => {
    const chosen = [shops[1], shops[3]].map(String)
    await expectFilter({ shop_key: chosen.join(',') }, (review) => chosen.includes(review.shop_key))
  })

  it('linked_to_shop=false keeps only the brand’s own reviews', async () => {
    await expectFilter({ linked_to_shop: false }, (review) => review.shop_key === '')
  })

  it('linked_to_shop=true keeps only the shops’ reviews', async () => {
    await expectFilter({ linked_to_shop: true }, (review) => review.shop_key !== '')
  })

  it('publish_date.gte and review_date.lt filter brand reviews too', async () => {
    const sorted = all.map((review) => review.publish_date).sort((a, b) => time(a) - time(b))
    const from = sorted[400] ?? ''
    await expectFilter({ 'publish_date.gte': from }, (review) => time(review.publish_date) >= time(from))
    const until = all.map((review) => review.review_date).sort((a, b) => time(a) - time(b))[60] ?? ''
    await expectFilter({ 'review_date.lt': until }, (review) => time(review.review_date) < time(until))
  })

  it.each([true, false])('is_personal_data_disclosed=%s keeps the reviews with that flag', async (value) => {
    await expectFilter(
      { is_personal_data_disclosed: value },
      (review) => review.is_personal_data_disclosed === value,
    )
  })

  it.each([true, false])('is_verified=%s keeps the reviews with that flag', async (value) => {
    await expectFilter({ is_verified: value }, (review) => review.is_verified === value)
  })

  it('review_rate keeps the reviews of the given ratings', async () => {
    await expectFilter(
      { review_rate: '1,3' },
      (review) => review.review_rate === 1 || review.review_rate === 3,
    )
  })

  it('search matches content and moderation comments case-insensitively', async () => {
    const text = (review: BrandReview) =>
      `${review.review_content}\n${review.moderations.map((m) => m.comment).join('\n')}`.toLowerCase()
    const words = distinct(all.flatMap((review) => review.review_content.match(/\b[a-zA-Z]{6,}\b/g) ?? []))
    const word = words.find((candidate) => {
      const hits = all.filter((review) => text(review).includes(candidate.toLowerCase())).length
      return hits >= 2 && hits <= 100
    })
    expect(word).toBeDefined()
    const needle = word ?? ''
    await expectFilter({ search: needle.toUpperCase() }, (review) =>
      text(review).includes(needle.toLowerCase()),
    )
  })

  it('filters combine with AND', async () => {
    const [shop] = shops
    await expectFilter(
      { shop_key: shop ?? '', review_rate: '5', is_verified: true },
      (review) => review.shop_key === shop && review.review_rate === 5 && review.is_verified,
    )
  })

  it.each(['linked_to_shop', 'is_personal_data_disclosed', 'is_verified'])(
    '%s=maybe is 400 naming it',
    async (name) => {
      expectError(await api.get('/brands/reviews', { [name]: 'maybe' }), 400, 'invalid_parameter', name)
    },
  )

  it('review_rate=6 is 400', async () => {
    expectError(await api.get('/brands/reviews', { review_rate: 6 }), 400, 'invalid_parameter', 'review_rate')
  })

  it('a product filter is an unknown parameter on /brands/reviews: 400', async () => {
    const answer = await api.get('/brands/reviews', { product_variation_id: 'SKU-001' })
    expectError(answer, 400, 'invalid_parameter', 'product_variation_id')
  })
})

describe('GET /brands', () => {
  it('has one entry per shop plus the brand itself', () => {
    expect(brands.map((brand) => brand.shop_key).sort()).toEqual(['', ...shops])
  })

  it('gives every entry the website id of the credentials', () => {
    for (const brand of brands) expect(brand.website_id).toBe(sb.websiteId)
  })

  it('counts every review of a shop in its count_total_since_creation', () => {
    for (const brand of brands.filter((entry) => entry.shop_key !== '')) {
      expect(brand.count_total_since_creation, brand.shop_key).toBe(byShop.get(brand.shop_key)?.length)
    }
  })

  it('counts every brand review, shops included, in the brand’s count_total_since_creation', () => {
    expect(brands.find((brand) => brand.shop_key === '')?.count_total_since_creation).toBe(all.length)
  })

  it('gives the publish date of the entry’s oldest review as oldest_review_publish_date', () => {
    for (const brand of brands) {
      const oldest = Math.min(...reviewsOf(brand).map((review) => time(review.publish_date)))
      expect(time(brand.oldest_review_publish_date), brand.shop_key).toBe(oldest)
    }
  })

  it('counts in one_year and five_year the reviews published in the year (five years) up to the latest brand review', () => {
    const reference = new Date(Math.max(...all.map((review) => time(review.publish_date))))
    for (const brand of brands) {
      for (const [period, years] of [
        ['one_year', 1],
        ['five_year', 5],
      ] as const) {
        const start = new Date(reference)
        start.setUTCFullYear(start.getUTCFullYear() - years)
        const rates = reviewsOf(brand)
          .filter((review) => time(review.publish_date) > start.getTime())
          .map((review) => review.review_rate)
        expectPeriod(brand[period], rates, `${brand.shop_key} ${period}`)
      }
    }
  })

  it('one_year holds fewer reviews than five_year, the seeded ones spanning more than a year', () => {
    const sum = (period: PeriodRatings) =>
      period.count_5 + period.count_4 + period.count_3 + period.count_2 + period.count_1
    for (const brand of brands) expect(sum(brand.one_year), brand.shop_key).toBeLessThan(sum(brand.five_year))
  })

  it('shop_key keeps the listed shops', async () => {
    const chosen = [shops[4], shops[0]].map(String)
    const answer = await api.get<BrandRating[]>('/brands', { shop_key: chosen.join(',') })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.map((brand) => brand.shop_key)).toEqual([...chosen].sort())
  })

  it('linked_to_shop=false keeps only the brand’s own entry', async () => {
    const answer = await api.get<BrandRating[]>('/brands', { linked_to_shop: false })
    expect(answer.body).toEqual(brands.filter((brand) => brand.shop_key === ''))
  })

  it('linked_to_shop=true keeps only the shops’ entries', async () => {
    const answer = await api.get<BrandRating[]>('/brands', { linked_to_shop: true })
    expect(answer.body).toEqual(brands.filter((brand) => brand.shop_key !== ''))
  })

  it('linked_to_shop=maybe is 400', async () => {
    expectError(
      await api.get('/brands', { linked_to_shop: 'maybe' }),
      400,
      'invalid_parameter',
      'linked_to_shop',
    )
  })

  it('a brand review added now moves the one-year window to now', async () => {
    try {
      const before = brands.find((brand) => brand.shop_key === '') as BrandRating
      const added = await admin<BrandReview[]>(sb, 'POST', 'brand-reviews', [{ review_rate: 1 }])
      expect(added.status, added.text).toBe(201)
      const now = Date.parse(added.body[0]?.publish_date ?? '')
      const start = new Date(now)
      start.setUTCFullYear(start.getUTCFullYear() - 1)
      const rates = [...all, ...added.body]
        .filter((review) => time(review.publish_date) > start.getTime())
        .map((review) => review.review_rate)
      const after = (await api.get<BrandRating[]>('/brands', { linked_to_shop: false }))
        .body[0] as BrandRating
      expectPeriod(after.one_year, rates, 'brand one_year')
      expect(after.count_total_since_creation).toBe(before.count_total_since_creation + 1)
    } finally {
      await resetSandbox(sb, api)
    }
  })

  it('a review filter is an unknown parameter on /brands: 400', async () => {
    expectError(await api.get('/brands', { review_rate: 5 }), 400, 'invalid_parameter', 'review_rate')
  })
})
