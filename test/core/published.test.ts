import type { ProductReview } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

/** A client whose every request URL is recorded. */
function recording() {
  const urls: URL[] = []
  const vr = sb.client({
    fetch: (url, init) => {
      urls.push(new URL(url))
      return fetch(url, init)
    },
  })
  return { vr, urls: () => urls.filter((url) => !url.pathname.includes('/token')) }
}

describe('products.reviews.list', () => {
  it('answers the first page when awaited', async () => {
    const page = await sb.client().products.reviews.list({ limit: 20 })
    expect(page.data).toHaveLength(20)
    expect(page.hasNextPage()).toBe(true)
    expect(page.hasPreviousPage()).toBe(false)
  })

  it('moves to the next page and back to the previous one', async () => {
    const first = await sb.client().products.reviews.list({ limit: 5 })
    const second = await first.getNextPage()
    expect(second.data.map((r) => r.review_id)).not.toEqual(first.data.map((r) => r.review_id))
    expect(second.hasPreviousPage()).toBe(true)
    const back = await second.getPreviousPage()
    expect(back.data.map((r) => r.review_id)).toEqual(first.data.map((r) => r.review_id))
  })

  it('rejects getNextPage on the last page', async () => {
    const last = await sb.client().products.reviews.list({ product_variation_id: 'SKU-001', limit: 200 })
    expect(last.hasNextPage()).toBe(false)
    await expect(last.getNextPage()).rejects.toThrow('no next page')
  })

  it('walks every seeded review exactly once with for await, 200 per request', async () => {
    const ids: string[] = []
    for await (const review of sb.client().products.reviews.list({ limit: 200 })) ids.push(review.review_id)
    expect(ids).toHaveLength(3000)
    expect(new Set(ids).size).toBe(3000)
    expect((await sb.stats()).operations['products.reviews.list']).toBe(15)
  })

  it('walks every page of an awaited page with iterPages', async () => {
    const first = await sb
      .client()
      .products.reviews.list({ product_variation_id: ['SKU-001', 'SKU-002'], limit: 10 })
    let count = 0
    for await (const page of first.iterPages()) count += page.data.length
    let items = 0
    for await (const _ of first) items++
    expect(count).toBe(items)
    expect(count).toBeGreaterThan(10)
  })

  it('sends each cursor back exactly, with the same limit and the same other parameters', async () => {
    const { vr, urls } = recording()
    const params = {
      product_variation_id: ['SKU-001', 'SKU-002', 'SKU-003'],
      review_rate: [4, 5] as (4 | 5)[],
      limit: 7,
    }
    const first = await vr.products.reviews.list({ ...params, sort: 'review_date', desc: 'review_date' })
    const second = await first.getNextPage()
    await second.getNextPage()
    const [a, b, c] = urls()
    const withoutCursor = (url: URL | undefined) => {
      const query = new URLSearchParams(url?.search)
      query.delete('cursor')
      return query.toString()
    }
    expect(withoutCursor(b)).toBe(withoutCursor(a))
    expect(withoutCursor(c)).toBe(withoutCursor(a))
    expect(b?.searchParams.get('cursor')).toBe(first.nextCursor)
    expect(c?.searchParams.get('cursor')).toBe(second.nextCursor)
  })

  it('resumes a walk from a cursor kept by the caller', async () => {
    const vr = sb.client()
    const first = await vr.products.reviews.list({ limit: 50 })
    const resumed = await vr.products.reviews.list({ limit: 50, cursor: first.nextCursor })
    const next = await first.getNextPage()
    expect(resumed.data.map((r) => r.review_id)).toEqual(next.data.map((r) => r.review_id))
  })

  it('filters by product, rating, publication date, verification, incentivization and text', async () => {
    const page = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-001', 'SKU-010'],
      review_rate: [4, 5],
      publish_date: { gte: '2024-06-01', lt: new Date('2026-01-01T00:00:00Z') },
      is_verified: true,
      limit: 200,
    })
    expect(page.data.length).toBeGreaterThan(0)
    for (const review of page.data) {
      expect(['SKU-001', 'SKU-010']).toContain(review.product_variation_id)
      expect(review.review_rate).toBeGreaterThanOrEqual(4)
      expect(review.is_verified).toBe(true)
      expect(review.publish_date >= '2024-06-01' && review.publish_date < '2026-01-01').toBe(true)
    }
    const gifted = await sb.client().products.reviews.list({ incentivization: 'gifted', limit: 50 })
    expect(gifted.data.every((review) => review.incentivization === 'gifted')).toBe(true)
    const word = (gifted.data[0]?.review_content ?? 'a').split(' ')[0] ?? 'a'
    const found = await sb.client().products.reviews.list({ search: word, limit: 5 })
    expect(found.data.length).toBeGreaterThan(0)
  })

  it('sorts newest first with sort and desc on publish_date', async () => {
    const page = await sb
      .client()
      .products.reviews.list({ sort: 'publish_date', desc: 'publish_date', limit: 50 })
    const dates = page.data.map((review: ProductReview) => review.publish_date)
    expect(dates).toEqual([...dates].sort().reverse())
  })
})

describe('products.list', () => {
  it('lists every product, those without reviews included', async () => {
    const products = []
    for await (const product of sb.client().products.list({ limit: 200 })) products.push(product)
    expect(products).toHaveLength(60)
    expect(products.some((product) => product.ratings.count_total === 0)).toBe(true)
  })

  it('lists the products asked for', async () => {
    const page = await sb.client().products.list({ product_variation_id: ['SKU-003', 'SKU-001'] })
    expect(page.data.map((product) => product.product_variation_id).sort()).toEqual(['SKU-001', 'SKU-003'])
  })
})

describe('products.ratings.list', () => {
  it('answers the ratings of the products asked for, in input order', async () => {
    const ratings = await sb.client().products.ratings.list({
      type: 'product_variation_id',
      value: ['SKU-005', 'SKU-002', 'SKU-009'],
    })
    expect(ratings.map((rating) => rating.product_variation_id)).toEqual(['SKU-005', 'SKU-002', 'SKU-009'])
  })

  it('takes any number of values: 200 per request, merged in input order', async () => {
    const known = Array.from({ length: 60 }, (_, i) => `SKU-${String(60 - i).padStart(3, '0')}`)
    const unknown = Array.from({ length: 390 }, (_, i) => `MISSING-${i}`)
    const value = [...unknown.slice(0, 150), ...known.slice(0, 30), ...unknown.slice(150), ...known.slice(30)]
    const ratings = await sb.client().products.ratings.list({ type: 'product_variation_id', value })
    const withReviews = (
      await sb.client().products.ratings.list({ type: 'product_variation_id', value: known })
    ).map((rating) => rating.product_variation_id)
    expect(ratings.map((rating) => rating.product_variation_id)).toEqual(withReviews)
    expect(withReviews).toEqual(known.filter((id) => withReviews.includes(id)))
    expect((await sb.stats()).operations['products.ratings.list']).toBe(3 + 1)
  })

  it('looks products up by EAN', async () => {
    const page = await sb.client().products.reviews.list({ product_variation_id: 'SKU-001', limit: 1 })
    const ean = page.data[0]?.product_ean ?? ''
    const ratings = await sb.client().products.ratings.list({ type: 'product_ean', value: [ean] })
    expect(ratings[0]?.product_ean).toBe(ean)
  })

  it('sorts the merged answer across requests when sort is given', async () => {
    const value = [
      ...Array.from({ length: 60 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`),
      ...Array.from({ length: 300 }, (_, i) => `MISSING-${i}`),
    ]
    const ratings = await sb
      .client()
      .products.ratings.list({ type: 'product_variation_id', value, sort: ['average'], desc: ['average'] })
    const averages = ratings.map((rating) => rating.average)
    expect(averages).toEqual([...averages].sort((a, b) => b - a))
  })
})

describe('products.structuredData.get', () => {
  const params = { product_variation_id: 'SKU-001', canonical_url: 'https://shop.test/products/sku-001' }

  it('answers the JSON-LD blocks, each pointing at the canonical URL', async () => {
    const data = await sb.client().products.structuredData.get(params)
    expect(data.ratings?.aggregateRating.itemReviewed['@id']).toBe(params.canonical_url)
    expect(data.reviews?.review.length).toBeGreaterThan(0)
  })

  it('gives the same data from the script form as from the JSON form', async () => {
    const vr = sb.client()
    const fromJson = await vr.products.structuredData.get({ ...params, format: 'json' })
    const fromScript = await vr.products.structuredData.get({ ...params, format: 'script' })
    expect(fromScript).toEqual(fromJson)
  })

  it('answers only the blocks asked for, with at most reviews_limit reviews', async () => {
    const data = await sb
      .client()
      .products.structuredData.get({ ...params, filters: ['reviews'], reviews_limit: 2 })
    expect(Object.keys(data)).toEqual(['reviews'])
    expect(data.reviews?.review).toHaveLength(2)
  })

  it('merges several variations into one product', async () => {
    const one = await sb.client().products.structuredData.get(params)
    const two = await sb
      .client()
      .products.structuredData.get({ ...params, product_variation_id: ['SKU-001', 'SKU-002'] })
    expect(two.ratings?.aggregateRating.reviewCount).toBeGreaterThan(
      one.ratings?.aggregateRating.reviewCount ?? 0,
    )
  })
})

describe('brands', () => {
  it('lists the brand itself and each shop', async () => {
    const page = await sb.client().brands.list({ limit: 200 })
    expect(page.data.some((entry) => entry.shop_key === '')).toBe(true)
    expect(page.data.length).toBe(6)
    const brandOnly = await sb.client().brands.list({ linked_to_shop: false })
    expect(brandOnly.data.map((entry) => entry.shop_key)).toEqual([''])
  })

  it('walks every brand review exactly once', async () => {
    const ids = new Set<string>()
    let count = 0
    for await (const review of sb.client().brands.reviews.list({ limit: 200 })) {
      ids.add(review.review_id)
      count++
    }
    expect(count).toBe(500)
    expect(ids.size).toBe(500)
  })

  it('filters brand reviews by shop and rating', async () => {
    const shops = await sb.client().brands.list({ linked_to_shop: true })
    const shop = shops.data[0]?.shop_key ?? ''
    const page = await sb.client().brands.reviews.list({ shop_key: [shop], review_rate: [1, 2], limit: 200 })
    expect(page.data.every((review) => review.shop_key === shop && review.review_rate <= 2)).toBe(true)
  })
})
