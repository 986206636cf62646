import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Answer,
  admin,
  expectError,
  type ProductRating,
  type ProductReview,
  type ProductSummary,
  PUBLISHED,
  type PublishedClient,
  publishedClient,
  type Query,
  ratingsOf,
  rawRequest,
  resetSandbox,
  type Sandbox,
  startSandbox,
  walkCatalogue,
} from './helpers.ts'

const PATH = '/products/structured-datas'
const CANONICAL = 'https://shop.example/products/blue-kettle?variant=2&ref=a%20b'
const JSON_LD = 'application/ld+json'
const SCRIPT = 'text/javascript'
const BLOCK_IDS: Record<string, string> = {
  'vr-jsonld-aggregaterating': 'ratings',
  'vr-jsonld-reviews': 'reviews',
  'vr-jsonld-reviewsummary': 'reviewSummary',
}

type Json = Record<string, unknown>

interface StructuredData {
  ratings?: { '@context': unknown; aggregateRating: Json }
  reviews?: { '@context': unknown; review: Json[] }
  reviewSummary?: { '@context': unknown; review: Json }
}

let sb: Sandbox
let api: PublishedClient
let products: ProductSummary[]
let byProduct: Map<string, ProductReview[]>
/** A product with an AI summary and more reviews than the default reviews_limit. */
let rich: ProductSummary
let empty: ProductSummary

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
  const catalogue = await walkCatalogue(api)
  products = catalogue.products
  byProduct = catalogue.byProduct
  const found = products.find(
    (product) => product.review_summary !== undefined && product.ratings.count_total > 5,
  )
  const none = products.find((product) => product.ratings.count_total === 0)
  if (!found || !none) throw new Error('the seed lacks a summarized product or a product without reviews')
  rich = found
  empty = none
})

afterAll(async () => {
  await sb?.close()
})

function structured(query: Query, accept: string = JSON_LD): Promise<Answer<StructuredData>> {
  return api.get<StructuredData>(PATH, { canonical_url: CANONICAL, ...query }, { accept })
}

async function json(query: Query): Promise<StructuredData> {
  const answer = await structured(query)
  expect(answer.status, answer.text).toBe(200)
  return answer.body
}

function newest(name: string, count: number): ProductReview[] {
  return [...(byProduct.get(name) ?? [])]
    .sort((a, b) => Date.parse(b.publish_date) - Date.parse(a.publish_date))
    .slice(0, count)
}

/** Every `itemReviewed` object anywhere inside a value. */
function itemsReviewed(value: unknown): Json[] {
  if (Array.isArray(value)) return value.flatMap(itemsReviewed)
  if (typeof value !== 'object' || value === null) return []
  const record = value as Json
  const own =
    typeof record.itemReviewed === 'object' && record.itemReviewed !== null
      ? [record.itemReviewed as Json]
      : []
  return [...own, ...Object.values(record).flatMap(itemsReviewed)]
}

interface ScriptTag {
  type: string | undefined
  id: string | undefined
  content: string
}

/** Splits a text/javascript answer into its script tags; `rest` is what lies outside them. */
function scripts(text: string): { tags: ScriptTag[]; rest: string } {
  const tags: ScriptTag[] = []
  const rest = text.replace(
    /<script\b([^>]*)>([\s\S]*?)<\/script>/g,
    (_, attributes: string, content: string) => {
      tags.push({
        type: /\btype="([^"]*)"/.exec(attributes)?.[1],
        id: /\bid="([^"]*)"/.exec(attributes)?.[1],
        content,
      })
      return ''
    },
  )
  return { tags, rest }
}

describe('Accept: application/ld+json', () => {
  it('answers the three blocks, each with a schema.org @context', async () => {
    const answer = await structured({ product_variation_id: rich.product_variation_id })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/json/)
    expect(Object.keys(answer.body).sort()).toEqual(['ratings', 'reviewSummary', 'reviews'])
    for (const block of Object.values(answer.body))
      expect(JSON.stringify(block['@context'])).toMatch(/schema\.org/)
  })

  it('uses canonical_url verbatim as itemReviewed.@id in every block', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id })
    for (const [name, block] of Object.entries(body)) {
      const items = itemsReviewed(block)
      expect(items.length, name).toBeGreaterThan(0)
      for (const item of items) expect(item['@id'], name).toBe(CANONICAL)
    }
  })

  it('gives an aggregateRating equal to /products/ratings, on a 1 to 5 scale', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id })
    const ratings = await api.get<ProductRating[]>('/products/ratings', {
      type: 'product_variation_id',
      value: rich.product_variation_id,
    })
    const [rating] = ratings.body
    expect(body.ratings?.aggregateRating).toMatchObject({
      '@type': 'AggregateRating',
      ratingValue: rating?.average,
      reviewCount: rating?.count_total,
      bestRating: 5,
      worstRating: 1,
    })
  })

  it('agrees with /products/ratings for every reviewed product', async () => {
    const reviewed = products.filter((product) => product.ratings.count_total > 0).slice(0, 12)
    const ratings = await api.get<ProductRating[]>('/products/ratings', {
      type: 'product_variation_id',
      value: reviewed.map((product) => product.product_variation_id).join(','),
    })
    for (const rating of ratings.body) {
      const body = await json({
        product_variation_id: rating.product_variation_id,
        filters: 'aggregate_rating',
      })
      expect(body.ratings?.aggregateRating.ratingValue, rating.product_variation_id).toBe(rating.average)
      expect(body.ratings?.aggregateRating.reviewCount, rating.product_variation_id).toBe(rating.count_total)
    }
  })

  it('lists the five newest published reviews by default, newest first', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id })
    const expected = newest(rich.product_variation_id, 5)
    const got = body.reviews?.review ?? []
    expect(got).toHaveLength(5)
    expect(got.map((review) => review.reviewBody)).toEqual(expected.map((review) => review.review_content))
    expect(got.map((review) => Date.parse(String(review.datePublished)))).toEqual(
      expected.map((review) => Date.parse(review.publish_date)),
    )
  })

  it('gives every review a Rating on a 1 to 5 scale and a Person author', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id })
    const expected = newest(rich.product_variation_id, 5)
    body.reviews?.review.forEach((review, index) => {
      expect(review).toMatchObject({
        '@type': 'Review',
        reviewRating: {
          '@type': 'Rating',
          ratingValue: expected[index]?.review_rate,
          bestRating: 5,
          worstRating: 1,
        },
        author: { '@type': 'Person', name: expect.any(String) },
      })
    })
  })

  it('names authors by first name and the initial of the last name', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id, reviews_limit: 20 })
    const expected = newest(rich.product_variation_id, 20)
    body.reviews?.review.forEach((review, index) => {
      const source = expected[index] as ProductReview
      const name = String((review.author as Json).name)
      const initial = source.author_lastname.charAt(0)
      if (initial === '') expect(name).toBe(source.author_firstname)
      else
        expect([`${source.author_firstname} ${initial}.`, `${source.author_firstname} ${initial}`]).toContain(
          name,
        )
    })
  })

  it('puts itemReviewed with the canonical URL on the aggregate, on each review and on the summary', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id })
    const target = { '@id': CANONICAL }
    expect(body.ratings?.aggregateRating.itemReviewed).toEqual(target)
    for (const review of body.reviews?.review ?? []) expect(review.itemReviewed).toEqual(target)
    expect(body.reviewSummary?.review.itemReviewed).toEqual(target)
  })

  it('names Maison Sandbox as the Organization of the summary', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id, filters: 'review_summary' })
    expect(body.reviewSummary?.review.author).toEqual({ '@type': 'Organization', name: 'Maison Sandbox' })
  })

  it('merged variations take the summary of the first one listed', async () => {
    const summarized = products.filter((product) => product.review_summary !== undefined)
    const [first, second] = summarized
    const pair = [first?.product_variation_id, second?.product_variation_id]
    const forward = await json({ product_variation_id: pair.join(','), filters: 'review_summary' })
    const backward = await json({
      product_variation_id: [...pair].reverse().join(','),
      filters: 'review_summary',
    })
    expect(forward.reviewSummary?.review.reviewBody).toBe(first?.review_summary?.content)
    expect(backward.reviewSummary?.review.reviewBody).toBe(second?.review_summary?.content)
  })

  it('an unknown product answers no block at all', async () => {
    const answer = await structured({ product_variation_id: 'NO-SUCH-PRODUCT' })
    expect(answer.status).toBe(200)
    expect(answer.text === '' || JSON.stringify(answer.body) === '{}').toBe(true)
  })

  it('gives the AI summary as a Review by the Organization', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id })
    const summary = body.reviewSummary?.review
    expect(summary).toMatchObject({
      '@type': 'Review',
      reviewBody: rich.review_summary?.content,
      author: { '@type': 'Organization', name: expect.stringMatching(/\S/) },
    })
    expect(Date.parse(String(summary?.datePublished))).toBe(
      Date.parse(rich.review_summary?.last_updated_at ?? ''),
    )
  })

  it('reviews_limit=1 lists only the newest review', async () => {
    const body = await json({ product_variation_id: rich.product_variation_id, reviews_limit: 1 })
    expect(body.reviews?.review.map((review) => review.reviewBody)).toEqual([
      newest(rich.product_variation_id, 1)[0]?.review_content,
    ])
  })

  it('reviews_limit=100 lists up to a hundred reviews', async () => {
    const most = [...products].sort(
      (a, b) => b.ratings.count_total - a.ratings.count_total,
    )[0] as ProductSummary
    const body = await json({ product_variation_id: most.product_variation_id, reviews_limit: 100 })
    expect(body.reviews?.review).toHaveLength(Math.min(100, most.ratings.count_total))
  })

  it.each(['0', '101', 'x', '2.5'])('reviews_limit=%s is 400 on field reviews_limit', async (value) => {
    const answer = await structured({ product_variation_id: rich.product_variation_id, reviews_limit: value })
    expectError(answer, 400, 'invalid_parameter', 'reviews_limit')
  })

  it.each([
    { filters: 'aggregate_rating', blocks: ['ratings'] },
    { filters: 'reviews', blocks: ['reviews'] },
    { filters: 'review_summary', blocks: ['reviewSummary'] },
    { filters: 'reviews,review_summary', blocks: ['reviewSummary', 'reviews'] },
    { filters: 'aggregate_rating,reviews,review_summary', blocks: ['ratings', 'reviewSummary', 'reviews'] },
  ])('filters=$filters answers only those blocks', async ({ filters, blocks }) => {
    const body = await json({ product_variation_id: rich.product_variation_id, filters })
    expect(Object.keys(body).sort()).toEqual(blocks)
  })

  it('a filter outside aggregate_rating, reviews and review_summary is 400 on field filters', async () => {
    const answer = await structured({
      product_variation_id: rich.product_variation_id,
      filters: 'reviews,stars',
    })
    expectError(answer, 400, 'invalid_parameter', 'filters')
  })

  it('a comma list merges the variations into one product', async () => {
    const [first, second] = products.filter((product) => product.ratings.count_total > 0)
    const names = [first?.product_variation_id ?? '', second?.product_variation_id ?? '']
    const body = await json({ product_variation_id: names.join(','), reviews_limit: 100 })
    const merged = names.flatMap((name) => byProduct.get(name) ?? [])
    const expected = ratingsOf(merged.map((review) => review.review_rate))
    const aggregate = body.ratings?.aggregateRating ?? {}
    expect(aggregate.reviewCount).toBe((first?.ratings.count_total ?? 0) + (second?.ratings.count_total ?? 0))
    expect(Math.abs(Number(aggregate.ratingValue) - expected.average)).toBeLessThanOrEqual(0.005001)
    expect(body.reviews?.review).toHaveLength(Math.min(100, merged.length))
  })

  it('a product without reviews answers no block at all', async () => {
    const body = await json({ product_variation_id: empty.product_variation_id })
    expect(body).toEqual({})
  })
})

describe('required parameters', () => {
  it('a missing product_variation_id is 400 on that field', async () => {
    const answer = await api.get(PATH, { canonical_url: CANONICAL }, { accept: JSON_LD })
    expectError(answer, 400, 'invalid_parameter', 'product_variation_id')
  })

  it.each(['SKU-001, SKU-002', ' SKU-001', 'SKU 001', 'SKU-001\t'])(
    'product_variation_id %j with whitespace is 400 on that field',
    async (value) => {
      expectError(
        await structured({ product_variation_id: value }),
        400,
        'invalid_parameter',
        'product_variation_id',
      )
    },
  )

  it('a missing canonical_url is 400 on that field', async () => {
    const answer = await api.get(
      PATH,
      { product_variation_id: rich.product_variation_id },
      { accept: JSON_LD },
    )
    expectError(answer, 400, 'invalid_parameter', 'canonical_url')
  })

  it.each(['/products/kettle', 'ftp://shop.example/kettle', 'not a url'])(
    'canonical_url %j, not an absolute http(s) URL, is 400 on that field',
    async (value) => {
      const answer = await structured({
        product_variation_id: rich.product_variation_id,
        canonical_url: value,
      })
      expectError(answer, 400, 'invalid_parameter', 'canonical_url')
    },
  )
})

describe('Accept', () => {
  it.each(['text/html', 'application/json', '*/*'])(
    'Accept: %s is 406 not_acceptable as JSON',
    async (accept) => {
      const answer = await structured({ product_variation_id: rich.product_variation_id }, accept)
      expectError(answer, 406, 'not_acceptable')
    },
  )

  it.each([
    { accept: 'application/ld+json, text/javascript', wins: 'json' },
    { accept: 'text/javascript, application/ld+json', wins: 'script' },
    { accept: 'text/javascript;q=0.5, application/ld+json', wins: 'json' },
    { accept: 'application/ld+json;q=0.2, text/javascript;q=0.9', wins: 'script' },
    { accept: 'text/html, text/javascript', wins: 'script' },
  ])('Accept: $accept answers $wins', async ({ accept, wins }) => {
    const answer = await structured({ product_variation_id: rich.product_variation_id }, accept)
    expect(answer.status, answer.text).toBe(200)
    if (wins === 'json') expect(Object.keys(answer.body)).toContain('ratings')
    else expect(scripts(answer.text).tags).toHaveLength(3)
  })

  it('checks the parameters before Accept', async () => {
    const answer = await api.get(PATH, { canonical_url: CANONICAL }, { accept: 'text/html' })
    expectError(answer, 400, 'invalid_parameter', 'product_variation_id')
  })

  it('no Accept header at all is 406 not_acceptable as JSON', async () => {
    const token = api.token
    const query = new URLSearchParams({
      product_variation_id: rich.product_variation_id,
      canonical_url: CANONICAL,
    })
    const answer = await rawRequest(sb, `${PUBLISHED}${PATH}?${query}`, { authorization: `Bearer ${token}` })
    expect(answer.status).toBe(406)
    expect(answer.headers['content-type']).toMatch(/json/)
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 406,
      error: 'not_acceptable',
      message: expect.any(String),
    })
  })
})

describe('Accept: text/javascript', () => {
  it('answers exactly one ld+json script tag per block, with the stable ids', async () => {
    const answer = await structured({ product_variation_id: rich.product_variation_id }, SCRIPT)
    expect(answer.status, answer.text).toBe(200)
    const { tags, rest } = scripts(answer.text)
    expect(rest.trim()).toBe('')
    expect(tags.map((tag) => tag.id).sort()).toEqual(Object.keys(BLOCK_IDS).sort())
    for (const tag of tags) expect(tag.type).toBe(JSON_LD)
  })

  it('puts the tags in the order aggregate rating, reviews, summary, one per line', async () => {
    const answer = await structured({ product_variation_id: rich.product_variation_id }, SCRIPT)
    const lines = answer.text.split('\n').filter((line) => line.trim() !== '')
    expect(lines).toHaveLength(3)
    expect(lines.map((line) => scripts(line).tags[0]?.id)).toEqual(Object.keys(BLOCK_IDS))
  })

  it('holds in each tag the same object as the JSON answer’s block', async () => {
    const query = { product_variation_id: rich.product_variation_id }
    const body = (await json(query)) as Record<string, unknown>
    const { tags } = scripts((await structured(query, SCRIPT)).text)
    for (const tag of tags)
      expect(JSON.parse(tag.content), tag.id).toEqual(body[BLOCK_IDS[tag.id ?? ''] ?? ''])
  })

  it('follows filters too', async () => {
    const answer = await structured(
      { product_variation_id: rich.product_variation_id, filters: 'reviews' },
      SCRIPT,
    )
    expect(scripts(answer.text).tags.map((tag) => tag.id)).toEqual(['vr-jsonld-reviews'])
  })

  it('a product without reviews answers no script tag', async () => {
    const answer = await structured({ product_variation_id: empty.product_variation_id }, SCRIPT)
    expect(answer.status).toBe(200)
    expect(answer.text.trim()).toBe('')
  })

  describe('with markup in review text', () => {
    const HOSTILE =
      'Great </script><script>alert(1)</script> & <!-- "kettle" --> 1 > 0 \u2028 line \u2029 end'

    afterAll(async () => {
      await resetSandbox(sb, api)
    })

    it('escapes <, > and & inside the tags and keeps the text intact when parsed', async () => {
      const added = await admin(sb, 'POST', 'product-reviews', [
        { product_variation_id: rich.product_variation_id, review_content: HOSTILE },
      ])
      expect(added.status, added.text).toBe(201)
      const answer = await structured(
        { product_variation_id: rich.product_variation_id, filters: 'reviews' },
        SCRIPT,
      )
      const { tags, rest } = scripts(answer.text)
      expect(rest.trim()).toBe('')
      expect(tags).toHaveLength(1)
      expect(tags[0]?.content).not.toMatch(/[<>&]/)
      expect(tags[0]?.content).not.toMatch(/[\u2028\u2029]/)
      for (const escaped of ['\\u003c', '\\u003e', '\\u0026', '\\u2028', '\\u2029']) {
        expect(tags[0]?.content).toContain(escaped)
      }
      const reviews = JSON.parse(tags[0]?.content ?? '{}') as { review: Json[] }
      expect(reviews.review[0]?.reviewBody).toBe(HOSTILE)
    })

    it('names an author with an empty last name by the first name alone', async () => {
      const added = await admin(sb, 'POST', 'product-reviews', [
        { product_variation_id: rich.product_variation_id, author_firstname: 'Zoé', author_lastname: '' },
      ])
      expect(added.status, added.text).toBe(201)
      const body = await json({ product_variation_id: rich.product_variation_id, reviews_limit: 1 })
      expect(body.reviews?.review[0]?.author).toMatchObject({ name: 'Zoé' })
    })
  })
})
