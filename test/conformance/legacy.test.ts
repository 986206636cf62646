import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Answer,
  admin,
  call,
  expectError,
  type ProductRating,
  type ProductReview,
  type PublishedClient,
  publishedClient,
  resetSandbox,
  type Sandbox,
  startSandbox,
} from './helpers.ts'

interface LegacyRating {
  average: number
  nb_total: number
  nb_1: number
  nb_2: number
  nb_3: number
  nb_4: number
  nb_5: number
}

interface LegacyReview {
  id: string
  rate: number
  review: string
  order_date: string
  review_date: string
  publish_date: string
  firstname: string
  lastname: string
  language: string
  product_ref: string
  brand: string
  category: string
  product_ids: Record<string, string>
  moderations: { date: string; origin: string; comment: string }[]
  medias: { type: string; data: { type: string; small: string; medium: string; large: string } }[]
  helping_votes: { helpful: number; helpless: number }
  hide_exchange: boolean
  anonymised_data: boolean
  pseudonymised_data: boolean
  compensated_review: boolean
  rewarded_review: boolean
  gifted_review: boolean
  syndicated_review: boolean
  syndicated_review_source: string | null
  syndicated_review_source_url: string | null
}

interface Data<T> {
  data: Record<string, T | null>
}

const OTHER_WEBSITE = '11111111-2222-4333-8444-555555555555'

let sb: Sandbox
let api: PublishedClient
let catalogue: string[]
/** Every seeded product review, from the Published API, grouped by product. */
let published: Map<string, ProductReview[]>

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  const products = await api.walk<{ product_variation_id: string }>('/products', { limit: 200 })
  catalogue = products.items.map((p) => p.product_variation_id)
  const reviews = await api.walk<ProductReview>('/products/reviews', { limit: 200 })
  published = new Map(catalogue.map((id) => [id, []]))
  for (const review of reviews.items) published.get(review.product_variation_id)?.push(review)
})

afterAll(async () => {
  await sb?.close()
})

function legacy<T>(
  operation: 'ratings' | 'reviews',
  query = '',
  websiteId = sb.websiteId,
): Promise<Answer<T>> {
  return call<T>(`${sb.origin}/v1/websites/${websiteId}/products/${operation}${query ? `?${query}` : ''}`)
}

async function reviewsOf(query: string): Promise<Record<string, LegacyReview[] | null>> {
  const answer = await legacy<Data<LegacyReview[]>>('reviews', query)
  expect(answer.status, answer.text).toBe(200)
  return answer.body.data
}

function reviewed(): string[] {
  return catalogue.filter((id) => (published.get(id)?.length ?? 0) > 0)
}

/** A product with many reviews, so that paging and filters have something to cut. */
function busiest(): string {
  return [...published].sort((a, b) => b[1].length - a[1].length)[0]?.[0] as string
}

function ids(list: readonly { id: string }[] | null | undefined): string[] {
  return (list ?? []).map((r) => r.id)
}

/** The Published reviews of a product in the legacy default order: newest published first, ties by id. */
function newestFirst(productId: string): ProductReview[] {
  return [...(published.get(productId) ?? [])].sort((a, b) =>
    a.publish_date === b.publish_date
      ? a.review_id.localeCompare(b.review_id)
      : Date.parse(b.publish_date) - Date.parse(a.publish_date),
  )
}

describe('legacy ratings', () => {
  it('answers every catalogue product when ref is absent, null for those without reviews', async () => {
    const answer = await legacy<Data<LegacyRating>>('ratings')
    expect(answer.status, answer.text).toBe(200)
    expect(Object.keys(answer.body.data)).toEqual(catalogue)
    const empty = catalogue.filter((id) => answer.body.data[id] === null)
    expect(empty).toEqual(catalogue.filter((id) => (published.get(id)?.length ?? 0) === 0))
    expect(empty.length).toBeGreaterThan(0)
  })

  it('gives null for an unknown reference and keeps it as a key', async () => {
    const answer = await legacy<Data<LegacyRating>>('ratings', 'ref=SKU-001,NOPE-404')
    expect(answer.body.data).toHaveProperty('NOPE-404', null)
    expect(answer.body.data['SKU-001']).not.toBeNull()
  })

  it('agrees with the Published /products/ratings for the same products', async () => {
    const refs = reviewed()
    const answer = await legacy<Data<LegacyRating>>('ratings', `ref=${refs.join(',')}`)
    const ratings = await api.get<ProductRating[]>('/products/ratings', {
      type: 'product_variation_id',
      value: refs.join(','),
    })
    expect(ratings.status, ratings.text).toBe(200)
    expect(ratings.body.length).toBe(refs.length)
    for (const rating of ratings.body) {
      const mine = answer.body.data[rating.product_variation_id]
      expect(mine, rating.product_variation_id).toEqual({
        average: rating.average,
        nb_total: rating.count_total,
        nb_1: rating.count_1,
        nb_2: rating.count_2,
        nb_3: rating.count_3,
        nb_4: rating.count_4,
        nb_5: rating.count_5,
      })
    }
  })

  it('counts the reviews the Published API lists for a product', async () => {
    const id = busiest()
    const answer = await legacy<Data<LegacyRating>>('ratings', `ref=${id}`)
    const rates = (published.get(id) ?? []).map((r) => r.review_rate)
    expect(answer.body.data[id]).toMatchObject({
      nb_total: rates.length,
      nb_5: rates.filter((r) => r === 5).length,
      nb_1: rates.filter((r) => r === 1).length,
    })
  })

  it('needs no authentication and carries no rate limit headers', async () => {
    const answer = await legacy('ratings', 'ref=SKU-001')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('ratelimit-limit')).toBeNull()
  })

  it('refuses a parameter of the reviews operation', async () => {
    expectError(await legacy('ratings', 'limit=2'), 400, 'invalid_parameter', 'limit')
  })
})

describe('legacy reviews', () => {
  it('answers every catalogue product when ref is absent', async () => {
    expect(Object.keys(await reviewsOf(''))).toEqual(catalogue)
  })

  it('gives null for an unknown reference and for a product without reviews', async () => {
    const without = catalogue.find((id) => (published.get(id)?.length ?? 0) === 0) as string
    const data = await reviewsOf(`ref=${without},NOPE-404`)
    expect(data).toEqual({ [without]: null, 'NOPE-404': null })
  })

  it('lists the same reviews as the Published API, newest published first', async () => {
    const id = busiest()
    expect(ids((await reviewsOf(`ref=${id}`))[id])).toEqual(newestFirst(id).map((r) => r.review_id))
  })

  it('maps each Published review to the legacy fields', async () => {
    const id = busiest()
    const data = await reviewsOf(`ref=${id}`)
    const byId = new Map((published.get(id) ?? []).map((r) => [r.review_id, r]))
    for (const mine of data[id] ?? []) {
      const source = byId.get(mine.id) as ProductReview
      expect(mine).toMatchObject({
        rate: source.review_rate,
        review: source.review_content,
        order_date: source.order_date,
        review_date: source.review_date,
        publish_date: source.publish_date,
        firstname: source.author_firstname,
        lastname: source.author_lastname,
        product_ref: source.product_variation_id,
        brand: source.product_brand,
        product_ids: {
          gtin_ean: source.product_ean,
          gtin_jan: source.product_jan,
          gtin_isbn: '',
          gtin_upc: source.product_upc,
          sku: source.product_sku,
          mpn: source.product_mpn,
        },
        moderations: source.moderations.map((m) => ({ date: m.date, origin: m.origin, comment: m.comment })),
        hide_exchange: false,
        anonymised_data: !source.is_personal_data_disclosed,
        pseudonymised_data: false,
        compensated_review: source.incentivization === 'compensated',
        rewarded_review: false,
        gifted_review: source.incentivization === 'gifted',
        syndicated_review: source.syndicated_review,
        syndicated_review_source: source.syndicated_review_source || null,
        syndicated_review_source_url: source.syndicated_review_source_url || null,
      })
      expect(mine.language).toMatch(/^[a-z]{2}_[A-Z]{2}$/)
      expect(mine.language.slice(0, 2)).toBe(source.locale.slice(0, 2).toLowerCase())
      expect(mine.medias).toHaveLength(source.medias.length)
      expect(mine.helping_votes).toEqual({ helpful: expect.any(Number), helpless: expect.any(Number) })
    }
  })

  it('gives each review of a product the same non-empty category', async () => {
    const id = busiest()
    const categories = new Set(((await reviewsOf(`ref=${id}`))[id] ?? []).map((r) => r.category))
    expect(categories.size).toBe(1)
    expect([...categories][0]).not.toBe('')
  })

  it('gives images as absolute URLs that the sandbox serves', async () => {
    const all = await reviewsOf('')
    const withImage = Object.values(all)
      .flatMap((list) => list ?? [])
      .find((r) => r.medias.length > 0)
    expect(withImage).toBeDefined()
    const media = withImage?.medias[0]
    expect(media?.type).toBe('image')
    expect(media?.data.type).toBe('image')
    for (const size of ['small', 'medium', 'large'] as const) {
      const url = media?.data[size] as string
      expect(url).toMatch(/^https?:\/\//)
    }
    const image = await call(media?.data.small as string)
    expect(image.status).toBe(200)
  })

  it('applies offset and limit to each product separately', async () => {
    const refs = reviewed().slice(0, 3)
    const data = await reviewsOf(`ref=${refs.join(',')}&offset=2&limit=3`)
    for (const ref of refs) {
      expect(ids(data[ref]), ref).toEqual(
        newestFirst(ref)
          .slice(2, 5)
          .map((r) => r.review_id),
      )
    }
  })

  it('gives an empty list, not null, to a product whose reviews are all skipped', async () => {
    const id = busiest()
    expect((await reviewsOf(`ref=${id}&offset=100000`))[id]).toEqual([])
  })

  it('keeps only the requested rates, per product', async () => {
    const refs = reviewed().slice(0, 4)
    const data = await reviewsOf(`ref=${refs.join(',')}&rate=1,2`)
    for (const ref of refs) {
      const expected = newestFirst(ref).filter((r) => r.review_rate <= 2)
      expect(ids(data[ref]), ref).toEqual(expected.map((r) => r.review_id))
    }
  })

  it('sorts by rate ascending, ties by id', async () => {
    const id = busiest()
    const data = await reviewsOf(`ref=${id}&sortBy=rate&sortDirection=ASC`)
    const expected = [...(published.get(id) ?? [])].sort(
      (a, b) => a.review_rate - b.review_rate || a.review_id.localeCompare(b.review_id),
    )
    expect(ids(data[id])).toEqual(expected.map((r) => r.review_id))
  })

  it('sorts by several fields', async () => {
    const id = busiest()
    const list = (await reviewsOf(`ref=${id}&sortBy=rate,review_date&sortDirection=DESC`))[id] ?? []
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1] as LegacyReview, list[i] as LegacyReview]
      expect(a.rate > b.rate || (a.rate === b.rate && a.review_date >= b.review_date)).toBe(true)
    }
  })

  it('sorts by publish date ascending when asked', async () => {
    const id = busiest()
    const data = await reviewsOf(`ref=${id}&sortBy=publish_date&sortDirection=asc`)
    const dates = (data[id] ?? []).map((r) => Date.parse(r.publish_date))
    expect(dates).toEqual([...dates].sort((a, b) => a - b))
  })

  it('reads an encoded comma as part of one reference', async () => {
    const data = await reviewsOf(`ref=${encodeURIComponent(`${encodeURIComponent('A,B')},SKU-001`)}`)
    expect(Object.keys(data)).toEqual(['A,B', 'SKU-001'])
  })

  it('shows a review added through the sandbox', async () => {
    const added = await admin<ProductReview[]>(sb, 'POST', 'product-reviews', [
      { product_variation_id: 'SKU-LEGACY-NEW', review_rate: 2, review_content: 'Added for the legacy test' },
    ])
    expect(added.status, added.text).toBe(201)
    try {
      const data = await reviewsOf('ref=SKU-LEGACY-NEW')
      expect(ids(data['SKU-LEGACY-NEW'])).toEqual([added.body[0]?.review_id])
      expect(data['SKU-LEGACY-NEW']?.[0]).toMatchObject({ rate: 2, review: 'Added for the legacy test' })
    } finally {
      await resetSandbox(sb, api)
    }
  })
})

describe('legacy parameter checks', () => {
  const bad: { query: string; field: string }[] = [
    { query: 'rate=6', field: 'rate' },
    { query: 'rate=', field: 'rate' },
    { query: 'rate=4,x', field: 'rate' },
    { query: 'sortBy=popularity', field: 'sortBy' },
    { query: 'sortBy=rate,', field: 'sortBy' },
    { query: 'sortDirection=UP', field: 'sortDirection' },
    { query: 'limit=0', field: 'limit' },
    { query: 'limit=1001', field: 'limit' },
    { query: 'limit=ten', field: 'limit' },
    { query: 'limit=2.5', field: 'limit' },
    { query: 'offset=-1', field: 'offset' },
    { query: 'offset=1e3', field: 'offset' },
    { query: 'ref=', field: 'ref' },
    { query: 'ref=A,,B', field: 'ref' },
    { query: 'ref=%25E0%25A4', field: 'ref' },
    { query: 'ref=A&ref=B', field: 'ref' },
    { query: 'lmit=3', field: 'lmit' },
  ]

  it.each(bad)('answers 400 naming $field for ?$query', async ({ query, field }) => {
    expectError(await legacy('reviews', query), 400, 'invalid_parameter', field)
  })

  it.each(['ratings', 'reviews'] as const)(
    'answers 404 JSON for another website on %s',
    async (operation) => {
      expectError(await legacy(operation, '', OTHER_WEBSITE), 404, 'not_found')
    },
  )

  it.each(['ratings', 'reviews'] as const)(
    'answers 400 for a website_id that is no uuid on %s',
    async (operation) => {
      expectError(await legacy(operation, '', 'my-shop'), 400, 'invalid_parameter', 'website_id')
    },
  )

  it('accepts limit 1000', async () => {
    expect((await legacy('reviews', 'ref=SKU-001&limit=1000')).status).toBe(200)
  })
})

describe('legacy stats', () => {
  it('counts each operation under its own name', async () => {
    await admin(sb, 'DELETE', 'stats')
    await legacy('ratings', 'ref=SKU-001')
    await legacy('reviews', 'ref=SKU-001')
    await legacy('reviews', 'limit=0')
    const stats = await admin<{ operations: Record<string, number> }>(sb, 'GET', 'stats')
    expect(stats.body.operations).toMatchObject({
      'legacy.products.ratings': 1,
      'legacy.products.reviews': 2,
    })
  })
})
