import {
  APITimeoutError,
  AuthenticationError,
  InternalServerError,
  type RateLimitEvent,
  type RetryEvent,
  type VerifiedReviewsClient,
} from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

/** Walks every product review; `afterPage` runs after each page arrives. */
async function walk(vr: VerifiedReviewsClient, afterPage?: (index: number) => Promise<void>) {
  const ids: string[] = []
  let index = 0
  const first = await vr.products.reviews.list({ limit: 200 })
  for await (const page of first.iterPages()) {
    for (const review of page.data) ids.push(review.review_id)
    await afterPage?.(index++)
  }
  return ids
}

describe('the client under injected faults', () => {
  it('walks every review exactly once while 30% of the pages answer 500', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 500, rate: 0.3 }])
    const retries: RetryEvent[] = []
    const ids = await walk(sb.client({ maxRetries: 10, onRetry: (event) => void retries.push(event) }))
    expect(ids).toHaveLength(3000)
    expect(new Set(ids).size).toBe(3000)
    expect((await sb.stats()).operations['products.reviews.list']).toBe(15 + retries.length)
    expect(retries.every((event) => event.error instanceof InternalServerError)).toBe(true)
  })

  it('waits out a 429 storm as Retry-After asks and finishes the walk', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 429, count: 3 }])
    const events: RateLimitEvent[] = []
    const ids = await walk(sb.client({ maxRetries: 5, onRateLimit: (event) => void events.push(event) }))
    expect(new Set(ids).size).toBe(3000)
    expect(events.filter((event) => event.reason === 'refused').map((event) => event.delay)).toEqual([
      1000, 1000, 1000,
    ])
  })

  it('fails fast in a 429 storm when onRateLimit gives up', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 429 }])
    const error = await walk(sb.client({ onRateLimit: () => false })).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'RateLimitError', status: 429, retryAfter: 1 })
    expect((await sb.stats()).operations['products.reviews.list']).toBe(1)
  })

  it('gets a new token when the token expires in the middle of a walk', async () => {
    const ids = await walk(sb.client(), async (index) => {
      if (index === 4) await sb.expireTokens()
    })
    expect(new Set(ids).size).toBe(3000)
    expect((await sb.stats()).operations['token.published']).toBe(2)
  })

  it('retries bodies cut short and walks every review exactly once', async () => {
    await sb.faults([{ operation: 'products.reviews.list', truncate: true, rate: 0.3 }])
    const ids = await walk(sb.client({ maxRetries: 10 }))
    expect(ids).toHaveLength(3000)
    expect(new Set(ids).size).toBe(3000)
  })

  it('retries an answer slower than the timeout', async () => {
    await sb.faults([{ operation: 'products.list', latencyMs: 1500, count: 1 }])
    const retries: RetryEvent[] = []
    const page = await sb
      .client({ timeout: 300, onRetry: (event) => void retries.push(event) })
      .products.list()
    expect(page.data).toHaveLength(10)
    expect(retries.map((event) => event.error.name)).toEqual(['APITimeoutError'])
  })

  it('throws APITimeoutError when every attempt is slower than the timeout', async () => {
    await sb.faults([{ operation: 'products.list', latencyMs: 1500 }])
    await expect(sb.client({ timeout: 200, maxRetries: 1 }).products.list()).rejects.toThrow(APITimeoutError)
  })

  it('stops at totalTimeout when every attempt is slow, however many retries are left', async () => {
    await sb.faults([{ operation: 'products.list', latencyMs: 2000 }])
    const started = performance.now()
    const error = (await sb
      .client({ timeout: 600, totalTimeout: 1500, maxRetries: 10 })
      .products.list()
      .catch((e: unknown) => e)) as APITimeoutError
    expect(error).toBeInstanceOf(APITimeoutError)
    expect(error).toMatchObject({ limit: 'totalTimeout', timeout: 1500 })
    expect(error.message).toContain('totalTimeout of 1500 ms')
    expect(error.attempts).toBeGreaterThanOrEqual(1)
    // Generous: 1.5 s plus the sandbox's own pace; ten more slow attempts would take far longer.
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('walks every review exactly once under 500s, cut bodies, a 429 storm and an expiring token together', async () => {
    await sb.faults([
      { operation: 'products.reviews.list', status: 500, rate: 0.2 },
      { operation: 'products.reviews.list', truncate: true, rate: 0.15 },
      { operation: 'products.reviews.list', status: 429, count: 2 },
      { operation: 'token.published', status: 503, count: 1 },
    ])
    const ids = await walk(sb.client({ maxRetries: 12 }), async (index) => {
      if (index === 7) await sb.expireTokens()
    })
    expect(ids).toHaveLength(3000)
    expect(new Set(ids).size).toBe(3000)
  })
})

describe('the token endpoint under faults', () => {
  it('throws AuthenticationError from the token endpoint for bad credentials, sending no API request', async () => {
    const error = (await sb
      .client({ clientSecret: 'wrong' })
      .products.list()
      .catch((e: unknown) => e)) as AuthenticationError
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.source).toBe('published-token')
    expect(error.code).toBe('invalid_client')
    expect((await sb.stats()).operations['products.list']).toBeUndefined()
  })

  it('throws the server error of a token endpoint that stays down, after retrying it', async () => {
    await sb.faults([{ operation: 'token.published', status: 503 }])
    const error = (await sb
      .client({ maxRetries: 1 })
      .products.list()
      .catch((e: unknown) => e)) as InternalServerError
    expect(error).toBeInstanceOf(InternalServerError)
    expect(error.source).toBe('published-token')
    expect((await sb.stats()).operations['token.published']).toBe(2)
  })
})
