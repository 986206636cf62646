import { ValidationError, type VerifiedReviewsClient } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

const url = 'https://shop.test/products/sku-001'
const validEvent = {
  purchase_reference: 'ORDER-1',
  purchase_date: '2026-03-01T10:00:00Z',
  consumer: { email: 'ada@example.com' },
  sales_channel: { channel: 'online' },
}
const many = (count: number) => Array.from({ length: count }, (_, i) => `SKU-${i}`)

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
  [
    'whitespace in product_variation_id (reviews)',
    'product_variation_id',
    (vr) => vr.products.reviews.list({ product_variation_id: ['SKU-001', 'SKU-002\t'] }),
  ],
  ['an empty filter list', 'product_variation_id', (vr) => vr.products.list({ product_variation_id: [] })],
  [
    'more than 200 values in a filter',
    'product_variation_id',
    (vr) => vr.products.reviews.list({ product_variation_id: many(201) }),
  ],
  ['a sort field that does not exist', 'sort', (vr) => vr.products.reviews.list({ sort: 'stars' as never })],
  ['a sort field of another operation', 'sort', (vr) => vr.brands.list({ sort: 'review_rate' as never })],
  [
    'a desc field outside sort',
    'desc',
    (vr) => vr.products.reviews.list({ sort: 'review_rate', desc: 'publish_date' }),
  ],
  ['a desc without sort', 'desc', (vr) => vr.brands.reviews.list({ desc: 'publish_date' })],
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
    'a purchase date without an offset',
    'events[0].purchase_date',
    (vr) => vr.purchaseEvents.submit({ events: [{ ...validEvent, purchase_date: '2026-03-01T10:00:00' }] }),
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
      .products.reviews.list({ limit: 0, sort: 'stars' as never, review_rate: 6 as never })
      .catch((e: unknown) => e)) as ValidationError
    expect(error.issues.map((issue) => issue.field).sort()).toEqual(['limit', 'review_rate', 'sort'])
  })
})
