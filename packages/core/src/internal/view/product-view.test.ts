import { describe, expect, it, vi } from 'vitest'
import type { ProductReviewListParams } from '../../types/params.ts'
import type { ProductReview, ProductSummary, StructuredData } from '../../types/published.ts'
import { isContinuationCursor } from '../cursor/continuation.ts'
import type { ReviewView } from '../cursor/review-query.ts'
import { type CursorScope, cursorSignerFromSecret } from '../cursor/signed-cursor.ts'
import { apiSource, buildDataSource, loadProductView, structuredDataJsonLd } from './product-view.ts'

const signer = cursorSignerFromSecret('a secret of the tests')
const newest: ReviewView = { sort: 'newest', rates: [] }
const scope = (id: string, limit: number, view = newest): CursorScope => ({
  kind: 'product',
  id,
  sort: view.sort,
  rates: view.rates,
  limit,
})

function review(id: string, day: number): ProductReview {
  return { review_id: id, publish_date: `2025-03-${String(day).padStart(2, '0')}T10:00:00Z` } as ProductReview
}

function summary(id: string, count: number, average: number): ProductSummary {
  const ratings = {
    average,
    count_total: count,
    count_5: 0,
    count_4: count,
    count_3: 0,
    count_2: 0,
    count_1: 0,
  }
  return { product_variation_id: id, ratings, extras: [] } as unknown as ProductSummary
}

/** A client whose pages of reviews go on with cursor `p<n>`, and which records what it is asked. */
function fakeClient(pages: ProductReview[][]) {
  const asked: ProductReviewListParams[] = []
  const fake = {
    products: {
      list: vi.fn(async (params: { product_variation_id: string[] }) => ({
        data: params.product_variation_id.map((id) => summary(id, 4, 4)),
      })),
      reviews: {
        list: async (params: ProductReviewListParams) => {
          asked.push(params)
          if (params.cursor !== undefined && !/^p\d$/.test(params.cursor)) {
            throw Object.assign(new Error('cursor refused'), { field: 'cursor' })
          }
          const index = params.cursor === undefined ? 0 : Number(params.cursor.slice(1))
          return {
            data: pages[index] ?? [],
            nextCursor: index + 1 < pages.length ? `p${index + 1}` : undefined,
            previousCursor: index > 0 ? `p${index - 1}` : undefined,
          }
        },
      },
    },
  }
  // The client's resources are classes: a fake of their shape stands in.
  return { client: fake as never, summaries: fake.products.list, asked }
}

describe('loadProductView from the API', () => {
  const pages = [
    [review('r1', 9), review('r2', 8)],
    [review('r3', 7), review('r4', 6)],
  ]

  it('asks for the summaries and the page of the view, and combines the variations’ summaries', async () => {
    const { client, summaries, asked } = fakeClient(pages)
    const view: ReviewView = { sort: 'lowest', rates: [1, 2] }
    const shown = await loadProductView({
      source: apiSource(client),
      ids: ['A', 'B'],
      view,
      limit: 2,
      signer,
    })
    expect(summaries).toHaveBeenCalledWith({ product_variation_id: ['A', 'B'] })
    expect(asked).toEqual([
      { limit: 2, sort: ['review_rate'], review_rate: [1, 2], product_variation_id: ['A', 'B'] },
    ])
    expect(shown.summary?.ratings).toMatchObject({ average: 4, count_total: 8 })
    expect(shown.data).toEqual(pages[0])
    expect(shown.cursor).toBeUndefined()
    expect(await signer.open(scope('A,B', 2, view), shown.nextCursor)).toBe('p1')
  })

  it('goes on from a cursor it signed, and signs the cursors back to the page before', async () => {
    const { client, asked } = fakeClient(pages)
    const cursor = await signer.sign(scope('A', 2), 'p1')
    const shown = await loadProductView({
      source: apiSource(client),
      ids: ['A'],
      view: { ...newest, cursor },
      limit: 2,
      signer: Promise.resolve(signer),
    })
    expect(asked.at(-1)?.cursor).toBe('p1')
    expect(shown.data).toEqual(pages[1])
    expect(shown.cursor).toBe(cursor)
    expect(shown.nextCursor).toBeUndefined()
    expect(await signer.open(scope('A', 2), shown.previousCursor)).toBe('p0')
  })

  it('shows the first page for a cursor signed for another page size, without sending it', async () => {
    const { client, asked } = fakeClient(pages)
    const cursor = await signer.sign(scope('A', 3), 'p1')
    const shown = await loadProductView({
      source: apiSource(client),
      ids: ['A'],
      view: { ...newest, cursor },
      limit: 2,
      signer,
    })
    expect(asked.map((params) => params.cursor)).toEqual([undefined])
    expect(shown.data).toEqual(pages[0])
    expect(shown.cursor).toBeUndefined()
  })

  it('asks for 10 reviews when no limit is given', async () => {
    const { client, asked } = fakeClient(pages)
    await loadProductView({ source: apiSource(client), ids: ['A'], view: newest, signer })
    expect(asked[0]?.limit).toBe(10)
  })

  it('rejects when the summaries fail', async () => {
    const { client, summaries } = fakeClient(pages)
    summaries.mockRejectedValueOnce(new Error('503'))
    await expect(
      loadProductView({ source: apiSource(client), ids: ['A'], view: newest, limit: 2, signer }),
    ).rejects.toThrow('503')
  })
})

describe('structuredDataJsonLd', () => {
  const url = 'https://shop.example/p/a'
  const answer: StructuredData = {
    ratings: {
      '@context': 'https://schema.org',
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: 4,
        reviewCount: 2,
        bestRating: 5,
        worstRating: 1,
        itemReviewed: { '@id': url },
      },
    },
  } as StructuredData

  const clientOf = (get: () => Promise<StructuredData>) =>
    ({ products: { structuredData: { get } } }) as never

  it('asks for the page’s URL and the default blocks, and gives the Product node', async () => {
    const get = vi.fn(async () => answer)
    const node = await structuredDataJsonLd(clientOf(get), { product_variation_id: ['A', 'B'] }, { url })
    expect(get).toHaveBeenCalledWith({
      product_variation_id: ['A', 'B'],
      canonical_url: url,
      filters: ['aggregate_rating', 'reviews'],
    })
    expect(node).toMatchObject({ '@id': url, aggregateRating: { ratingValue: 4 } })
  })

  it('asks for the AI summary too when it is to be marked up', async () => {
    const get = vi.fn(async () => answer)
    await structuredDataJsonLd(
      clientOf(get),
      { product_variation_id: 'A' },
      { url, reviewSummaryAuthor: 'Shop' },
    )
    expect(get).toHaveBeenCalledWith(
      expect.objectContaining({ filters: ['aggregate_rating', 'reviews', 'review_summary'] }),
    )
  })

  it('tells onError of a failed call and gives null', async () => {
    const failure = new Error('structured data down')
    const onError = vi.fn()
    const get = () => Promise.reject(failure)
    expect(
      await structuredDataJsonLd(clientOf(get), { product_variation_id: 'A' }, { url }, onError),
    ).toBeNull()
    expect(onError).toHaveBeenCalledWith(failure)
  })

  it('rejects an answer for another page even with onError: the options are wrong, not the API', async () => {
    const onError = vi.fn()
    const other = structuredDataJsonLd(
      clientOf(async () => answer),
      { product_variation_id: 'A' },
      { url: 'https://shop.example/p/b' },
      onError,
    )
    await expect(other).rejects.toThrow(/canonical_url/)
    expect(onError).not.toHaveBeenCalled()
  })
})

describe('loadProductView from build data', () => {
  const reviews = new Map([
    ['A', [review('a1', 9), review('a2', 5)]],
    ['B', [review('b1', 7), review('b2', 3)]],
  ])
  const data = {
    summaries: vi.fn(async (ids: readonly string[]) => new Map(ids.map((id) => [id, summary(id, 2, 5)]))),
    reviews: vi.fn(async (id: string) => reviews.get(id) ?? []),
  }

  it('shows the newest reviews of the variations merged, with a signed continuation cursor', async () => {
    const shown = await loadProductView({
      source: buildDataSource(data),
      ids: ['A', 'B'],
      view: newest,
      limit: 3,
      signer,
    })
    expect(shown.data.map((item) => item.review_id)).toEqual(['a1', 'b1', 'a2'])
    expect(shown.summary?.ratings).toMatchObject({ average: 4, count_total: 4 })
    expect(shown.previousCursor).toBeUndefined()
    expect(isContinuationCursor(await signer.open(scope('A,B', 3), shown.nextCursor))).toBe(true)
  })

  it('hands out no next cursor when the page shows every review', async () => {
    const shown = await loadProductView({
      source: buildDataSource(data),
      ids: ['A'],
      view: newest,
      limit: 2,
      signer,
    })
    expect(shown.data).toEqual(reviews.get('A'))
    expect(shown.nextCursor).toBeUndefined()
  })

  it('reads only the newest reviews where the data can (newestReviews), with the same page', async () => {
    const newestReviews = vi.fn(async (ids: readonly string[], limit: number) => {
      const all = ids
        .flatMap((id) => reviews.get(id) ?? [])
        .sort((a, b) => (a.publish_date < b.publish_date ? 1 : -1))
      return { data: all.slice(0, limit), more: all.length > limit }
    })
    const indexed = { summaries: data.summaries, reviews: vi.fn(data.reviews), newestReviews }
    const shown = await loadProductView({
      source: buildDataSource(indexed),
      ids: ['A', 'B'],
      view: newest,
      limit: 3,
      signer,
    })
    expect(newestReviews).toHaveBeenCalledWith(['A', 'B'], 3)
    expect(indexed.reviews).not.toHaveBeenCalled()
    expect(shown.data.map((item) => item.review_id)).toEqual(['a1', 'b1', 'a2'])
    expect(isContinuationCursor(await signer.open(scope('A,B', 3), shown.nextCursor))).toBe(true)
    const whole = await loadProductView({
      source: buildDataSource(indexed),
      ids: ['A'],
      view: newest,
      limit: 2,
      signer,
    })
    expect(whole.nextCursor).toBeUndefined()
  })

  it('refuses a view other than the first page of the newest', async () => {
    await expect(
      loadProductView({
        source: buildDataSource(data),
        ids: ['A'],
        view: { ...newest, rates: [5] },
        limit: 2,
        signer,
      }),
    ).rejects.toThrow(RangeError)
  })
})
