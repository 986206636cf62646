import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  distinct,
  expectError,
  INCENTIVIZATIONS,
  ids,
  type ProductReview,
  type PublishedClient,
  parseLinks,
  publishedClient,
  type Query,
  type Sandbox,
  startSandbox,
} from './helpers.ts'

const DATE_FIELDS = ['publish_date', 'review_date', 'order_date'] as const
const IDENTIFIERS = ['product_ean', 'product_sku', 'product_mpn', 'product_upc', 'product_jan'] as const

let sb: Sandbox
let api: PublishedClient
let all: ProductReview[]

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  all = (await api.walk<ProductReview>('/products/reviews', { limit: 200 })).items
})

afterAll(async () => {
  await sb?.close()
})

async function expectFilter(query: Query, keep: (review: ProductReview) => boolean): Promise<void> {
  const expected = all.filter(keep)
  // A filter that keeps nothing or everything would prove nothing.
  expect(expected.length).toBeGreaterThan(0)
  expect(expected.length).toBeLessThan(all.length)
  let answer = await api.get<ProductReview[]>('/products/reviews', { limit: 200, ...query })
  const got: ProductReview[] = []
  // Two pages in the default order pin down what the filter keeps and drops; walking on would only cost time.
  for (let pages = 1; ; pages++) {
    expect(answer.status, answer.text).toBe(200)
    got.push(...answer.body)
    const next = parseLinks(answer.headers.get('link')).next
    if (next === undefined || pages === 2) break
    answer = await api.fetch<ProductReview[]>(next)
  }
  expect(ids(got)).toEqual(ids(expected.slice(0, got.length)))
  expect(got.length).toBe(Math.min(expected.length, 400))
}

function time(value: string): number {
  return Date.parse(value)
}

/** `instant` written in local time at a whole-hour offset: `2025-03-01T12:00:00.000+02:00`. */
function shift(instant: Date, hours: number): string {
  const local = new Date(instant.getTime() + hours * 3600_000).toISOString().replace('Z', '')
  const sign = hours < 0 ? '-' : '+'
  return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`
}

/** A seeded date of the field, `rank` places from the start (or from the end when negative). */
function pivot(field: (typeof DATE_FIELDS)[number], rank: number): string {
  const sorted = all.map((review) => review[field]).sort((a, b) => time(a) - time(b))
  const value = sorted[rank < 0 ? sorted.length + rank : rank]
  if (value === undefined) throw new Error('not enough reviews')
  return value
}

function twoProducts(): [string, string] {
  const names = distinct(all.map((review) => review.product_variation_id)).sort()
  return [names[0] ?? '', names[7] ?? '']
}

function commentsOf(review: ProductReview): string {
  return review.moderations.map((moderation) => moderation.comment).join('\n')
}

const searchableText = new WeakMap<ProductReview, string>()

/** What `search` looks through, per the README: the content and the moderation comments. */
function searchable(review: ProductReview): string {
  let text = searchableText.get(review)
  if (text === undefined) {
    text = `${review.review_content}\n${commentsOf(review)}`.toLowerCase()
    searchableText.set(review, text)
  }
  return text
}

function asciiWords(text: string): string[] {
  return text.match(/\b[a-zA-Z]{6,}\b/g) ?? []
}

describe('identifier filters', () => {
  it('product_variation_id keeps the reviews of that product', async () => {
    const [first] = twoProducts()
    await expectFilter({ product_variation_id: first }, (review) => review.product_variation_id === first)
  })

  it('product_variation_id takes several values separated by commas', async () => {
    const [first, second] = twoProducts()
    await expectFilter({ product_variation_id: `${first},${second}` }, (review) =>
      [first, second].includes(review.product_variation_id),
    )
  })

  it('an unknown product_variation_id among known ones is ignored', async () => {
    const [first] = twoProducts()
    await expectFilter({ product_variation_id: `NO-SUCH-PRODUCT,${first}` }, (review) => {
      return review.product_variation_id === first
    })
  })

  it.each(IDENTIFIERS)('%s keeps the reviews with one of the given values', async (field) => {
    const [first, second] = twoProducts()
    const values = [first, second].map(
      (name) => all.find((review) => review.product_variation_id === name)?.[field],
    )
    expect(values.every((value) => typeof value === 'string' && value !== '')).toBe(true)
    await expectFilter({ [field]: values.join(',') }, (review) => values.includes(review[field]))
  })

  it('order_reference keeps the reviews of the given orders', async () => {
    const references = [all[3], all[500], all[2000]].map((review) => review?.order_reference ?? '')
    await expectFilter({ order_reference: references.join(',') }, (review) =>
      references.includes(review.order_reference),
    )
  })
})

describe('list syntax', () => {
  it('a repeated list parameter adds its values', async () => {
    const url = `${api.url('/products/reviews', { limit: 200 })}&review_rate=1&review_rate=2`
    const answer = await api.fetch<ProductReview[]>(url)
    expect(answer.status, answer.text).toBe(200)
    expect(ids(answer.body)).toEqual(ids(all.filter((review) => review.review_rate <= 2).slice(0, 200)))
  })

  it('whitespace around an identifier is part of it: ` SKU` is not `SKU`', async () => {
    const [first, second] = twoProducts()
    const answer = await api.get<ProductReview[]>('/products/reviews', {
      product_variation_id: ` ${first},${second} `,
      limit: 200,
    })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toEqual([])
  })

  it('items of the fixed lists (review_rate, incentivization) are trimmed', async () => {
    await expectFilter({ review_rate: ' 1 , 2', incentivization: ' gifted' }, (review) => {
      return review.review_rate <= 2 && review.incentivization === 'gifted'
    })
  })

  it.each([
    ['review_rate', '4,'],
    ['product_variation_id', 'SKU-001,,SKU-002'],
    ['incentivization', ''],
  ])('%s=%j, with an empty item, is 400 naming it', async (name, value) => {
    expectError(await api.get('/products/reviews', { [name]: value }), 400, 'invalid_parameter', name)
  })

  it('an empty search is 400', async () => {
    expectError(await api.get('/products/reviews', { search: '' }), 400, 'invalid_parameter', 'search')
  })

  it.each([
    ['limit', '5', '6'],
    ['search', 'kettle', 'sweater'],
    ['is_verified', 'true', 'false'],
    ['publish_date.gte', '2025-01-01', '2025-02-01'],
  ])('the single-valued %s given twice is 400 naming it', async (name, one, other) => {
    const url = `${api.url('/products/reviews')}?${name}=${one}&${name}=${other}`
    expectError(await api.fetch(url), 400, 'invalid_parameter', name)
  })
})

describe('rating and flag filters', () => {
  it('review_rate keeps the reviews of that rating', async () => {
    await expectFilter({ review_rate: 5 }, (review) => review.review_rate === 5)
  })

  it('review_rate takes several ratings separated by commas', async () => {
    await expectFilter({ review_rate: '1,2' }, (review) => review.review_rate <= 2)
  })

  it.each(INCENTIVIZATIONS)('incentivization=%s keeps the reviews with that value', async (value) => {
    await expectFilter({ incentivization: value }, (review) => review.incentivization === value)
  })

  it('incentivization takes several values separated by commas', async () => {
    await expectFilter({ incentivization: 'gifted,compensated' }, (review) =>
      ['gifted', 'compensated'].includes(review.incentivization),
    )
  })

  it('an unknown incentivization is 400', async () => {
    const answer = await api.get('/products/reviews', { incentivization: 'bribed' })
    expectError(answer, 400, 'invalid_parameter', 'incentivization')
  })

  it.each([true, false])('syndicated_review=%s keeps the reviews with that flag', async (value) => {
    await expectFilter({ syndicated_review: value }, (review) => review.syndicated_review === value)
  })

  it.each([true, false])('is_verified=%s keeps the reviews with that flag', async (value) => {
    await expectFilter({ is_verified: value }, (review) => review.is_verified === value)
  })

  it('several filters combine with AND', async () => {
    const [first] = twoProducts()
    await expectFilter(
      { product_variation_id: first, review_rate: '4,5', is_verified: true },
      (review) => review.product_variation_id === first && review.review_rate >= 4 && review.is_verified,
    )
  })
})

describe('date filters', () => {
  for (const field of DATE_FIELDS) {
    it(`${field}.gte keeps the reviews at or after the boundary`, async () => {
      const boundary = pivot(field, -100)
      await expectFilter({ [`${field}.gte`]: boundary }, (review) => time(review[field]) >= time(boundary))
    })

    it(`${field}.gt keeps the reviews strictly after the boundary`, async () => {
      const boundary = pivot(field, -100)
      await expectFilter({ [`${field}.gt`]: boundary }, (review) => time(review[field]) > time(boundary))
    })

    it(`${field}.lte keeps the reviews at or before the boundary`, async () => {
      const boundary = pivot(field, 100)
      await expectFilter({ [`${field}.lte`]: boundary }, (review) => time(review[field]) <= time(boundary))
    })

    it(`${field}.lt keeps the reviews strictly before the boundary`, async () => {
      const boundary = pivot(field, 100)
      await expectFilter({ [`${field}.lt`]: boundary }, (review) => time(review[field]) < time(boundary))
    })
  }

  it('two operators on one field combine into a range', async () => {
    const from = pivot('publish_date', 1000)
    const to = pivot('publish_date', 1150)
    await expectFilter(
      { 'publish_date.gte': from, 'publish_date.lt': to },
      (review) => time(review.publish_date) >= time(from) && time(review.publish_date) < time(to),
    )
  })

  it('operators on different fields combine with AND', async () => {
    const from = pivot('review_date', 1000)
    const to = pivot('order_date', 1300)
    await expectFilter(
      { 'review_date.gte': from, 'order_date.lt': to },
      (review) => time(review.review_date) >= time(from) && time(review.order_date) < time(to),
    )
  })

  it('a date without a time means midnight UTC', async () => {
    await expectFilter(
      { 'publish_date.lt': '2024-03-01' },
      (review) => time(review.publish_date) < Date.parse('2024-03-01T00:00:00Z'),
    )
  })

  it('a date-time without an offset means UTC', async () => {
    const boundary = pivot('review_date', 300)
    await expectFilter({ 'review_date.lt': boundary.replace(/Z$/, '') }, (review) => {
      return time(review.review_date) < time(boundary)
    })
  })

  it('an unencoded + in an offset is read as +', async () => {
    const boundary = new Date(time(pivot('order_date', 250)))
    const shifted = new Date(boundary.getTime() + 3 * 3600_000).toISOString().replace('Z', '+03:00')
    const answer = await api.fetch<ProductReview[]>(
      `${api.url('/products/reviews')}?limit=200&order_date.lt=${shifted}`,
    )
    expect(answer.status, answer.text).toBe(200)
    const expected = all.filter((review) => time(review.order_date) < boundary.getTime())
    expect(ids(answer.body)).toEqual(ids(expected.slice(0, 200)))
  })

  it.each([
    ['without seconds', (instant: Date) => instant.toISOString().replace(/:\d{2}\.\d{3}Z$/, 'Z')],
    ['with an offset of hours alone', (instant: Date) => shift(instant, 1).replace(/:00$/, '')],
    [
      'with an offset without a colon',
      (instant: Date) => shift(instant, -5).replace(/(\d{2}):(\d{2})$/, '$1$2'),
    ],
    ['with a fraction after a comma', (instant: Date) => instant.toISOString().replace('.', ',')],
  ])('an ISO 8601 date-time %s is read as the instant it names', async (_, write) => {
    // A boundary on a whole minute, so that writing it without seconds names the same instant.
    const boundary = new Date(Math.floor(time(pivot('publish_date', 400)) / 60_000) * 60_000)
    await expectFilter(
      { 'publish_date.lt': write(boundary) },
      (review) => time(review.publish_date) < boundary.getTime(),
    )
  })

  it('a date-time with an offset is compared as the instant it names', async () => {
    const boundary = new Date(time(pivot('publish_date', 200)))
    const shifted = new Date(boundary.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00')
    await expectFilter(
      { 'publish_date.lt': shifted },
      (review) => time(review.publish_date) < boundary.getTime(),
    )
  })
})

describe('search', () => {
  it('matches review content case-insensitively', async () => {
    const candidates = distinct(all.flatMap((review) => asciiWords(review.review_content)))
    const word = candidates.find((candidate) => {
      const hits = all.filter((review) => searchable(review).includes(candidate.toLowerCase())).length
      return hits >= 2 && hits <= 300
    })
    expect(word).toBeDefined()
    const needle = word ?? ''
    await expectFilter({ search: needle.toUpperCase() }, (review) =>
      searchable(review).includes(needle.toLowerCase()),
    )
  })

  it('matches moderation comments', async () => {
    const word = distinct(all.flatMap((review) => asciiWords(commentsOf(review)))).find((candidate) => {
      const lower = candidate.toLowerCase()
      return all.some(
        (review) =>
          commentsOf(review).toLowerCase().includes(lower) &&
          !review.review_content.toLowerCase().includes(lower),
      )
    })
    expect(word).toBeDefined()
    const needle = (word ?? '').toLowerCase()
    await expectFilter({ search: needle }, (review) => searchable(review).includes(needle))
  })

  it('takes its text literally, not as a pattern', async () => {
    const answer = await api.get<ProductReview[]>('/products/reviews', { search: '.*', limit: 200 })
    expect(answer.status, answer.text).toBe(200)
    expect(ids(answer.body)).toEqual(
      ids(all.filter((review) => searchable(review).includes('.*')).slice(0, 200)),
    )
  })

  it('a search that matches nothing answers an empty array', async () => {
    const answer = await api.get('/products/reviews', { search: 'zqxjzqxjzqxj' })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual([])
  })
})

describe('invalid filters', () => {
  it.each(['is_verified', 'syndicated_review'])('%s=yes is 400 naming the parameter', async (name) => {
    expectError(await api.get('/products/reviews', { [name]: 'yes' }), 400, 'invalid_parameter', name)
  })

  it.each(['1', 'TRUE', ''])('is_verified=%j is 400, booleans being true or false', async (value) => {
    expectError(
      await api.get('/products/reviews', { is_verified: value }),
      400,
      'invalid_parameter',
      'is_verified',
    )
  })

  it.each([
    ['publish_date.gte', 'yesterday'],
    ['review_date.lt', '2024-13-45'],
    ['order_date.lte', '12/01/2025'],
  ])('%s=%s is 400 naming the parameter', async (name, value) => {
    expectError(await api.get('/products/reviews', { [name]: value }), 400, 'invalid_parameter', name)
  })

  it.each(['6', '0', '4,x', '2.5'])('review_rate=%s is 400', async (value) => {
    expectError(
      await api.get('/products/reviews', { review_rate: value }),
      400,
      'invalid_parameter',
      'review_rate',
    )
  })

  it('an unknown parameter is 400 naming it', async () => {
    expectError(await api.get('/products/reviews', { colour: 'red' }), 400, 'invalid_parameter', 'colour')
  })

  it('an unknown date operator is 400', async () => {
    expectError(
      await api.get('/products/reviews', { 'publish_date.eq': '2025-01-01' }),
      400,
      'invalid_parameter',
    )
  })

  it('a filter of another list (shop_key) is 400 on /products/reviews', async () => {
    expectError(await api.get('/products/reviews', { shop_key: 'x' }), 400, 'invalid_parameter', 'shop_key')
  })
})

describe('the review resource', () => {
  it('every review carries every field of the spec with its type', () => {
    const strings = [
      'review_id',
      'author_firstname',
      'author_lastname',
      'locale',
      'review_date',
      'publish_date',
      'order_date',
      'review_content',
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
      'incentivization',
      'syndicated_review_source',
      'syndicated_review_source_url',
    ]
    for (const review of all) {
      const record = review as unknown as Record<string, unknown>
      for (const field of strings) expect(typeof record[field], `${review.review_id}.${field}`).toBe('string')
      for (const field of ['is_personal_data_disclosed', 'is_verified', 'syndicated_review']) {
        expect(typeof record[field], `${review.review_id}.${field}`).toBe('boolean')
      }
      expect([1, 2, 3, 4, 5]).toContain(review.review_rate)
      expect(Array.isArray(review.medias)).toBe(true)
      expect(Array.isArray(review.moderations)).toBe(true)
      expect(typeof review.translated_review).toBe('object')
      expect(typeof review.extras).toBe('object')
      for (const field of DATE_FIELDS) expect(Number.isNaN(time(review[field])), field).toBe(false)
    }
  })
})
