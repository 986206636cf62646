import {
  BadRequestError,
  type BrandReview,
  type ProductReview,
  ValidationError,
  type VerifiedReviewsClient,
} from '@verified-reviews/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

const url = 'https://shop.test/products/sku-001'
const validEvent = {
  purchase_reference: 'ORDER-1',
  purchase_date: '2026-03-01T10:00:00Z',
  consumer: { email: 'ada@example.com' },
  sales_channel: { channel: 'online' },
}

// Each call would be refused by the API: the client must refuse it first, naming the field.
const cases: [string, string, (vr: VerifiedReviewsClient) => Promise<unknown>][] = [
  ['a limit of 0', 'limit', (vr) => vr.products.reviews.list({ limit: 0 })],
  ['a limit above 200', 'limit', (vr) => vr.brands.reviews.list({ limit: 201 })],
  ['a limit that is not an integer', 'limit', (vr) => vr.products.list({ limit: 10.5 })],
  [
    'a reviews_limit of 0',
    'reviews_limit',
    (vr) =>
      vr.products.structuredData.get({
        product_variation_id: 'SKU-001',
        canonical_url: url,
        reviews_limit: 0,
      }),
  ],
  [
    'a reviews_limit above 100',
    'reviews_limit',
    (vr) =>
      vr.products.structuredData.get({
        product_variation_id: 'SKU-001',
        canonical_url: url,
        reviews_limit: 101,
      }),
  ],
  [
    'an empty product_variation_id',
    'product_variation_id',
    (vr) => vr.products.structuredData.get({ product_variation_id: '', canonical_url: url }),
  ],
  [
    'a missing canonical_url',
    'canonical_url',
    (vr) => vr.products.structuredData.get({ product_variation_id: 'SKU-001' } as never),
  ],
  [
    'a relative canonical_url',
    'canonical_url',
    (vr) => vr.products.structuredData.get({ product_variation_id: 'SKU-001', canonical_url: '/products/1' }),
  ],
  [
    'whitespace in product_variation_id (structured data)',
    'product_variation_id',
    (vr) => vr.products.structuredData.get({ product_variation_id: 'SKU 001', canonical_url: url }),
  ],
  ['an empty filter list', 'product_variation_id', (vr) => vr.products.list({ product_variation_id: [] })],
  [
    'an identifier holding a comma, which the API reads as a separator',
    'product_sku',
    (vr) => vr.products.reviews.list({ product_sku: ['TEE,42'] }),
  ],
  ['an identifier of whitespace only', 'shop_key', (vr) => vr.brands.reviews.list({ shop_key: [' '] })],
  ['an empty sort', 'sort', (vr) => vr.products.reviews.list({ sort: [] })],
  [
    'a desc field outside sort',
    'desc',
    (vr) => vr.products.reviews.list({ sort: 'review_rate', desc: 'publish_date' }),
  ],
  [
    'an invalid date',
    'publish_date.gte',
    (vr) => vr.products.reviews.list({ publish_date: { gte: '2026-02-30' } }),
  ],
  [
    'a date that is no date',
    'order_date.lt',
    (vr) => vr.products.reviews.list({ order_date: { lt: 'last week' } }),
  ],
  [
    'an unknown date operator',
    'review_date.eq',
    (vr) => vr.products.reviews.list({ review_date: { eq: '2026-01-01' } as never }),
  ],
  ['a rating outside 1 to 5', 'review_rate', (vr) => vr.products.reviews.list({ review_rate: [0 as never] })],
  ['an empty search', 'search', (vr) => vr.brands.reviews.list({ search: '' })],
  [
    'a boolean given as text',
    'is_verified',
    (vr) => vr.products.reviews.list({ is_verified: 'yes' as never }),
  ],
  [
    'an unknown incentivization',
    'incentivization',
    (vr) => vr.products.reviews.list({ incentivization: 'paid' as never }),
  ],
  [
    'an unknown parameter',
    'product_id',
    (vr) => vr.products.reviews.list({ product_id: 'SKU-001' } as never),
  ],
  [
    'a ratings lookup of an unknown type',
    'type',
    (vr) => vr.products.ratings.list({ type: 'sku' as never, value: ['SKU-001'] }),
  ],
  [
    'a ratings lookup without values',
    'value',
    (vr) => vr.products.ratings.list({ type: 'product_variation_id', value: [] }),
  ],
  [
    'an unknown structured data filter',
    'filters',
    (vr) =>
      vr.products.structuredData.get({
        product_variation_id: 'SKU-001',
        canonical_url: url,
        filters: ['all' as never],
      }),
  ],
  [
    'an unknown structured data format',
    'format',
    (vr) =>
      vr.products.structuredData.get({
        product_variation_id: 'SKU-001',
        canonical_url: url,
        format: 'html' as never,
      }),
  ],
  [
    'a purchase event without reference',
    'events[0].purchase_reference',
    (vr) => vr.purchaseEvents.submit({ events: [{ ...validEvent, purchase_reference: '' }] }),
  ],
  [
    'a purchase reference over 50 characters',
    'events[1].purchase_reference',
    (vr) =>
      vr.purchaseEvents.submit({
        events: [validEvent, { ...validEvent, purchase_reference: 'x'.repeat(51) }],
      }),
  ],
  [
    'a purchase date that is a plain date',
    'events[0].purchase_date',
    (vr) => vr.purchaseEvents.submit({ events: [{ ...validEvent, purchase_date: '2026-03-01' }] }),
  ],
  [
    'a purchase date with the hour alone',
    'events[0].purchase_date',
    (vr) => vr.purchaseEvents.submit({ events: [{ ...validEvent, purchase_date: '2026-03-01T10Z' }] }),
  ],
  [
    'a purchase event with a misspelt member',
    'events[0].consumer.mail',
    (vr) =>
      vr.purchaseEvents.submit({
        events: [{ ...validEvent, consumer: { mail: 'ada@example.com' } as never }],
      }),
  ],
  [
    'a purchase event of another website',
    'events[0].sales_channel.website_id',
    (vr) =>
      vr.purchaseEvents.submit({
        events: [
          {
            ...validEvent,
            sales_channel: { channel: 'online', website_id: '00000000-0000-4000-8000-000000000000' },
          },
        ],
      }),
  ],
  [
    'a website id that is no uuid',
    'websiteId',
    (vr) => vr.legacy.products.ratings.get({ websiteId: 'shop-1' }),
  ],
  ['a legacy rate outside 1 to 5', 'rate', (vr) => vr.legacy.products.reviews.get({ rate: [9 as never] })],
  ['a Genesis product list that is empty', 'product', (vr) => vr.genesis.product.reviews({ product: [] })],
  ['a Genesis rate filter given in part', 'field', (vr) => vr.genesis.website.get({ sign: '>=' })],
]

describe('input the API would refuse', () => {
  it.each(cases)('refuses %s, naming %s, with zero requests sent', async (_, field, call) => {
    const vr = sb.client()
    const before = (await sb.stats()).total
    const error = await call(vr).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe(field)
    expect((await sb.stats()).total).toBe(before)
  })

  it('refuses a cursor sent with another limit than the one that issued it, with zero requests sent', async () => {
    const vr = sb.client()
    const first = await vr.products.reviews.list({ limit: 20 })
    const before = (await sb.stats()).total
    const error = await vr.products.reviews
      .list({ limit: 50, cursor: first.nextCursor })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe('cursor')
    expect((await sb.stats()).total).toBe(before)
  })

  it('refuses a call without credentials, naming the missing one, with zero requests sent', async () => {
    const before = (await sb.stats()).total
    const error = await sb
      .client({ clientId: undefined, clientSecret: 'secret' })
      .products.list()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe('clientId')
    expect((await sb.stats()).total).toBe(before)
  })

  it('lists every problem of the input at once', async () => {
    const error = (await sb
      .client()
      .products.reviews.list({ limit: 0, sort: [], review_rate: 6 as never })
      .catch((e: unknown) => e)) as ValidationError
    expect(error.issues.map((issue) => issue.field).sort()).toEqual(['limit', 'review_rate', 'sort'])
  })
})

/** A client whose every API request (not the token ones) is recorded as sent. */
function recording() {
  const sent: string[] = []
  const vr = sb.client({
    fetch: (url, init) => {
      if (!new URL(url).pathname.includes('/token')) sent.push(url)
      return fetch(url, init)
    },
  })
  return { vr, sent }
}

/** The raw query of a request as sent, without decoding. */
function rawQuery(url: string | undefined): string {
  return url === undefined ? '' : url.slice(url.indexOf('?') + 1)
}

describe('input the spec allows: sent as written, and answered by the sandbox', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('filters by SKUs holding spaces, sent as %20 with commas between them', async () => {
    await sb.admin('POST', 'product-reviews', [
      { product_variation_id: 'TEE-42', product_sku: 'TEE 42' },
      { product_variation_id: 'TEE-42-XL', product_sku: 'TEE 42 XL' },
      { product_variation_id: 'TEE-43', product_sku: 'TEE 43' },
    ])
    const { vr, sent } = recording()
    const page = await vr.products.reviews.list({ product_sku: ['TEE 42', 'TEE 42 XL'] })
    expect(rawQuery(sent[0])).toBe('product_sku=TEE%2042,TEE%2042%20XL')
    expect(page.data.map((review) => review.product_sku).sort()).toEqual(['TEE 42', 'TEE 42 XL'])
  })

  it('sends a product_variation_id with whitespace to the list operations', async () => {
    const { vr, sent } = recording()
    const page = await vr.products.reviews.list({ product_variation_id: ['SKU 001', 'SKU-001'], limit: 200 })
    expect(rawQuery(sent[0])).toBe('product_variation_id=SKU%20001,SKU-001&limit=200')
    expect(page.data.length).toBeGreaterThan(0)
    expect(page.data.every((review) => review.product_variation_id === 'SKU-001')).toBe(true)
    const products = await vr.products.list({ product_variation_id: 'SKU 001' })
    expect(products.data).toEqual([])
  })

  it('sends more than 200 identifiers in one request and gets the reviews of every one', async () => {
    const { vr, sent } = recording()
    const products = (await vr.products.list({ limit: 200 })).data.map((p) => p.product_variation_id)
    const value = [...Array.from({ length: 400 }, (_, i) => `MISSING-${i}`), ...products.slice(0, 5)]
    const reviews: ProductReview[] = []
    for await (const review of vr.products.reviews.list({ product_variation_id: value, limit: 200 })) {
      reviews.push(review)
    }
    expect(new Set(reviews.map((review) => review.product_variation_id))).toEqual(
      new Set(products.slice(0, 5)),
    )
    const first = sent.find((url) => url.includes('/products/reviews'))
    expect(new URL(first ?? 'http://x').searchParams.get('product_variation_id')?.split(',')).toHaveLength(
      405,
    )
  })

  it('sorts by the desc fields, descending, when desc comes without sort', async () => {
    const { vr, sent } = recording()
    const page = await vr.products.list({ desc: 'count_total', limit: 200 })
    expect(rawQuery(sent[0])).toBe('limit=200&sort=count_total&desc=count_total')
    const counts = page.data.map((product) => product.ratings.count_total)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
    expect(counts[0]).toBeGreaterThan(counts.at(-1) ?? 0)
  })

  it('answers newest first for desc=publish_date without sort, as the sandbox does for it', async () => {
    const newest = await sb.client().brands.reviews.list({ desc: 'publish_date', limit: 20 })
    const explicit = await sb
      .client()
      .brands.reviews.list({ sort: 'publish_date', desc: 'publish_date', limit: 20 })
    expect(newest.data).toEqual(explicit.data)
  })

  it('filters brand reviews by publication date', async () => {
    const vr = sb.client()
    const all: BrandReview[] = []
    for await (const review of vr.brands.reviews.list({ limit: 200 })) all.push(review)
    const since = [...all].sort((a, b) => (a.publish_date < b.publish_date ? 1 : -1))[9]?.publish_date ?? ''
    const page = await vr.brands.reviews.list({ publish_date: { gte: since }, limit: 200 })
    expect(page.data.map((review) => review.review_id).sort()).toEqual(
      all
        .filter((review) => review.publish_date >= since)
        .map((review) => review.review_id)
        .sort(),
    )
  })

  it('sends a sort field outside the known ones, warns once, and surfaces the API answer', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { vr, sent } = recording()
    const error = await vr.products.reviews.list({ sort: 'product_name' as never }).catch((e: unknown) => e)
    await vr.products.reviews.list({ sort: 'product_name' as never }).catch(() => undefined)
    expect(rawQuery(sent[0])).toBe('sort=product_name')
    expect(error).toBeInstanceOf(BadRequestError)
    expect((error as BadRequestError).field).toBe('sort')
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toContain('product_name')
  })

  it.each([
    ['2026-03-01T10:00Z', '2026-03-01T10:00:00Z'],
    ['2026-03-01T10:00:00.250+02:00', '2026-03-01T10:00:00.250+02:00'],
    ['2026-03-01T10:00:00,5-0330', '2026-03-01T10:00:00.500-03:30'],
    ['2026-03-01T10:00', '2026-03-01T10:00:00Z'],
  ])('submits a purchase event dated %s, as the RFC 3339 date-time %s', async (purchaseDate, sent) => {
    const [result] = await sb
      .client()
      .purchaseEvents.submit({ events: [{ ...validEvent, purchase_date: purchaseDate }] })
    expect(result?.status).toBe('created')
    expect(result?.status === 'created' && result.event.purchase_date).toBe(sent)
  })
})
