import type { ProductReview, VerifiedReviewsClient } from '@verified-reviews/core'
import { buildProductJsonLd, fromStructuredData, serializeJsonLd } from '@verified-reviews/core/jsonld'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type TestSandbox } from '../fixtures/sandbox.ts'

let sb: TestSandbox
let vr: VerifiedReviewsClient
let reviewed: string[]

const logger = { warn: () => {} }
const urlOf = (id: string) => `https://shop.example/products/${encodeURIComponent(id)}`

beforeAll(async () => {
  sb = await startSandbox({ seed: 1, rateLimit: 0 })
  vr = sb.client()
  const products = await vr.products.list({ limit: 200 })
  reviewed = products.data.filter((p) => p.ratings.count_total > 0).map((p) => p.product_variation_id)
})

afterAll(async () => {
  await sb.close()
})

/**
 * The node built locally from data a page already has: bulk ratings and the newest reviews, syndicated
 * ones included as the structured-datas blocks include them. Without the languages of the reviews, which
 * only the local data says (`inLanguage`): the blocks do not carry them.
 */
async function localNode(id: string) {
  const [rating] = await vr.products.ratings.list({ type: 'product_variation_id', value: [id] })
  const page = await vr.products.reviews.list({
    product_variation_id: [id],
    sort: 'publish_date',
    desc: 'publish_date',
    limit: 5,
  })
  const node = buildProductJsonLd({
    url: urlOf(id),
    rating,
    reviews: page.data,
    syndicatedReviews: true,
    logger,
  })
  return withoutLanguages(node)
}

/** A copy of `node` without its `inLanguage` members. */
function withoutLanguages<T>(node: T): T {
  return JSON.parse(JSON.stringify(node, (key, value) => (key === 'inLanguage' ? undefined : value)))
}

/** The node built from the structured-datas operation, in either of its forms. */
async function remoteNode(id: string, format: 'json' | 'script') {
  const data = await vr.products.structuredData.get({
    product_variation_id: [id],
    canonical_url: urlOf(id),
    filters: ['aggregate_rating', 'reviews'],
    format,
  })
  return fromStructuredData(data, { url: urlOf(id), logger })
}

describe('JSON-LD built locally and JSON-LD from structured-datas', () => {
  it('marks up the language of each review locally, which the blocks do not say', async () => {
    const id = reviewed[0] ?? ''
    const page = await vr.products.reviews.list({ product_variation_id: [id], limit: 5 })
    const local = buildProductJsonLd({ url: urlOf(id), reviews: page.data, logger })
    expect(local?.review?.every((review) => typeof review.inLanguage === 'string')).toBe(true)
    expect(JSON.stringify(await remoteNode(id, 'json'))).not.toContain('inLanguage')
  })

  it('has seeded products with reviews to compare', () => {
    expect(reviewed.length).toBeGreaterThanOrEqual(4)
  })

  it.each([0, 1, 2, 3])(
    'agree on the rating, the count and the reviews of reviewed product #%i',
    async (index) => {
      const id = reviewed[Math.floor((index * reviewed.length) / 4)] ?? ''
      const local = await localNode(id)
      expect(local?.aggregateRating).toMatchObject({ reviewCount: expect.any(Number) })
      expect(local?.review?.length).toBeGreaterThan(0)
      for (const format of ['json', 'script'] as const) {
        const remote = await remoteNode(id, format)
        expect({ format, aggregateRating: remote?.aggregateRating }).toEqual({
          format,
          aggregateRating: local?.aggregateRating,
        })
        expect({ format, review: remote?.review }).toEqual({ format, review: local?.review })
        expect(serializeJsonLd(remote)).toBe(serializeJsonLd(local))
      }
    },
  )

  it('agree on a review with hostile text, which both serialize without a script breakout', async () => {
    const id = reviewed[0] ?? ''
    const hostile = '</script><script>alert(1)</script> <!-- \u2028 &lt; 👍🏽 مرحبا'
    const [added] = (await sb.admin('POST', 'product-reviews', [
      { product_variation_id: id, review_content: hostile, author_firstname: 'Zoë', author_lastname: 'Ünal' },
    ])) as ProductReview[]
    try {
      const local = await localNode(id)
      expect(local?.review?.[0]).toMatchObject({ reviewBody: hostile, author: { name: 'Zoë Ü.' } })
      for (const format of ['json', 'script'] as const) {
        const remote = await remoteNode(id, format)
        const text = serializeJsonLd(remote)
        expect(text).toBe(serializeJsonLd(local))
        expect(text).not.toMatch(/[<>&\u2028\u2029]/)
        expect(JSON.parse(text)).toEqual(local)
      }
      expect(added?.product_variation_id).toBe(id)
    } finally {
      await sb.sandbox.reset()
    }
  })
})
