import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { ProductReviewListParams } from '../../types/params.ts'
import type { ProductReview } from '../../types/published.ts'
import type { RequestOptions } from '../../types/request-options.ts'
import { RateShareError } from '../base/errors.ts'
import { continuationCursor } from '../cursor/continuation.ts'
import { CLIENT_INTERNALS, type CursorScope, clientInternals, cursorSigner } from '../cursor/signed-cursor.ts'
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

/** The reviews of the API for a query of the endpoint, as the endpoint asks for them. */
async function apiPage(
  productId: string,
  limit: number,
  sort: 'publish_date' | 'review_rate',
  desc: boolean,
) {
  return sb.client().products.reviews.list({
    product_variation_id: [productId],
    limit,
    sort: [sort],
    ...(desc ? { desc: [sort] } : {}),
  })
}

const newest = (id: string, limit: number): CursorScope => ({
  kind: 'product',
  id,
  sort: 'newest',
  rates: [],
  limit,
})

/** `cursor` signed with the key of the sandbox's clients, as the review components sign theirs. */
function signed(scope: CursorScope, cursor: string): Promise<string> {
  return cursorSigner(sb.client()).sign(scope, cursor)
}

describe('handleReviewsRequest against the sandbox', () => {
  it('answers a page of the product reviews, newest first, with the next cursor', async () => {
    const body = await page('product_variation_id=SKU-001&limit=5')
    const api = await apiPage('SKU-001', 5, 'publish_date', true)
    expect(body.data.map((review) => review.review_id)).toEqual(api.data.map((review) => review.review_id))
    expect(typeof body.nextCursor).toBe('string')
  })

  it('signs the next cursor for this product, order, rates and limit', async () => {
    const body = await page('product_variation_id=SKU-001&limit=5&rate=4,5')
    expect(body.nextCursor).toMatch(/^s1\./)
    const scope: CursorScope = { ...newest('SKU-001', 5), rates: [4, 5] }
    expect(await cursorSigner(sb.client()).open(scope, body.nextCursor)).toMatch(/.+/)
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
    const api = await apiPage('SKU-001', 20, 'publish_date', false)
    expect(body.data.map((review) => review.review_id)).toEqual(api.data.map((review) => review.review_id))
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

  it('answers a signed cursor the API refuses with a 400 naming the cursor', async () => {
    const cursor = await signed(newest('SKU-001', 10), 'bm90LWEtY3Vyc29y')
    const result = await ask(`product_variation_id=SKU-001&cursor=${cursor}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(1)
  })

  it('refuses a well-shaped cursor that was never issued with a 400 naming the cursor, without calling the API', async () => {
    const result = await ask('product_variation_id=SKU-001&cursor=bm90LWEtY3Vyc29y')
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(result.headers['cache-control']).toBe('no-store')
    expect(await calls()).toBe(0)
  })

  it('refuses an API cursor passed as it is, unsigned, without calling the API', async () => {
    const api = await apiPage('SKU-001', 10, 'publish_date', true)
    const before = await calls()
    const result = await ask(`product_variation_id=SKU-001&cursor=${api.nextCursor}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(before)
  })

  it.each([
    ['product', 'product_variation_id=SKU-002&limit=5'],
    ['sort', 'product_variation_id=SKU-001&limit=5&sort=oldest'],
    ['rate filter', 'product_variation_id=SKU-001&limit=5&rate=5'],
    ['limit', 'product_variation_id=SKU-001&limit=6'],
  ])('refuses a signed cursor sent with another %s, without calling the API', async (_name, query) => {
    const first = await page('product_variation_id=SKU-001&limit=5')
    const before = await calls()
    const result = await ask(`${query}&cursor=${first.nextCursor}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(before)
  })

  it('refuses a signed cursor whose API cursor was changed, without calling the API', async () => {
    const first = await page('product_variation_id=SKU-001&limit=5')
    const cursor = first.nextCursor ?? ''
    const changed = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`
    const before = await calls()
    const result = await ask(`product_variation_id=SKU-001&limit=5&cursor=${changed}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(before)
  })

  it('refuses a signed cursor whose signature was changed, without calling the API', async () => {
    const first = await page('product_variation_id=SKU-001&limit=5')
    const cursor = first.nextCursor ?? ''
    const changed = `${cursor.slice(0, 5)}${cursor.charAt(5) === 'A' ? 'B' : 'A'}${cursor.slice(6)}`
    const before = await calls()
    const result = await ask(`product_variation_id=SKU-001&limit=5&cursor=${changed}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(before)
  })

  it('refuses a cursor signed with another key, without calling the API', async () => {
    const other = sb.client({ cursorSecret: 'a-different-cursor-secret' })
    const cursor = await cursorSigner(other).sign(newest('SKU-001', 10), 'bm90LWEtY3Vyc29y')
    const result = await ask(`product_variation_id=SKU-001&cursor=${cursor}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(0)
  })

  it('refuses a forged continuation cursor that would ask the API for a 199-review page', async () => {
    // 149 reviews to skip after a page of 50: the API would be asked for 199 reviews.
    // Ids of one or two characters, so that the cursor stays within the endpoint's 1024 characters.
    const shown = Array.from({ length: 149 }, (_, index) => ({
      review_id: index.toString(36),
      publish_date: '2030-01-01T00:00:00Z',
    }))
    const forged = continuationCursor(shown) ?? ''
    expect(forged.length).toBeLessThanOrEqual(1024)
    const result = await ask(`product_variation_id=SKU-001&limit=50&cursor=${forged}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(0)
  })

  it('asks the API once per request, never retrying', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 500, count: 1 }])
    const result = await ask('product_variation_id=SKU-001')
    expect(result.status).toBe(502)
    expect(await calls()).toBe(1)
  })

  it('answers a 429 of the API with a 503 and its Retry-After, never retrying', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 429, count: 1 }])
    const result = await ask('product_variation_id=SKU-001')
    expect(result).toMatchObject({ status: 503, headers: { 'retry-after': '1' } })
    expect(await calls()).toBe(1)
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
    let cursor: string | null = await signed(
      newest('SKU-058', 50),
      continuationCursor(all.slice(0, 10)) ?? '',
    )
    while (cursor !== null) {
      const body: ReviewsEndpointBody = await page(`product_variation_id=SKU-058&limit=50&cursor=${cursor}`)
      ids.push(...body.data.map((review) => review.review_id))
      cursor = body.nextCursor
    }
    expect(ids).toEqual(all.slice(10).map((review) => review.review_id))
  })

  it('leaves out reviews published after the page was shown', async () => {
    const all = await newestFirst('SKU-001')
    const cursor = await signed(newest('SKU-001', 50), continuationCursor(all.slice(0, 3)) ?? '')
    await sb.admin('POST', 'product-reviews', [{ product_variation_id: 'SKU-001', review_rate: 5 }])
    const body = await page(`product_variation_id=SKU-001&limit=50&cursor=${cursor}`)
    expect(body.data.map((review) => review.review_id)).toEqual(
      all.slice(3).map((review) => review.review_id),
    )
  })

  it('refuses a continuation cursor with another sort, naming the cursor', async () => {
    const all = await newestFirst('SKU-001')
    const cursor = await signed(newest('SKU-001', 10), continuationCursor(all.slice(0, 3)) ?? '')
    const result = await ask(`product_variation_id=SKU-001&sort=oldest&cursor=${cursor}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
  })

  it('refuses a continuation cursor that was not signed, without calling the API', async () => {
    const all = await newestFirst('SKU-001')
    const before = await calls()
    const result = await ask(`product_variation_id=SKU-001&cursor=${continuationCursor(all.slice(0, 3))}`)
    expect(result).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
    expect(await calls()).toBe(before)
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

describe('handleReviewsRequest with a client not made by createClient', () => {
  const plain = (): ReviewsEndpointOptions['client'] => {
    const client = sb.client()
    return {
      products: { reviews: { list: (params, options) => client.products.reviews.list(params, options) } },
    }
  }

  it('signs and checks cursors with the key of cursorSecret', async () => {
    const options = { client: plain(), cursorSecret: 'a-cursor-secret-for-tests', onError: () => {} }
    const first = await handleReviewsRequest(
      new URLSearchParams('product_variation_id=SKU-001&limit=5'),
      options,
    )
    const { nextCursor } = first.body as ReviewsEndpointBody
    const second = await handleReviewsRequest(
      new URLSearchParams(`product_variation_id=SKU-001&limit=5&cursor=${nextCursor}`),
      options,
    )
    expect(second.status).toBe(200)
  })

  it('answers 500 and reports the missing key without cursorSecret, without calling the API', async () => {
    const errors: unknown[] = []
    const result = await handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), {
      client: plain(),
      onError: (error) => errors.push(error),
    })
    expect(result.status).toBe(500)
    expect(errors).toEqual([expect.objectContaining({ field: 'cursorSecret' })])
    expect(await calls()).toBe(0)
  })
})

describe('the budget of handleReviewsRequest', () => {
  /**
   * A client whose API calls go to the sandbox and whose options are recorded, or that throws `refusal`
   * instead of calling the API.
   */
  function recordingClient(refusal?: Error) {
    const client = sb.client()
    const options: (RequestOptions | undefined)[] = []
    const wrapped = {
      products: {
        reviews: {
          list: (params: ProductReviewListParams, requestOptions?: RequestOptions) => {
            options.push(requestOptions)
            if (refusal !== undefined) return Promise.reject(refusal)
            return client.products.reviews.list(params, requestOptions)
          },
        },
      },
      [CLIENT_INTERNALS]: clientInternals(client),
    } as ReviewsEndpointOptions['client']
    return { client: wrapped, options }
  }

  it('shares one API call between identical requests under way', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 200 }])
    const client = sb.client()
    const query = (locale: string) =>
      handleReviewsRequest(new URLSearchParams(`product_variation_id=SKU-001&limit=5&locale=${locale}`), {
        client,
      })
    const results = await Promise.all([query('en'), query('en'), query('fr'), query('de'), query('en')])
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200])
    expect(await calls()).toBe(1)
    const ids = results.map((result) => (result.body as ReviewsEndpointBody).data.map((r) => r.review_id))
    expect(new Set(ids.map((list) => list.join())).size).toBe(1)
  })

  it('calls the API again once the shared call is over', async () => {
    const client = sb.client()
    const query = () =>
      handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001&limit=5'), { client })
    await query()
    await query()
    expect(await calls()).toBe(2)
  })

  it('answers 503 with Retry-After at once beyond maxConcurrency calls under way, with maxWait 0', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 400 }])
    const client = sb.client()
    const started = Date.now()
    const answers = ['SKU-001', 'SKU-002', 'SKU-003', 'SKU-004', 'SKU-005'].map(async (id) => {
      const result = await handleReviewsRequest(new URLSearchParams(`product_variation_id=${id}`), {
        client,
        maxConcurrency: 2,
        maxWait: 0,
      })
      return { status: result.status, retryAfter: result.headers['retry-after'], ms: Date.now() - started }
    })
    const results = await Promise.all(answers)
    expect(results.map((result) => result.status)).toEqual([200, 200, 503, 503, 503])
    const refused = results.filter((result) => result.status === 503)
    const firstServed = Math.min(
      ...results.filter((result) => result.status === 200).map((result) => result.ms),
    )
    // Answered at once: before the calls under way (400 ms each) are over.
    expect(refused.every((result) => result.retryAfter === '1' && result.ms < firstServed)).toBe(true)
    expect(await calls()).toBe(2)
  })

  it('keeps at most 4 calls under way by default, the requests beyond them waiting for one to end', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 300 }])
    const client = sb.client()
    // Until a first answer tells the rate limits (here: none), the client sends one request at a time.
    await client.products.list({ limit: 1 })
    const ids = Array.from({ length: 10 }, (_, index) => `SKU-00${index}`)
    const started = Date.now()
    const results = await Promise.all(
      ids.map((id) => handleReviewsRequest(new URLSearchParams(`product_variation_id=${id}`), { client })),
    )
    expect(results.map((result) => result.status)).toEqual(ids.map(() => 200))
    expect(await calls()).toBe(10)
    // Three rounds of calls (4, 4 and 2) of 300 ms each: never more than 4 at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(880)
  })

  it('answers 503 to a request that waited maxWait without a call ending', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 600 }])
    const client = sb.client()
    const options = { client, maxConcurrency: 1, maxWait: 100 }
    const started = Date.now()
    const [first, second] = await Promise.all([
      handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), options),
      handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-002'), options).then((result) => ({
        result,
        ms: Date.now() - started,
      })),
    ])
    expect(first.status).toBe(200)
    expect(second.result).toMatchObject({ status: 503, headers: { 'retry-after': '1' } })
    expect(second.ms).toBeLessThan(600)
    expect(await calls()).toBe(1)
  })

  it('answers 503 with Retry-After at once to a request beyond maxWaiting waiting ones', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 300 }])
    const client = sb.client()
    const options = { client, maxConcurrency: 1, maxWait: 5000, maxWaiting: 1 }
    const settled: string[] = []
    const ask = (id: string) =>
      handleReviewsRequest(new URLSearchParams(`product_variation_id=${id}`), options).then((result) => {
        settled.push(`${id}:${result.status}`)
        return result
      })
    // SKU-001 takes the slot, SKU-002 waits, and SKU-003 finds the queue full.
    const [, , third] = await Promise.all([ask('SKU-001'), ask('SKU-002'), ask('SKU-003')])
    expect(settled).toEqual(['SKU-003:503', 'SKU-001:200', 'SKU-002:200'])
    expect(third.headers['retry-after']).toBe('1')
    expect(await calls()).toBe(2)
  })

  it('gives a request that waited the call an identical request started meanwhile', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 300 }])
    const client = sb.client()
    // SKU-001 and SKU-003 take both slots; both SKU-002 requests wait. The first slot freed starts the
    // SKU-002 call; the second finds it under way and shares it.
    const options = { client, maxConcurrency: 2 }
    const results = await Promise.all(
      ['SKU-001', 'SKU-003', 'SKU-002', 'SKU-002'].map((id) =>
        handleReviewsRequest(new URLSearchParams(`product_variation_id=${id}`), options),
      ),
    )
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200])
    expect(await calls()).toBe(3)
    // And the shared call held no slot: both are free again.
    const after = await Promise.all(
      ['SKU-004', 'SKU-005'].map((id) =>
        handleReviewsRequest(new URLSearchParams(`product_variation_id=${id}`), { ...options, maxWait: 0 }),
      ),
    )
    expect(after.map((result) => result.status)).toEqual([200, 200])
  })

  it('marks its API calls as visitor-driven, with the share of the rate budget reservedRateShare leaves them', async () => {
    const { client, options } = recordingClient()
    const ask = (reservedRateShare?: number) =>
      handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), { client, reservedRateShare })
    await ask()
    await ask(0.2)
    expect(options.map((option) => [option?.visitor, option?.visitorShare])).toEqual([
      [true, 0.5],
      [true, 0.8],
    ])
  })

  it("lets its API calls wait their turn as the site's own with reservedRateShare 0", async () => {
    const { client, options } = recordingClient()
    await handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), {
      client,
      reservedRateShare: 0,
    })
    expect(options[0]?.visitor).toBeUndefined()
  })

  it('answers 503 with Retry-After, and reports nothing, when the client refuses the call for its share', async () => {
    const errors: unknown[] = []
    const refusal = new RateShareError({
      status: 429,
      headers: new Headers(),
      body: undefined,
      url: 'https://api.test/',
      source: 'published',
      retryAfter: 1.5,
    })
    const result = await handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), {
      client: recordingClient(refusal).client,
      onError: (error) => errors.push(error),
    })
    expect(result).toMatchObject({
      status: 503,
      headers: { 'retry-after': '2', 'cache-control': 'no-store' },
    })
    expect(errors).toEqual([])
  })
})
