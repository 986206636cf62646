import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type BrandRating,
  type BrandReview,
  call,
  distinct,
  INCENTIVIZATIONS,
  LANGUAGES,
  type ProductReview,
  type ProductSummary,
  PUBLISHED,
  type PublishedClient,
  publishedClient,
  rawRequest,
  type Sandbox,
  startSandbox,
  validGtin,
} from './helpers.ts'

const FIRST_DAY = Date.parse('2024-01-01T00:00:00Z')
const DAY_AFTER_LAST = Date.parse('2026-07-01T00:00:00Z')

interface Snapshot {
  products: ProductSummary[]
  reviews: ProductReview[]
  brandReviews: BrandReview[]
  brands: BrandRating[]
}

let sb: Sandbox
let api: PublishedClient
let data: Snapshot

async function snapshot(client: PublishedClient): Promise<Snapshot> {
  return {
    products: (await client.walk<ProductSummary>('/products', { limit: 200 })).items,
    reviews: (await client.walk<ProductReview>('/products/reviews', { limit: 200 })).items,
    brandReviews: (await client.walk<BrandReview>('/brands/reviews', { limit: 200 })).items,
    brands: (await client.walk<BrandRating>('/brands', { limit: 200 })).items,
  }
}

/** The data as text, with the origin (an ephemeral port) taken out of the media URLs. */
function comparable(target: Sandbox, snap: Snapshot): string {
  return JSON.stringify(snap).replaceAll(target.origin, 'ORIGIN')
}

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  data = await snapshot(api)
})

afterAll(async () => {
  await sb?.close()
})

function languageOf(locale: string): string {
  return locale.split(/[-_]/)[0]?.toLowerCase() ?? ''
}

describe('seeded catalogue and reviews', () => {
  it('has 60 products, SKU-001 to SKU-060', () => {
    expect(data.products.map((product) => product.product_variation_id)).toEqual(
      Array.from({ length: 60 }, (_, index) => `SKU-${String(index + 1).padStart(3, '0')}`),
    )
  })

  it('leaves 6 products without reviews', () => {
    const empty = data.products.filter((product) => product.ratings.count_total === 0)
    expect(empty).toHaveLength(6)
    const reviewed = new Set(data.reviews.map((review) => review.product_variation_id))
    for (const product of empty) expect(reviewed.has(product.product_variation_id)).toBe(false)
  })

  it('gives four more products only one or two reviews, and the best seller several hundred', () => {
    const counts = data.products.map((product) => product.ratings.count_total)
    expect(counts.filter((count) => count === 1 || count === 2)).toHaveLength(4)
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(200)
  })

  it('has merchant replies more often on low ratings than on high ones', () => {
    const replied = (rates: number[]) => {
      const chosen = data.reviews.filter((review) => rates.includes(review.review_rate))
      return chosen.filter((review) => review.moderations.length > 0).length / chosen.length
    }
    expect(replied([1, 2])).toBeGreaterThan(replied([4, 5]))
  })

  it('has 3,000 product reviews with distinct ids', () => {
    expect(data.reviews).toHaveLength(3000)
    expect(new Set(data.reviews.map((review) => review.review_id)).size).toBe(3000)
  })

  it('has 500 brand reviews over 5 shops and the brand itself', () => {
    expect(data.brandReviews).toHaveLength(500)
    const shops = distinct(data.brandReviews.map((review) => review.shop_key))
    expect(shops).toContain('')
    expect(shops).toHaveLength(6)
    expect(data.brands).toHaveLength(6)
  })

  it('writes reviews in all 13 languages', () => {
    const languages = distinct(data.reviews.map((review) => languageOf(review.locale))).sort()
    expect(languages).toEqual(LANGUAGES)
  })

  it('translates reviews into all 13 languages', () => {
    const keys = distinct(data.reviews.flatMap((review) => Object.keys(review.translated_review))).sort()
    expect(keys).toEqual(LANGUAGES)
    for (const review of data.reviews) {
      for (const text of Object.values(review.translated_review)) expect(typeof text).toBe('string')
    }
  })

  it('uses every incentivization value', () => {
    expect(distinct(data.reviews.map((review) => review.incentivization)).sort()).toEqual(
      [...INCENTIVIZATIONS].sort(),
    )
  })

  it('has verified and unverified reviews', () => {
    expect(distinct(data.reviews.map((review) => review.is_verified)).sort()).toEqual([false, true])
  })

  it('uses every rating from 1 to 5', () => {
    expect(distinct(data.reviews.map((review) => review.review_rate)).sort()).toEqual([1, 2, 3, 4, 5])
  })

  it('has syndicated reviews, each with a source and an absolute source URL', () => {
    const syndicated = data.reviews.filter((review) => review.syndicated_review)
    expect(syndicated.length).toBeGreaterThan(0)
    expect(syndicated.length).toBeLessThan(data.reviews.length)
    for (const review of syndicated) {
      expect(review.syndicated_review_source).toMatch(/\S/)
      expect(review.syndicated_review_source_url).toMatch(/^https?:\/\/\S+$/)
    }
  })

  it('has reviews with images in three sizes, as absolute URLs on the sandbox', () => {
    const medias = data.reviews.flatMap((review) => review.medias)
    expect(medias.length).toBeGreaterThan(0)
    for (const media of medias) {
      expect(media.type).toBe('IMAGE')
      for (const url of [media.small, media.medium, media.large]) expect(new URL(url).origin).toBe(sb.origin)
    }
  })

  it('serves the review images as SVG', async () => {
    const media = data.reviews.flatMap((review) => review.medias)[0]
    for (const url of [media?.small, media?.medium, media?.large]) {
      const answer = await call(url ?? '')
      expect(answer.status, url).toBe(200)
      expect(answer.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
      expect(answer.text).toMatch(/<svg[\s>]/)
    }
  })

  it('has extras criteria of type I1 with numbers and of type S with strings', () => {
    const extras = data.reviews.flatMap((review) => Object.values(review.extras))
    const numeric = extras.filter((extra) => extra.type === 'I1')
    const textual = extras.filter((extra) => extra.type === 'S')
    expect(numeric.length).toBeGreaterThan(0)
    expect(textual.length).toBeGreaterThan(0)
    for (const extra of numeric) expect(typeof extra.value).toBe('number')
    for (const extra of textual) expect(typeof extra.value).toBe('string')
  })

  it('has merchant replies from moderators with translated comments', () => {
    const moderations = data.reviews.flatMap((review) => review.moderations)
    expect(moderations.length).toBeGreaterThan(0)
    for (const moderation of moderations) {
      expect(moderation).toMatchObject({ comment: expect.any(String), origin_type: 'moderator' })
      expect(Number.isNaN(Date.parse(moderation.date))).toBe(false)
    }
    const translated = moderations.filter(
      (moderation) => Object.keys(moderation.translated_comment ?? {}).length > 0,
    )
    expect(translated.length).toBeGreaterThan(0)
  })

  it('dates every review between 2024-01-01 and 2026-06-30', () => {
    for (const review of [...data.reviews, ...data.brandReviews]) {
      for (const value of [review.review_date, review.publish_date, review.order_date]) {
        const time = Date.parse(value)
        expect(time, `${review.review_id} ${value}`).toBeGreaterThanOrEqual(FIRST_DAY)
        expect(time, `${review.review_id} ${value}`).toBeLessThan(DAY_AFTER_LAST)
      }
    }
  })

  it('gives every review of one product the same product identifiers', () => {
    const fields = [
      'product_ean',
      'product_upc',
      'product_jan',
      'product_sku',
      'product_mpn',
      'product_name',
    ] as const
    const first = new Map<string, ProductReview>()
    for (const review of data.reviews) {
      const seen = first.get(review.product_variation_id)
      if (!seen) first.set(review.product_variation_id, review)
      else for (const field of fields) expect(review[field], `${review.review_id}.${field}`).toBe(seen[field])
    }
  })

  it('writes every review after its order and publishes it after it was written', () => {
    for (const review of [...data.reviews, ...data.brandReviews]) {
      expect(Date.parse(review.review_date), review.review_id).toBeGreaterThanOrEqual(
        Date.parse(review.order_date),
      )
      expect(Date.parse(review.publish_date), review.review_id).toBeGreaterThanOrEqual(
        Date.parse(review.review_date),
      )
    }
  })

  it('keys translated comments by the 13 languages only', () => {
    for (const moderation of data.reviews.flatMap((review) => review.moderations)) {
      for (const key of Object.keys(moderation.translated_comment ?? {})) expect(LANGUAGES).toContain(key)
    }
  })

  it('gives every product a valid EAN-13 (37…), UPC-A and JAN (49…), and an SKU and MPN', () => {
    for (const review of data.reviews) {
      expect(validGtin(review.product_ean, 13), review.product_ean).toBe(true)
      expect(review.product_ean).toMatch(/^37/)
      expect(validGtin(review.product_upc, 12), review.product_upc).toBe(true)
      expect(validGtin(review.product_jan, 13), review.product_jan).toBe(true)
      expect(review.product_jan).toMatch(/^49/)
      expect(review.product_sku).toMatch(/\S/)
      expect(review.product_mpn).toMatch(/\S/)
    }
  })

  it('writes dates as ISO 8601 UTC with milliseconds', () => {
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
    for (const review of [...data.reviews, ...data.brandReviews]) {
      for (const value of [review.review_date, review.publish_date, review.order_date])
        expect(value).toMatch(iso)
      for (const moderation of review.moderations) expect(moderation.date).toMatch(iso)
    }
    for (const brand of data.brands) expect(brand.oldest_review_publish_date).toMatch(iso)
  })

  it('gives locales as language_REGION', () => {
    for (const review of [...data.reviews, ...data.brandReviews])
      expect(review.locale).toMatch(/^[a-z]{2}_[A-Z]{2}$/)
  })

  it('translates every product review into all 13 languages, its own holding the review itself', () => {
    for (const review of data.reviews) {
      expect(Object.keys(review.translated_review).sort(), review.review_id).toEqual(LANGUAGES)
      expect(review.translated_review[languageOf(review.locale)], review.review_id).toBe(
        review.review_content,
      )
    }
  })

  it('leaves the last name empty for authors who did not disclose personal data, about 30% of them', () => {
    for (const review of [...data.reviews, ...data.brandReviews]) {
      if (!review.is_personal_data_disclosed) expect(review.author_lastname, review.review_id).toBe('')
    }
    const hidden =
      data.reviews.filter((review) => !review.is_personal_data_disclosed).length / data.reviews.length
    expect(hidden).toBeGreaterThan(0.2)
    expect(hidden).toBeLessThan(0.4)
  })

  it('has about 10% unverified, 6% syndicated and 12% illustrated product reviews', () => {
    const share = (keep: (review: ProductReview) => boolean) =>
      data.reviews.filter(keep).length / data.reviews.length
    expect(share((review) => !review.is_verified)).toBeGreaterThan(0.05)
    expect(share((review) => !review.is_verified)).toBeLessThan(0.15)
    expect(share((review) => review.syndicated_review)).toBeGreaterThan(0.03)
    expect(share((review) => review.syndicated_review)).toBeLessThan(0.1)
    expect(share((review) => review.medias.length > 0)).toBeGreaterThan(0.07)
    expect(share((review) => review.medias.length > 0)).toBeLessThan(0.18)
    for (const review of data.reviews) expect(review.medias.length).toBeLessThanOrEqual(3)
  })

  it('syndicates from Maison Sandbox Belgique and Schweiz', () => {
    const sources = distinct(
      data.reviews.filter((r) => r.syndicated_review).map((r) => r.syndicated_review_source),
    )
    expect(sources.sort()).toEqual(['Maison Sandbox Belgique', 'Maison Sandbox Schweiz'])
  })

  it('answers as the merchant, translated on product reviews only', () => {
    for (const review of data.reviews) {
      for (const moderation of review.moderations) {
        expect(moderation.origin).toBe('merchant')
        expect(Object.keys(moderation.translated_comment ?? {}).length, review.review_id).toBeGreaterThan(0)
      }
    }
    for (const review of data.brandReviews) {
      for (const moderation of review.moderations) expect(moderation.origin).toBe('merchant')
    }
  })

  it('rates quality and value_for_money from 1 to 5 and tells the size fit of apparel', () => {
    for (const review of data.reviews) {
      for (const [code, extra] of Object.entries(review.extras)) {
        expect(['quality', 'value_for_money', 'size_fit']).toContain(code)
        if (code === 'size_fit') expect(['Runs small', 'True to size', 'Runs large']).toContain(extra.value)
        else expect([1, 2, 3, 4, 5]).toContain(extra.value)
      }
    }
  })

  it('rates delivery and customer_service of brand reviews and tells the purchase channel', () => {
    const codes = distinct(data.brandReviews.flatMap((review) => Object.keys(review.extras))).sort()
    expect(codes).toEqual(['customer_service', 'delivery', 'purchase_channel'])
    for (const review of data.brandReviews) {
      const channel = review.extras.purchase_channel
      if (channel) expect(['In store', 'Online']).toContain(channel.value)
      for (const code of ['delivery', 'customer_service']) {
        const extra = review.extras[code]
        if (extra) expect(extra.type).toBe('I1')
      }
    }
  })

  it('puts image URLs on the origin of the request’s Host, in 160, 480 and 1200 px', async () => {
    const { port } = new URL(sb.origin)
    const answer = await rawRequest(sb, `${PUBLISHED}/products/reviews?limit=200`, {
      authorization: `Bearer ${api.token}`,
      host: `localhost:${port}`,
    })
    const media = (JSON.parse(answer.body) as ProductReview[]).flatMap((review) => review.medias)[0]
    expect(media?.small).toMatch(new RegExp(`^http://localhost:${port}/__sandbox/media/[^/]+-small\\.svg$`))
    const sizes = await Promise.all(
      [media?.small, media?.medium, media?.large].map(async (url) => {
        const svg = (await call(String(url).replace(`localhost:${port}`, `127.0.0.1:${port}`))).text
        return /<svg[^>]*\bwidth="(\d+)"/.exec(svg)?.[1]
      }),
    )
    expect(sizes).toEqual(['160', '480', '1200'])
  })

  it.each(['photo.svg', 'photo-huge.svg', 'photo-small.png'])(
    'answers 404 JSON for the media name %s, outside <base>-<small|medium|large>.svg',
    async (name) => {
      const answer = await call(`${sb.origin}/__sandbox/media/${name}`)
      expect(answer.status).toBe(404)
      expect(answer.body).toMatchObject({ status: 404, error: 'not_found', message: expect.any(String) })
    },
  )

  it('derives a uuid website id from the seed', () => {
    expect(sb.websiteId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
  })
})

describe('determinism', () => {
  it('the same seed gives identical data', async () => {
    const twin = await startSandbox({ seed: 1, rateLimit: 0 })
    try {
      expect(twin.websiteId).toBe(sb.websiteId)
      const twinData = await snapshot(await publishedClient(twin))
      expect(comparable(twin, twinData)).toBe(comparable(sb, data))
    } finally {
      await twin.close()
    }
  })

  it('the websiteId option replaces the derived website id', async () => {
    const websiteId = '0b8f5c8e-2d7a-4e7b-9a51-3f1f2c9d8e11'
    const other = await startSandbox({ websiteId, rateLimit: 0 })
    try {
      expect(other.websiteId).toBe(websiteId)
      const client = await publishedClient(other)
      const products = await client.get<ProductSummary[]>('/products', { limit: 1 })
      expect(products.body[0]?.website_id).toBe(websiteId)
    } finally {
      await other.close()
    }
  })

  it('a different seed gives different data', async () => {
    const other = await startSandbox({ seed: 2, rateLimit: 0 })
    try {
      expect(other.websiteId).not.toBe(sb.websiteId)
      const client = await publishedClient(other)
      const reviews = (await client.get<ProductReview[]>('/products/reviews', { limit: 200 })).body
      const mine = data.reviews.slice(0, 200)
      expect(reviews.map((review) => review.review_content)).not.toEqual(
        mine.map((review) => review.review_content),
      )
      expect(reviews.map((review) => review.review_id)).not.toEqual(mine.map((review) => review.review_id))
    } finally {
      await other.close()
    }
  })
})
