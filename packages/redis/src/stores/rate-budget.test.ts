import { RateLimitError, type VerifiedReviewsClient } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { createRedisRateBudget } from './rate-budget.ts'
import { createRedisTokenStore } from './token.ts'

const LIMIT = 10
const redis = redisForFile()
const sb = sandboxForFile({ seed: 1, rateLimit: LIMIT })

const connect = connectionsFor(redis)

/**
 * Sends `perClient` uncached requests from each client at once, with no retry: a 429 is an error.
 * Answers how many were refused.
 */
async function burst(clients: VerifiedReviewsClient[], perClient: number): Promise<number> {
  const results = await Promise.allSettled(
    clients.flatMap((client) =>
      Array.from({ length: perClient }, (_, i) =>
        client.products.reviews.list({
          limit: 1,
          product_variation_id: [`SKU-${String(i + 1).padStart(3, '0')}`],
        }),
      ),
    ),
  )
  const refused = results.filter(
    (result) => result.status === 'rejected' && result.reason instanceof RateLimitError,
  ).length
  const other = results.find(
    (result) => result.status === 'rejected' && !(result.reason instanceof RateLimitError),
  )
  if (other !== undefined) throw (other as PromiseRejectedResult).reason
  return refused
}

const client = (options: Parameters<typeof sb.client>[0] = {}) =>
  sb.client({ maxRetries: 0, maxConcurrency: 64, ...options })

describe('createRedisRateBudget', () => {
  it('keeps three instances together under the API limit: no 429', async () => {
    const clients = [1, 2, 3].map(() => {
      const connection = connect()
      return client({
        rateBudget: createRedisRateBudget(connection),
        tokenStore: createRedisTokenStore(connection),
      })
    })
    const started = Date.now()
    expect(await burst(clients, 12)).toBe(0)
    const seconds = (Date.now() - started) / 1000
    // 36 requests at 10 per second (1.1 s windows with the margin) take about 3.5 s, not 36 / 30.
    expect(seconds).toBeGreaterThan(2.5)
    expect((await sb.stats()).operations['products.reviews.list']).toBe(36)
  })

  it('is what keeps them under it: without it the same burst is refused', async () => {
    const clients = [1, 2, 3].map(() => client())
    expect(await burst(clients, 12)).toBeGreaterThan(0)
  })

  it('stays under a limit it was told, from the first request', async () => {
    const clients = [1, 2, 3].map(() =>
      client({
        rateBudget: createRedisRateBudget(connect(), { limits: [{ requests: LIMIT, windowMs: 1000 }] }),
      }),
    )
    expect(await burst(clients, 8)).toBe(0)
  })

  it('lets one request go at a time until an answer tells the limits', async () => {
    const budget = createRedisRateBudget(connect())
    expect(await budget.reserve('k')).toBe(0)
    expect(await budget.reserve('k')).toBeGreaterThan(0)
    await budget.settle('k', {
      status: 200,
      headers: new Headers({ 'x-ratelimit-limit-second': '5', 'x-ratelimit-limit-minute': '300' }),
    })
    expect(await budget.reserve('k')).toBe(0)
  })

  it('lets every request go once an answer said there are no limits', async () => {
    const budget = createRedisRateBudget(connect())
    await budget.settle('k', { status: 200, headers: new Headers() })
    for (let i = 0; i < 20; i++) expect(await budget.reserve('k')).toBe(0)
  })

  it('holds every instance after a 429 until its Retry-After', async () => {
    const [a, b] = [createRedisRateBudget(connect()), createRedisRateBudget(connect())]
    await a.settle('k', { status: 200, headers: new Headers() })
    await a.settle('k', { status: 429, headers: new Headers({ 'retry-after': '2' }) })
    const wait = await b.reserve('k')
    expect(wait).toBeGreaterThan(1500)
    expect(wait).toBeLessThanOrEqual(2000)
  })

  it('keeps the budgets of two keys apart', async () => {
    const budget = createRedisRateBudget(connect(), { limits: [{ requests: 1, windowMs: 1000 }] })
    expect(await budget.reserve('a')).toBe(0)
    expect(await budget.reserve('b')).toBe(0)
    expect(await budget.reserve('a')).toBeGreaterThan(0)
  })

  it('answers how long until the oldest request that ended leaves its window', async () => {
    const budget = createRedisRateBudget(connect(), { limits: [{ requests: 2, windowMs: 1000 }], margin: 0 })
    await budget.reserve('k')
    await budget.reserve('k')
    const ended = Date.now()
    await budget.settle('k', { status: 200, headers: new Headers() })
    await budget.settle('k', { status: 200, headers: new Headers() })
    const wait = await budget.reserve('k')
    // What is left of the window after the first ended, give or take the time the calls took.
    expect(wait).toBeGreaterThanOrEqual(1000 - (Date.now() - ended) - 20)
    expect(wait).toBeLessThanOrEqual(1000)
  })

  it('holds the place of a request under way until it ends, however long it takes', async () => {
    const budget = createRedisRateBudget(connect(), { limits: [{ requests: 1, windowMs: 200 }], margin: 0 })
    expect(await budget.reserve('k')).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const polled = await budget.reserve('k')
    expect(polled).toBeGreaterThan(0)
    expect(polled).toBeLessThanOrEqual(25)
    await budget.settle('k', { status: 200, headers: new Headers() })
    expect(await budget.reserve('k')).toBeGreaterThan(100)
  })

  it('frees the place of a request whose end is never told after inFlightTimeout', async () => {
    const budget = createRedisRateBudget(connect(), {
      limits: [{ requests: 1, windowMs: 100 }],
      margin: 0,
      inFlightTimeout: 100,
    })
    expect(await budget.reserve('k')).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(await budget.reserve('k')).toBe(0)
  })

  it('refuses a limit that is not a positive integer, naming it', () => {
    expect(() => createRedisRateBudget(connect(), { limits: [{ requests: 0, windowMs: 1000 }] })).toThrow(
      'limits[0].requests',
    )
  })
})
