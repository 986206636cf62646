import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Answer,
  admin,
  call,
  expectError,
  PUBLISHED_OPERATIONS,
  PUBLISHED_TOKEN_FORM,
  PUBLISHED_TOKEN_PATH,
  type PublishedClient,
  publishedClient,
  publishedToken,
  purchaseEventsPath,
  purchaseEventsToken,
  RATE_LIMIT_HEADERS,
  resetSandbox,
  type Sandbox,
  startSandbox,
  tokenRequest,
  wait,
} from './helpers.ts'

let roomy: Sandbox
let roomyApi: PublishedClient
let tight: Sandbox
let tightApi: PublishedClient

beforeAll(async () => {
  roomy = await startSandbox()
  roomyApi = await publishedClient(roomy)
  tight = await startSandbox({ rateLimit: 5 })
  tightApi = await publishedClient(tight)
})

afterAll(async () => {
  await roomy?.close()
  await tight?.close()
})

function integer(answer: Answer, header: string): number {
  const value = answer.headers.get(header)
  expect(value, `${header} header`).toMatch(/^\d+$/)
  return Number(value)
}

function burst(client: PublishedClient, size: number): Promise<Answer[]> {
  return Promise.all(Array.from({ length: size }, () => client.get('/products', { limit: 1 })))
}

/** Waits out the current one-second window, as told by the 429 itself. */
async function waitOut(answer: Answer): Promise<void> {
  await wait(Number(answer.headers.get('retry-after') ?? '1') * 1000 + 50)
}

describe('rate limit headers', () => {
  it.each(PUBLISHED_OPERATIONS)('GET $path carries every rate limit header', async ({ path, query }) => {
    const answer = await roomyApi.get(path, query, { accept: 'application/ld+json' })
    expect(answer.status, answer.text).toBe(200)
    for (const header of RATE_LIMIT_HEADERS) expect(answer.headers.get(header), header).toMatch(/^\d+$/)
  })

  it('the limits announce the configured requests per second and 60 times that per minute', async () => {
    const answer = await roomyApi.get('/products')
    expect(integer(answer, 'ratelimit-limit')).toBe(100)
    expect(integer(answer, 'x-ratelimit-limit-second')).toBe(100)
    expect(integer(answer, 'x-ratelimit-limit-minute')).toBe(6000)
  })

  it('RateLimit-Reset is at least one second', async () => {
    const answer = await roomyApi.get('/products')
    expect(integer(answer, 'ratelimit-reset')).toBeGreaterThanOrEqual(1)
  })

  it('the remaining counts stay within the limits', async () => {
    const answer = await roomyApi.get('/products')
    expect(integer(answer, 'ratelimit-remaining')).toBeLessThan(100)
    expect(integer(answer, 'x-ratelimit-remaining-second')).toBeLessThan(100)
    expect(integer(answer, 'x-ratelimit-remaining-minute')).toBeLessThan(6000)
  })

  it('the remaining count goes down as requests are served', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => roomyApi.get('/products', { limit: 1 })),
    )
    const remaining = answers.map((answer) => integer(answer, 'ratelimit-remaining'))
    // Ten requests span at most two windows, so one window saw at least five of them.
    expect(Math.min(...remaining)).toBeLessThanOrEqual(95)
    const perMinute = answers.map((answer) => integer(answer, 'x-ratelimit-remaining-minute'))
    expect(Math.min(...perMinute)).toBeLessThanOrEqual(5995)
  })

  it('an error answer of the Published API carries the headers too', async () => {
    const answer = await roomyApi.get('/products', { limit: 0 })
    expectError(answer, 400)
    for (const header of RATE_LIMIT_HEADERS) expect(answer.headers.get(header), header).toMatch(/^\d+$/)
  })

  it('a purchase events answer carries the headers too', async () => {
    const token = await purchaseEventsToken(roomy)
    const answer = await call(`${roomy.origin}${purchaseEventsPath(roomy.websiteId)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '[]',
    })
    expect(answer.status).toBe(400)
    for (const header of RATE_LIMIT_HEADERS) expect(answer.headers.get(header), header).toMatch(/^\d+$/)
  })
})

describe('above the limit', () => {
  it('a burst above the limit gets 429 rate_limited JSON with Retry-After in whole seconds', async () => {
    const answers = await burst(tightApi, 12)
    const limited = answers.filter((answer) => answer.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    // Twelve requests span at most two one-second windows of five.
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(10)
    for (const answer of limited) {
      expectError(answer, 429, 'rate_limited')
      expect(integer(answer, 'retry-after')).toBeGreaterThanOrEqual(1)
    }
  })

  it('a 429 says no request remains in the second', async () => {
    const answers = await burst(tightApi, 12)
    const limited = answers.find((answer) => answer.status === 429)
    expect(limited).toBeDefined()
    expect(integer(limited as Answer, 'x-ratelimit-remaining-second')).toBe(0)
    expect(integer(limited as Answer, 'ratelimit-remaining')).toBe(0)
    expect(integer(limited as Answer, 'x-ratelimit-limit-second')).toBe(5)
  })

  it('requests succeed again once Retry-After has passed', async () => {
    const limited = (await burst(tightApi, 12)).find((answer) => answer.status === 429)
    expect(limited).toBeDefined()
    await waitOut(limited as Answer)
    const answer = await tightApi.get('/products', { limit: 1 })
    expect(answer.status, answer.text).toBe(200)
  })

  it('two tokens of the same client share one budget', async () => {
    const other = await publishedToken(tight)
    let sharedRefusal: Answer | undefined
    // A window may end between the burst and the next request, so a few attempts are allowed.
    for (let attempt = 0; attempt < 3 && sharedRefusal === undefined; attempt++) {
      const answers = await burst(tightApi, 8)
      if (!answers.some((answer) => answer.status === 429)) continue
      const fromOther = await call(tightApi.url('/products', { limit: 1 }), {
        headers: { authorization: `Bearer ${other}` },
      })
      if (fromOther.status === 429) sharedRefusal = fromOther
    }
    expect(sharedRefusal).toBeDefined()
  })

  it('requests without a token are limited too, by remote address', async () => {
    const url = tightApi.url('/products', { limit: 1 })
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(url)))
    const limited = answers.find((answer) => answer.status === 429)
    expect(limited).toBeDefined()
    expectError(limited as Answer, 429, 'rate_limited')
    const refused = answers.find((answer) => answer.status === 401) as Answer
    for (const header of RATE_LIMIT_HEADERS) expect(refused.headers.get(header), header).toMatch(/^\d+$/)
  })

  it('rateLimit 0 turns the limit off', async () => {
    const open = await startSandbox({ rateLimit: 0 })
    try {
      const client = await publishedClient(open)
      const answers = await Promise.all(
        Array.from({ length: 150 }, () => client.get('/products', { limit: 1 })),
      )
      expect(answers.filter((answer) => answer.status !== 200)).toEqual([])
    } finally {
      await open.close()
    }
  })

  it('an expired token still counts against its client', async () => {
    const expired = tightApi.token
    await admin(tight, 'POST', 'tokens/expire')
    await tightApi.renew()
    let refusal: Answer | undefined
    // A window may end between the burst and the next request, so a few attempts are allowed.
    for (let attempt = 0; attempt < 3 && refusal === undefined; attempt++) {
      const answers = await burst(tightApi, 8)
      if (!answers.some((answer) => answer.status === 429)) continue
      const withExpired = await call(tightApi.url('/products', { limit: 1 }), {
        headers: { authorization: `Bearer ${expired}` },
      })
      if (withExpired.status === 429) refusal = withExpired
    }
    expect(refusal).toBeDefined()
  })

  it('a reset clears the windows, so the next request passes at once', async () => {
    const limited = (await burst(tightApi, 12)).find((answer) => answer.status === 429)
    expect(limited).toBeDefined()
    await resetSandbox(tight, tightApi)
    const answer = await tightApi.get('/products', { limit: 1 })
    expect(answer.status, answer.text).toBe(200)
  })

  it('token requests are not rate limited', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => tokenRequest(tight, PUBLISHED_TOKEN_PATH, PUBLISHED_TOKEN_FORM)),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200))
  })

  it('admin routes are not rate limited while the client is', async () => {
    const limited = (await burst(tightApi, 12)).find((answer) => answer.status === 429)
    expect(limited).toBeDefined()
    const stats = await Promise.all(Array.from({ length: 8 }, () => admin(tight, 'GET', 'stats')))
    expect(stats.map((answer) => answer.status)).toEqual(Array(8).fill(200))
  })

  it('429 answers are counted in the stats', async () => {
    await admin(tight, 'DELETE', 'stats')
    const answers = await burst(tightApi, 12)
    const limited = answers.find((answer) => answer.status === 429)
    expect(limited).toBeDefined()
    const stats = await admin<{ total: number; operations: Record<string, number> }>(tight, 'GET', 'stats')
    expect(stats.body.operations['products.list']).toBe(12)
    expect(stats.body.total).toBe(12)
  })
})
