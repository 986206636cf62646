import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { ProductReview } from '../../types/published.ts'
import { continuationCursor } from './continuation.ts'
import {
  createReviewsHandler,
  handleReviewsRequest,
  type ReviewsEndpointBody,
  type ReviewsEndpointErrorBody,
  type ReviewsEndpointOptions,
} from './reviews-endpoint.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

async function calls(): Promise<number> {
  return (await sb.stats()).operations['products.reviews.list'] ?? 0
}

async function ask(query: string, options: Partial<ReviewsEndpointOptions> = {}) {
  return handleReviewsRequest(new URLSearchParams(query), {
    client: sb.client(),
    onError: () => {},
    ...options,
  })
}

async function page(query: string): Promise<ReviewsEndpointBody> {
  const result = await ask(query)
  expect(result.status).toBe(200)
  return result.body as ReviewsEndpointBody
}

describe('handleReviewsRequest against the sandbox', () => {
  it('answers a page of the product reviews, newest first, with the next cursor', async () => {
    const body = await page('product_variation_id=SKU-001&limit=5')
    expect(body.data).toHaveLength(5)
    expect(body.data.every((review) => review.product_variation_id === 'SKU-001')).toBe(true)
    const dates = body.data.map((review) => review.publish_date)
    expect(dates).toEqual([...dates].sort().reverse())
    expect(typeof body.nextCursor).toBe('string')
  })

  it('walks every review of a product through the cursors, each once', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const body: ReviewsEndpointBody = await page(
        `product_variation_id=SKU-002&limit=5${cursor === null ? '' : `&cursor=${cursor}`}`,
      )
      seen.push(...body.data.map((review) => review.review_id))
      cursor = body.nextCursor
    } while (cursor !== null)
    const all: ProductReview[] = []
    for await (const review of sb.client().products.reviews.list({
      product_variation_id: ['SKU-002'],
      limit: 200,
    })) {
      all.push(review)
    }
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.sort()).toEqual(all.map((review) => review.review_id).sort())
  })

  it('keeps only the requested ratings', async () => {
    const body = await page('product_variation_id=SKU-029&limit=50&rate=1,2')
    expect(body.data.length).toBeGreaterThan(0)
    expect(body.data.every((review) => review.review_rate <= 2)).toBe(true)
  })

  it('orders by rating, highest first', async () => {
    const body = await page('product_variation_id=SKU-029&limit=50&sort=highest')
    const rates = body.data.map((review) => review.review_rate)
    expect(rates).toEqual([...rates].sort().reverse())
    expect(rates[0]).toBe(5)
  })

  it('orders by rating, lowest first', async () => {
    const body = await page('product_variation_id=SKU-029&limit=50&sort=lowest')
    const rates = body.data.map((review) => review.review_rate)
    expect(rates).toEqual([...rates].sort())
    expect(rates[0]).toBe(1)
  })

  it('orders oldest first', async () => {
    const body = await page('product_variation_id=SKU-001&limit=20&sort=oldest')
    const dates = body.data.map((review) => review.publish_date)
    expect(dates).toEqual([...dates].sort())
  })

  it('sends the translation of the requested language alone', async () => {
    const body = await page('product_variation_id=SKU-001&limit=10&locale=de')
    expect(
      body.data.every((review) => Object.keys(review.translated_review).every((key) => key === 'de')),
    ).toBe(true)
  })

  it('gives the last page a null cursor', async () => {
    const first = await page('product_variation_id=SKU-002&limit=10')
    const last = await page(`product_variation_id=SKU-002&limit=10&cursor=${first.nextCursor}`)
    expect(last.data).toHaveLength(9)
    expect(last.nextCursor).toBeNull()
  })

  it('sets shared-cache headers on a page', async () => {
    const result = await ask('product_variation_id=SKU-001', { sMaxAge: 60, staleWhileRevalidate: 600 })
    expect(result.headers['cache-control']).toBe('public, s-maxage=60, stale-while-revalidate=600')
    expect(result.headers['content-type']).toBe('application/json; charset=utf-8')
  })

  it('refuses bad input with a 400 naming the parameter, without calling the API', async () => {
    const result = await ask('product_variation_id=SKU-001&limit=51')
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'limit' } } })
    expect(result.headers['cache-control']).toBe('no-store')
    expect(await calls()).toBe(0)
  })

  it('answers a cursor the API refuses with a 400 naming the cursor', async () => {
    const first = await page('product_variation_id=SKU-001&limit=5')
    const result = await ask(`product_variation_id=SKU-001&limit=5&sort=oldest&cursor=${first.nextCursor}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
  })

  it('answers a well-shaped cursor that was never issued with a 400 naming the cursor', async () => {
    const result = await ask('product_variation_id=SKU-001&cursor=bm90LWEtY3Vyc29y')
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
  })

  it('answers 502 without details when the API fails, and reports the error', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 500 }])
    const errors: unknown[] = []
    const result = await handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), {
      client: sb.client({ maxRetries: 0 }),
      onError: (error) => errors.push(error),
    })
    expect(result).toEqual({
      status: 502,
      headers: expect.objectContaining({ 'cache-control': 'no-store' }),
      body: { error: { message: 'reviews are unavailable right now' } },
    })
    expect(errors).toHaveLength(1)
  })
})

describe('handleReviewsRequest after a page shown from local data', () => {
  async function newestFirst(productId: string): Promise<ProductReview[]> {
    const all: ProductReview[] = []
    const walk = sb.client().products.reviews.list({
      product_variation_id: [productId],
      sort: ['publish_date'],
      desc: ['publish_date'],
      limit: 200,
    })
    for await (const review of walk) all.push(review)
    return all
  }

  it('goes on from a continuation cursor with the reviews after those shown, to the last one', async () => {
    const all = await newestFirst('SKU-058')
    const ids: string[] = []
    let cursor = continuationCursor(all.slice(0, 10)) ?? null
    while (cursor !== null) {
      const body: ReviewsEndpointBody = await page(`product_variation_id=SKU-058&limit=50&cursor=${cursor}`)
      ids.push(...body.data.map((review) => review.review_id))
      cursor = body.nextCursor
    }
    expect(ids).toEqual(all.slice(10).map((review) => review.review_id))
  })

  it('leaves out reviews published after the page was shown', async () => {
    const all = await newestFirst('SKU-001')
    const cursor = continuationCursor(all.slice(0, 3))
    await sb.admin('POST', 'product-reviews', [{ product_variation_id: 'SKU-001', review_rate: 5 }])
    const body = await page(`product_variation_id=SKU-001&limit=50&cursor=${cursor}`)
    expect(body.data.map((review) => review.review_id)).toEqual(
      all.slice(3).map((review) => review.review_id),
    )
  })

  it('refuses a continuation cursor with another sort, naming the cursor', async () => {
    const all = await newestFirst('SKU-001')
    const result = await ask(
      `product_variation_id=SKU-001&sort=oldest&cursor=${continuationCursor(all.slice(0, 3))}`,
    )
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
  })
})

describe('createReviewsHandler', () => {
  it('answers a GET request with a JSON response', async () => {
    const handle = createReviewsHandler({ client: sb.client() })
    const response = await handle(
      new Request('https://shop.example/api/reviews?product_variation_id=SKU-001&limit=2'),
    )
    expect(response.status).toBe(200)
    expect(((await response.json()) as ReviewsEndpointBody).data).toHaveLength(2)
  })

  it('answers a HEAD request with headers alone', async () => {
    const handle = createReviewsHandler({ client: sb.client() })
    const response = await handle(
      new Request('https://shop.example/api/reviews?product_variation_id=SKU-001', { method: 'HEAD' }),
    )
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
  })

  it('answers another method with a 405 listing the allowed ones', async () => {
    const handle = createReviewsHandler({ client: sb.client() })
    const response = await handle(
      new Request('https://shop.example/api/reviews', { method: 'POST', body: '{}' }),
    )
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(((await response.json()) as ReviewsEndpointErrorBody).error.message).toBe('POST is not allowed')
  })
})
