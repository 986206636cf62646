import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type Dataset,
  generateDataset,
  gtinCheckDigit,
  SEED_END,
  SEED_START,
  type SeedContext,
  websiteIdFromSeed,
} from './seed.ts'
import { INCENTIVIZATIONS, LANGUAGES } from './types.ts'

const context = (seed: number): SeedContext => ({
  seed,
  websiteId: websiteIdFromSeed(seed),
  organizationName: 'Maison Sandbox',
})

let data: Dataset
beforeAll(() => {
  data = generateDataset(context(1))
})

const validGtin = (code: string) => gtinCheckDigit(code.slice(0, -1)) === code.slice(-1)

describe('generateDataset', () => {
  it('gives byte-identical data for the same seed', () => {
    expect(JSON.stringify(generateDataset(context(1)))).toBe(JSON.stringify(data))
  })

  it('keeps the seeded data of earlier versions when no size is given', () => {
    expect(createHash('sha256').update(JSON.stringify(data)).digest('hex')).toBe(
      'e3e0a5ab7731c1af51ee4801fa4b3725b816af6b353354e561b4362bd0acee67',
    )
  })

  it('generates the catalogue size asked for, the same for the same seed', () => {
    const sized = { ...context(4), products: 200, reviews: 2000 }
    const large = generateDataset(sized)
    expect(large.products.map((p) => p.product_variation_id)).toEqual(
      Array.from({ length: 200 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`),
    )
    expect(large.productReviews).toHaveLength(2000)
    const reviewed = new Set(large.productReviews.map((r) => r.product_variation_id))
    expect(large.products.filter((p) => !reviewed.has(p.product_variation_id))).toHaveLength(20)
    expect(JSON.stringify(generateDataset(sized))).toBe(JSON.stringify(large))
  })

  it('numbers a catalogue of more than 999 products with as many digits, each product told apart', () => {
    const large = generateDataset({ ...context(5), products: 1200, reviews: 0 })
    expect(large.products[0]?.product_variation_id).toBe('SKU-0001')
    expect(large.products[1199]?.product_variation_id).toBe('SKU-1200')
    expect(new Set(large.products.map((p) => p.product_name)).size).toBe(1200)
    expect(new Set(large.products.map((p) => p.product_sku)).size).toBe(1200)
    expect(large.productReviews).toHaveLength(0)
  })

  it('spreads reviews over a tiny catalogue too', () => {
    const tiny = generateDataset({ ...context(6), products: 1, reviews: 5 })
    expect(tiny.productReviews).toHaveLength(5)
  })

  it('gives different data for a different seed', () => {
    const other = generateDataset(context(2))
    expect(other.productReviews[0]?.review_id).not.toBe(data.productReviews[0]?.review_id)
    expect(other.products.map((p) => p.product_name)).not.toEqual(data.products.map((p) => p.product_name))
  })

  it('derives the website id from the seed', () => {
    expect(websiteIdFromSeed(1)).toBe(websiteIdFromSeed(1))
    expect(websiteIdFromSeed(1)).not.toBe(websiteIdFromSeed(2))
  })

  it('catalogues SKU-001 to SKU-060 in order', () => {
    expect(data.products.map((p) => p.product_variation_id)).toEqual(
      Array.from({ length: 60 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`),
    )
  })

  it('leaves exactly six products without reviews', () => {
    const reviewed = new Set(data.productReviews.map((r) => r.product_variation_id))
    expect(data.products.filter((p) => !reviewed.has(p.product_variation_id))).toHaveLength(6)
  })

  it('writes 3,000 product reviews and 500 brand reviews', () => {
    expect(data.productReviews).toHaveLength(3000)
    expect(data.brandReviews).toHaveLength(500)
  })

  it('gives every EAN, UPC and JAN a valid check digit and the right length', () => {
    for (const p of data.products) {
      expect(p.product_ean).toMatch(/^\d{13}$/)
      expect(p.product_upc).toMatch(/^\d{12}$/)
      expect(p.product_jan).toMatch(/^\d{13}$/)
      expect([p.product_ean, p.product_upc, p.product_jan].every(validGtin)).toBe(true)
    }
  })

  it('computes GS1 check digits of known codes', () => {
    expect(gtinCheckDigit('400638133393')).toBe('1')
    expect(gtinCheckDigit('03600029145')).toBe('2')
  })

  it('keeps order_date <= review_date <= publish_date within the seeded range', () => {
    for (const r of [...data.productReviews, ...data.brandReviews]) {
      const order = Date.parse(r.order_date)
      const review = Date.parse(r.review_date)
      const publish = Date.parse(r.publish_date)
      expect(order).toBeGreaterThanOrEqual(SEED_START)
      expect(order).toBeLessThanOrEqual(review)
      expect(review).toBeLessThanOrEqual(publish)
      expect(publish).toBeLessThanOrEqual(SEED_END)
    }
  })

  it('gives no last name to authors who did not disclose personal data', () => {
    const hidden = data.productReviews.filter((r) => !r.is_personal_data_disclosed)
    expect(hidden.length).toBeGreaterThan(0)
    expect(hidden.every((r) => r.author_lastname === '')).toBe(true)
  })

  it('translates every product review into all 13 languages, its own included', () => {
    for (const r of data.productReviews) {
      expect(Object.keys(r.translated_review)).toEqual([...LANGUAGES])
      expect(r.translated_review[r.locale.slice(0, 2) as (typeof LANGUAGES)[number]]).toBe(r.review_content)
    }
  })

  it('writes in each of the 13 languages', () => {
    expect(new Set(data.productReviews.map((r) => r.locale.slice(0, 2)))).toEqual(new Set(LANGUAGES))
  })

  it('translates merchant replies on product reviews', () => {
    const replies = data.productReviews.flatMap((r) => r.moderations)
    expect(replies.length).toBeGreaterThan(0)
    expect(replies.every((m) => Object.keys(m.translated_comment ?? {}).length === 13)).toBe(true)
  })

  it('summarizes products with at least three reviews and no others', () => {
    const counts = new Map<string, number>()
    for (const r of data.productReviews)
      counts.set(r.product_variation_id, (counts.get(r.product_variation_id) ?? 0) + 1)
    for (const p of data.products) {
      expect(p.review_summary !== undefined).toBe((counts.get(p.product_variation_id) ?? 0) >= 3)
    }
    expect(
      data.products.some((p) => p.review_summary === undefined && counts.has(p.product_variation_id)),
    ).toBe(true)
  })

  it('uses every incentivization value and every rating', () => {
    expect(new Set(data.productReviews.map((r) => r.incentivization))).toEqual(new Set(INCENTIVIZATIONS))
    expect(new Set(data.productReviews.map((r) => r.review_rate))).toEqual(new Set([1, 2, 3, 4, 5]))
  })

  it('mixes verified, unverified, syndicated, illustrated and criteria-rated reviews', () => {
    const reviews = data.productReviews
    expect(reviews.some((r) => r.is_verified) && reviews.some((r) => !r.is_verified)).toBe(true)
    const syndicated = reviews.filter((r) => r.syndicated_review)
    expect(syndicated.length).toBeGreaterThan(0)
    expect(
      syndicated.every((r) => r.syndicated_review_source !== '' && r.syndicated_review_source_url !== ''),
    ).toBe(true)
    expect(reviews.some((r) => r.medias.length > 0)).toBe(true)
    expect(reviews.some((r) => r.extras.quality?.type === 'I1')).toBe(true)
    expect(reviews.some((r) => r.extras.size_fit?.type === 'S')).toBe(true)
  })

  it('spreads brand reviews over five shops and the brand itself', () => {
    expect(data.shops.map((s) => s.shop_key)).toHaveLength(5)
    expect(new Set(data.brandReviews.map((r) => r.shop_key))).toEqual(
      new Set(['', ...data.shops.map((s) => s.shop_key)]),
    )
  })
})
