import { inspect } from 'node:util'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RateLimitEvent, RetryEvent } from '../../types/request-options.ts'
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  InvalidResponseError,
  NotAcceptableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RateShareError,
  ResponseTooLargeError,
  ValidationError,
} from '../base/errors.ts'
import type { SharedRateBudget } from '../base/shared-state.ts'
import { type Fetch, type HttpSettings, type Outgoing, send } from './http.ts'
import { jsonOf } from './json-body.ts'
import { requestToken } from './oauth.ts'
import { RateBudget } from './rate-budget.ts'
import { TokenCache } from './token-cache.ts'

type Reply = Response | Error | ((init: RequestInit) => Promise<Response>)

/** A fetch that answers from a script, one reply per call, and records the calls. */
function scripted(...replies: Reply[]) {
  const calls: { url: string; init: RequestInit }[] = []
  const fetch: Fetch = async (url, init) => {
    calls.push({ url, init })
    const reply = replies.shift()
    if (reply === undefined) throw new Error('no scripted reply left')
    if (reply instanceof Error) throw reply
    if (typeof reply === 'function') return reply(init)
    return reply
  }
  return { fetch, calls }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

/** A body that sends half of its bytes, then fails as a connection closed early does. */
function truncated(): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('[{"review_id":'))
      controller.error(new TypeError('terminated'))
    },
  })
  return new Response(stream, { status: 200 })
}

/** Never answers until the request is aborted. */
const hang = (init: RequestInit) =>
  new Promise<Response>((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
  })

function settingsWith(fetch: Fetch, overrides: Partial<HttpSettings> = {}): HttpSettings {
  return {
    fetch,
    timeout: 1000,
    totalTimeout: 60_000,
    maxRetries: 2,
    maxRetryWait: 60_000,
    maxResponseBytes: 10 * 1024 * 1024,
    signal: undefined,
    fetchOptions: undefined,
    headers: undefined,
    onRetry: undefined,
    onRateLimit: undefined,
    cache: undefined,
    ...overrides,
  }
}

const out = (overrides: Partial<Outgoing> = {}): Outgoing => ({
  service: { source: 'published' },
  method: 'GET',
  url: 'https://api.test/v1/published/products',
  ...overrides,
})

/** Runs `promise` to its end while fake timers skip every wait. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  let done = false
  outcome.then(() => {
    done = true
  })
  while (!done) await vi.runAllTimersAsync()
  const result = await outcome
  if ('error' in result) throw result.error
  return result.value
}

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('send', () => {
  it('answers a 2xx with its status, headers and whole body', async () => {
    const { fetch } = scripted(json(200, [1, 2], { link: '<x>; rel=next' }))
    const answer = await settle(send(settingsWith(fetch), out()))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('link')).toBe('<x>; rel=next')
    expect(JSON.parse(answer.text)).toEqual([1, 2])
  })

  it('retries a 5xx and answers the success that follows', async () => {
    const { fetch, calls } = scripted(json(500, { error: 'server_error' }), json(200, []))
    const answer = await settle(send(settingsWith(fetch), out()))
    expect(answer.status).toBe(200)
    expect(calls).toHaveLength(2)
  })

  it('throws the last error after maxRetries retries', async () => {
    const { fetch, calls } = scripted(json(502, {}), json(503, {}), json(500, { message: 'down' }))
    const error = await settle(send(settingsWith(fetch), out())).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InternalServerError)
    expect((error as InternalServerError).status).toBe(500)
    expect(calls).toHaveLength(3)
  })

  it('retries no more than the per-request maxRetries', async () => {
    const { fetch, calls } = scripted(json(500, {}), json(500, {}))
    await expect(settle(send(settingsWith(fetch), out(), { maxRetries: 1 }))).rejects.toThrow(
      InternalServerError,
    )
    expect(calls).toHaveLength(2)
  })

  it('retries a 429 after the Retry-After the API asked for', async () => {
    const events: RateLimitEvent[] = []
    const { fetch, calls } = scripted(json(429, {}, { 'retry-after': '2' }), json(200, []))
    await settle(send(settingsWith(fetch, { onRateLimit: (event) => void events.push(event) }), out()))
    expect(calls).toHaveLength(2)
    expect(events).toMatchObject([{ reason: 'refused', delay: 2000, attempt: 1 }])
    expect(events[0]?.error).toBeInstanceOf(RateLimitError)
  })

  it('retries a 503 after the Retry-After the API asked for', async () => {
    const events: RetryEvent[] = []
    const { fetch, calls } = scripted(json(503, {}, { 'retry-after': '2' }), json(200, []))
    await settle(send(settingsWith(fetch, { onRetry: (event) => void events.push(event) }), out()))
    expect(calls).toHaveLength(2)
    expect(events).toMatchObject([{ delay: 2000, attempt: 1 }])
  })

  it('backs off before retrying a 503 whose RateLimit-Reset only says when the quota resets', async () => {
    const events: RetryEvent[] = []
    const quotaLeft = { 'ratelimit-limit': '100', 'ratelimit-remaining': '10', 'ratelimit-reset': '45' }
    const { fetch, calls } = scripted(json(503, {}, quotaLeft), json(503, {}, quotaLeft), json(200, []))
    const onRetry = (event: RetryEvent) => void events.push(event)
    const answer = await settle(send(settingsWith(fetch, { maxRetryWait: 30_000, onRetry }), out()))
    expect(answer.status).toBe(200)
    expect(calls).toHaveLength(3)
    const [first, second] = events.map((event) => event.delay)
    expect(first).toBeGreaterThanOrEqual(250)
    expect(first).toBeLessThanOrEqual(500)
    expect(second).toBeGreaterThanOrEqual(500)
    expect(second).toBeLessThanOrEqual(1000)
  })

  it('gives up at once when Retry-After is longer than maxRetryWait', async () => {
    const { fetch, calls } = scripted(json(429, {}, { 'retry-after': '3600' }), json(200, []))
    const error = await settle(send(settingsWith(fetch, { maxRetryWait: 10_000 }), out())).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).retryAfter).toBe(3600)
    expect(calls).toHaveLength(1)
  })

  it('gives up when onRateLimit answers false', async () => {
    const { fetch, calls } = scripted(json(429, {}, { 'retry-after': '1' }), json(200, []))
    await expect(settle(send(settingsWith(fetch, { onRateLimit: () => false }), out()))).rejects.toThrow(
      RateLimitError,
    )
    expect(calls).toHaveLength(1)
  })

  it('gives up when onRetry answers false', async () => {
    const events: RetryEvent[] = []
    const onRetry = (event: RetryEvent) => {
      events.push(event)
      return false
    }
    const { fetch, calls } = scripted(json(500, {}), json(200, []))
    await expect(settle(send(settingsWith(fetch, { onRetry }), out()))).rejects.toThrow(InternalServerError)
    expect(calls).toHaveLength(1)
    expect(events[0]?.error).toBeInstanceOf(InternalServerError)
  })

  it.each([
    [400, BadRequestError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [406, NotAcceptableError],
    [409, APIError],
    [422, APIError],
  ])('never retries a %i and throws its error class', async (status, ErrorClass) => {
    const { fetch, calls } = scripted(json(status, { error: 'x' }), json(200, []))
    const error = await settle(send(settingsWith(fetch), out())).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ErrorClass)
    expect((error as APIError).status).toBe(status)
    expect(calls).toHaveLength(1)
  })

  it('carries the parsed JSON body, its code and its field on an API error', async () => {
    const body = {
      status: 400,
      error: 'invalid_parameter',
      message: 'limit must be 1 to 200',
      field: 'limit',
    }
    const { fetch } = scripted(json(400, body, { 'x-request-id': 'r1' }))
    const error = (await settle(send(settingsWith(fetch), out())).catch((e: unknown) => e)) as BadRequestError
    expect(error.body).toEqual(body)
    expect(error.code).toBe('invalid_parameter')
    expect(error.field).toBe('limit')
    expect(error.headers.get('x-request-id')).toBe('r1')
    expect(error.message).toContain('limit must be 1 to 200')
  })

  it('keeps a body that is not JSON as raw text', async () => {
    const { fetch } = scripted(new Response('<h1>Bad gateway</h1>', { status: 400 }))
    const error = (await settle(send(settingsWith(fetch), out())).catch((e: unknown) => e)) as BadRequestError
    expect(error.body).toBe('<h1>Bad gateway</h1>')
  })

  it('retries a failed connection, then throws APIConnectionError', async () => {
    const { fetch, calls } = scripted(
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('x'),
    )
    const error = await settle(send(settingsWith(fetch), out())).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(APIConnectionError)
    expect(error).not.toBeInstanceOf(APITimeoutError)
    expect(calls).toHaveLength(3)
  })

  it('retries a body cut short', async () => {
    const { fetch, calls } = scripted(truncated(), json(200, [{ review_id: 'a' }]))
    const answer = await settle(send(settingsWith(fetch), out()))
    expect(JSON.parse(answer.text)).toEqual([{ review_id: 'a' }])
    expect(calls).toHaveLength(2)
  })

  it('throws APITimeoutError when no answer comes within the timeout', async () => {
    const { fetch, calls } = scripted(hang, hang)
    const error = await settle(send(settingsWith(fetch, { maxRetries: 1 }), out())).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(APITimeoutError)
    expect(calls).toHaveLength(2)
  })

  it('retries after a timeout and answers the success that follows', async () => {
    const { fetch } = scripted(hang, json(200, ['ok']))
    const answer = await settle(send(settingsWith(fetch), out(), { timeout: 50 }))
    expect(JSON.parse(answer.text)).toEqual(['ok'])
  })

  it('throws APIUserAbortError, without retrying, when the caller aborts', async () => {
    const controller = new AbortController()
    const { fetch, calls } = scripted(hang, json(200, []))
    const pending = send(settingsWith(fetch), out(), { signal: controller.signal })
    controller.abort()
    await expect(settle(pending)).rejects.toThrow(APIUserAbortError)
    expect(calls.length).toBeLessThanOrEqual(1)
  })

  it('throws APIUserAbortError when the client signal aborts during a retry wait', async () => {
    const controller = new AbortController()
    const { fetch, calls } = scripted(json(500, {}), json(200, []))
    const onRetry = () => {
      controller.abort()
      return true
    }
    await expect(
      settle(send(settingsWith(fetch, { signal: controller.signal, onRetry }), out())),
    ).rejects.toThrow(APIUserAbortError)
    expect(calls).toHaveLength(1)
  })

  it('sends the client headers, the per-request headers and the fetch options', async () => {
    const { fetch, calls } = scripted(json(200, []))
    const settings = settingsWith(fetch, {
      headers: { 'x-client': 'a', 'x-both': 'client' },
      fetchOptions: { cache: 'force-cache', next: { revalidate: 60 } },
    })
    await settle(
      send(settings, out(), {
        headers: { 'x-both': 'request' },
        fetchOptions: { next: { tags: ['reviews'] } },
      }),
    )
    const init = calls[0]?.init as RequestInit & { next?: unknown }
    expect(init.headers).toMatchObject({ 'x-client': 'a', 'x-both': 'request', accept: 'application/json' })
    expect(init.cache).toBe('force-cache')
    expect(init.next).toEqual({ tags: ['reviews'] })
  })
})

describe('send with a token', () => {
  function tokens() {
    let issued = 0
    return new TokenCache(async () => ({ value: `t${++issued}`, issuedAt: Date.now(), expiresAt: undefined }))
  }

  it('sends the token as a bearer token', async () => {
    const { fetch, calls } = scripted(json(200, []))
    await settle(send(settingsWith(fetch), out({ service: { source: 'published', token: tokens() } })))
    expect(calls[0]?.init.headers).toMatchObject({ authorization: 'Bearer t1' })
  })

  it('drops the token after a 401 and retries once with a new one', async () => {
    const { fetch, calls } = scripted(json(401, { error: 'unauthorized' }), json(200, []))
    await settle(send(settingsWith(fetch), out({ service: { source: 'published', token: tokens() } })))
    expect(calls.map((call) => (call.init.headers as Record<string, string>).authorization)).toEqual([
      'Bearer t1',
      'Bearer t2',
    ])
  })

  it('throws AuthenticationError when the new token is refused too', async () => {
    const { fetch, calls } = scripted(json(401, {}), json(401, {}), json(200, []))
    const error = await settle(
      send(settingsWith(fetch), out({ service: { source: 'published', token: tokens() } })),
    )
      .then(() => undefined)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(calls).toHaveLength(2)
  })
})

describe('send with a rate budget', () => {
  it('waits before sending once the headers say the budget is spent', async () => {
    const events: RateLimitEvent[] = []
    const budget = new RateBudget()
    const { fetch, calls } = scripted(
      json(200, [], { 'ratelimit-remaining': '0', 'ratelimit-reset': '1' }),
      json(200, []),
    )
    const settings = settingsWith(fetch, { onRateLimit: (event) => void events.push(event) })
    const service = { source: 'published' as const, budget }
    await settle(send(settings, out({ service })))
    await settle(send(settings, out({ service })))
    expect(calls).toHaveLength(2)
    expect(events).toHaveLength(1)
    expect(events[0]?.reason).toBe('budget')
    expect(events[0]?.delay).toBeGreaterThan(0)
  })

  it('throws RateLimitError without sending when onRateLimit gives up on a spent budget', async () => {
    const budget = new RateBudget()
    const { fetch, calls } = scripted(
      json(200, [], { 'ratelimit-remaining': '0', 'ratelimit-reset': '30' }),
      json(200, []),
    )
    const settings = settingsWith(fetch, { onRateLimit: () => false })
    const service = { source: 'published' as const, budget }
    await settle(send(settings, out({ service })))
    const error = await settle(send(settings, out({ service }))).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(29)
    expect(calls).toHaveLength(1)
  })
})

describe('send with a rate budget, visitor-driven requests', () => {
  const limited = { 'x-ratelimit-limit-second': '2' }

  it('throws RateShareError without sending once visitor-driven requests took their share', async () => {
    const budget = new RateBudget()
    const { fetch, calls } = scripted(json(200, [], limited), json(200, [], limited), json(200, []))
    const service = { source: 'published' as const, budget }
    const settings = settingsWith(fetch)
    // Half of 2 a second: one visitor-driven request in the window.
    await settle(send(settings, out({ service })))
    await settle(send(settings, out({ service }), { visitor: true }))
    const error = await settle(send(settings, out({ service }), { visitor: true })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateShareError)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateShareError).retryAfter).toBeGreaterThan(0)
    expect(calls).toHaveLength(2)
  })

  it('sends a visitor-driven request that fits in a larger share', async () => {
    const budget = new RateBudget()
    const { fetch, calls } = scripted(json(200, [], limited), json(200, [], limited), json(200, []))
    const service = { source: 'published' as const, budget }
    const settings = settingsWith(fetch)
    await settle(send(settings, out({ service })))
    await settle(send(settings, out({ service }), { visitor: true, visitorShare: 1 }))
    await settle(send(settings, out({ service }), { visitor: true, visitorShare: 1 }))
    expect(calls).toHaveLength(3)
  })

  it('refuses a visitorShare outside (0, 1] with a ValidationError', async () => {
    const { fetch, calls } = scripted(json(200, []))
    const service = { source: 'published' as const, budget: new RateBudget() }
    const error = await settle(
      send(settingsWith(fetch), out({ service }), { visitor: true, visitorShare: 0 }),
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect(calls).toHaveLength(0)
  })
})

describe('send with a rate budget, answers replayed by a cache', () => {
  it('learns nothing from an answer a cache hands back with its old headers, and tells the shared budget nothing', async () => {
    const events: RateLimitEvent[] = []
    const budget = new RateBudget()
    const settled: number[] = []
    const shared: SharedRateBudget = {
      reserve: async () => 0,
      settle: async (_key, answer) => void settled.push(answer.status),
    }
    const now = new Date().toUTCString()
    const spent = { date: now, 'ratelimit-remaining': '0', 'ratelimit-reset': '30' }
    // A fresh answer that leaves budget, then the same answer twice as a cache replays it (same Date
    // and headers, the window it tells spent).
    const { fetch, calls } = scripted(
      json(200, [], { date: now, 'ratelimit-remaining': '5', 'ratelimit-reset': '30' }),
      json(200, [], spent),
      json(200, [], spent),
      json(200, []),
    )
    const settings = settingsWith(fetch, { onRateLimit: (event) => void events.push(event) })
    const service = { source: 'published' as const, budget, sharedBudget: { budget: shared, key: 'k' } }
    for (let i = 0; i < 4; i++) await settle(send(settings, out({ service })))
    // The second answer was the API's (it spent the window): the third request waited for it...
    expect(events.map((event) => event.reason)).toEqual(['budget'])
    expect(calls).toHaveLength(4)
    // ...and the third answer, the same headers again, was a replay: no wait before the fourth.
    expect(settled).toEqual([200, 200, 0, 200])
  })
})

describe('send with a shared rate budget', () => {
  /** A shared budget that answers the waits it is given, then 0, and records what it is told. */
  function sharedBudget(...waits: number[]) {
    const reserved: string[] = []
    const settled: { key: string; status: number; remaining: string | null }[] = []
    const budget: SharedRateBudget = {
      reserve: async (key) => {
        reserved.push(key)
        return waits.shift() ?? 0
      },
      settle: async (key, answer) => {
        settled.push({ key, status: answer.status, remaining: answer.headers.get('ratelimit-remaining') })
      },
    }
    return { budget, reserved, settled }
  }

  it('waits as long as the shared budget says before sending', async () => {
    const events: RateLimitEvent[] = []
    const shared = sharedBudget(700)
    const { fetch, calls } = scripted(json(200, []))
    const settings = settingsWith(fetch, { onRateLimit: (event) => void events.push(event) })
    const service = {
      source: 'published' as const,
      sharedBudget: { budget: shared.budget, key: 'published:id' },
    }
    await settle(send(settings, out({ service })))
    expect(shared.reserved).toEqual(['published:id', 'published:id'])
    expect(events.map((event) => [event.reason, event.delay])).toEqual([['budget', 700]])
    expect(calls).toHaveLength(1)
  })

  it('tells the shared budget the status and headers of each answer', async () => {
    const shared = sharedBudget()
    const { fetch } = scripted(json(200, [], { 'ratelimit-remaining': '7' }))
    const service = { source: 'published' as const, sharedBudget: { budget: shared.budget, key: 'k' } }
    await settle(send(settingsWith(fetch), out({ service })))
    expect(shared.settled).toEqual([{ key: 'k', status: 200, remaining: '7' }])
  })

  it('sends anyway when the shared budget fails, leaving the decision to the own budget of the client', async () => {
    const failing: SharedRateBudget = {
      reserve: () => Promise.reject(new Error('redis is down')),
      settle: () => Promise.reject(new Error('redis is down')),
    }
    const { fetch, calls } = scripted(json(200, []))
    const service = {
      source: 'published' as const,
      budget: new RateBudget(),
      sharedBudget: { budget: failing, key: 'k' },
    }
    await settle(send(settingsWith(fetch), out({ service })))
    expect(calls).toHaveLength(1)
  })

  it('gives up with a RateLimitError when the shared budget asks for a wait beyond maxRetryWait', async () => {
    const shared = sharedBudget(120_000)
    const { fetch, calls } = scripted(json(200, []))
    const service = { source: 'published' as const, sharedBudget: { budget: shared.budget, key: 'k' } }
    const error = await settle(send(settingsWith(fetch), out({ service }))).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect(calls).toHaveLength(0)
  })

  it('settles every request it let go once, with status 0 for an attempt that got no answer', async () => {
    const shared = sharedBudget()
    const { fetch } = scripted(new TypeError('connection reset'), json(200, []))
    const service = { source: 'published' as const, sharedBudget: { budget: shared.budget, key: 'k' } }
    await settle(send(settingsWith(fetch), out({ service })))
    expect(shared.reserved).toHaveLength(2)
    expect(shared.settled.map((entry) => entry.status)).toEqual([0, 200])
  })

  it('settles with status 0 a request the own budget of the client then stopped', async () => {
    const shared = sharedBudget()
    const budget = new RateBudget()
    budget.settle(budget.take(), { status: 429, headers: new Headers({ 'retry-after': '120' }) })
    const { fetch, calls } = scripted(json(200, []))
    const service = {
      source: 'published' as const,
      budget,
      sharedBudget: { budget: shared.budget, key: 'k' },
    }
    await settle(send(settingsWith(fetch), out({ service }))).catch(() => {})
    expect(calls).toHaveLength(0)
    expect(shared.settled.map((entry) => entry.status)).toEqual([0])
  })
})

describe('requestToken', () => {
  const request = {
    service: { source: 'published-token' as const },
    url: 'https://auth.test/token',
    clientId: 'id',
    clientSecret: 'sécret',
    form: { audience: 'verified-reviews' },
  }

  it('posts the client credentials flow with Basic credentials', async () => {
    const { fetch, calls } = scripted(
      json(200, { access_token: 'abc', expires_in: 3600, token_type: 'Bearer' }),
    )
    const token = await settle(requestToken(settingsWith(fetch), request))
    expect(token.value).toBe('abc')
    expect(token.expiresAt).toBe(token.issuedAt + 3_600_000)
    const init = calls[0]?.init as RequestInit
    const headers = init.headers as Record<string, string>
    const decoded = new TextDecoder().decode(
      Uint8Array.from(atob((headers.authorization ?? '').replace('Basic ', '')), (char) =>
        char.charCodeAt(0),
      ),
    )
    expect(decoded).toBe('id:s%C3%A9cret')
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(init.body as string))).toEqual({
      grant_type: 'client_credentials',
      audience: 'verified-reviews',
    })
  })

  it('form-encodes the id and the secret before joining them, as RFC 6749 section 2.3.1 says', async () => {
    const { fetch, calls } = scripted(json(200, { access_token: 'abc', expires_in: 3600 }))
    await settle(requestToken(settingsWith(fetch), { ...request, clientId: 'a:b c', clientSecret: 'p+s%:é' }))
    const init = calls[0]?.init as RequestInit
    const headers = init.headers as Record<string, string>
    expect(atob((headers.authorization ?? '').replace('Basic ', ''))).toBe('a%3Ab+c:p%2Bs%25%3A%C3%A9')
  })

  it('throws AuthenticationError from the token endpoint for bad credentials', async () => {
    const { fetch } = scripted(json(401, { error: 'invalid_client', error_description: 'bad secret' }))
    const error = (await settle(requestToken(settingsWith(fetch), request)).catch(
      (e: unknown) => e,
    )) as AuthenticationError
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.source).toBe('published-token')
    expect(error.code).toBe('invalid_client')
  })

  it('retries a token server that is down, then throws its server error', async () => {
    const { fetch, calls } = scripted(json(503, {}), json(503, {}), json(503, {}))
    const error = (await settle(requestToken(settingsWith(fetch), request)).catch(
      (e: unknown) => e,
    )) as APIError
    expect(error).toBeInstanceOf(InternalServerError)
    expect(error.source).toBe('published-token')
    expect(calls).toHaveLength(3)
  })

  it('throws when the answer has no access_token', async () => {
    const { fetch } = scripted(json(200, { token_type: 'Bearer' }))
    await expect(settle(requestToken(settingsWith(fetch), request))).rejects.toThrow(
      'without an access_token',
    )
  })
})

describe('send within totalTimeout', () => {
  it('fails with an APITimeoutError naming totalTimeout and the attempts when a retry wait would pass it', async () => {
    const { fetch, calls } = scripted(
      json(503, {}, { 'retry-after': '20' }),
      json(503, {}, { 'retry-after': '20' }),
      json(200, []),
    )
    const error = (await settle(send(settingsWith(fetch, { totalTimeout: 30_000 }), out())).catch(
      (e: unknown) => e,
    )) as APITimeoutError
    expect(error).toBeInstanceOf(APITimeoutError)
    expect(error).toMatchObject({ limit: 'totalTimeout', timeout: 30_000, attempts: 2 })
    expect(error.message).toContain('totalTimeout of 30000 ms (2 attempts made')
    expect(error.cause).toBeInstanceOf(InternalServerError)
    expect(calls).toHaveLength(2)
  })

  it('never starts a wait that would end past the deadline', async () => {
    const { fetch } = scripted(json(503, {}, { 'retry-after': '20' }), json(503, {}, { 'retry-after': '20' }))
    const start = Date.now()
    await settle(send(settingsWith(fetch, { totalTimeout: 30_000 }), out())).catch(() => undefined)
    expect(Date.now() - start).toBeLessThanOrEqual(30_000)
  })

  it('stops an attempt at the deadline when its own timeout is longer', async () => {
    const { fetch, calls } = scripted(hang, hang, hang)
    const start = Date.now()
    const error = (await settle(
      send(settingsWith(fetch, { timeout: 30_000, totalTimeout: 5_000 }), out()),
    ).catch((e: unknown) => e)) as APITimeoutError
    expect(error).toMatchObject({ name: 'APITimeoutError', limit: 'totalTimeout', attempts: 1 })
    expect(calls).toHaveLength(1)
    expect(Date.now() - start).toBe(5_000)
  })

  it('counts the wait for a token against the deadline', async () => {
    const never = new TokenCache(() => new Promise(() => undefined))
    const { fetch, calls } = scripted(json(200, []))
    const error = (await settle(
      send(
        settingsWith(fetch, { totalTimeout: 2_000 }),
        out({ service: { source: 'published', token: never } }),
      ),
    ).catch((e: unknown) => e)) as APITimeoutError
    expect(error).toMatchObject({ name: 'APITimeoutError', limit: 'totalTimeout', attempts: 0 })
    expect(calls).toHaveLength(0)
  })

  it('does not wait for a rate budget that resets after the deadline', async () => {
    const budget = new RateBudget()
    const { fetch, calls } = scripted(
      json(200, [], { 'ratelimit-remaining': '0', 'ratelimit-reset': '20' }),
      json(200, []),
    )
    const settings = settingsWith(fetch, { totalTimeout: 10_000 })
    const service = { source: 'published' as const, budget }
    await settle(send(settings, out({ service })))
    const error = (await settle(send(settings, out({ service }))).catch((e: unknown) => e)) as APITimeoutError
    expect(error).toMatchObject({ name: 'APITimeoutError', limit: 'totalTimeout', attempts: 0 })
    expect(error.cause).toBeInstanceOf(RateLimitError)
    expect(calls).toHaveLength(1)
  })

  it('takes the per-request totalTimeout over the client one', async () => {
    const { fetch } = scripted(hang)
    const start = Date.now()
    const error = await settle(
      send(settingsWith(fetch, { timeout: 30_000, totalTimeout: 60_000 }), out(), { totalTimeout: 1_500 }),
    ).catch((e: unknown) => e)
    expect(error).toMatchObject({ limit: 'totalTimeout', timeout: 1_500 })
    expect(Date.now() - start).toBe(1_500)
  })

  it('refuses a totalTimeout that is not a positive number, naming it', async () => {
    const { fetch, calls } = scripted(json(200, []))
    const error = await settle(send(settingsWith(fetch), out(), { totalTimeout: -1 })).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe('totalTimeout')
    expect(calls).toHaveLength(0)
  })

  it('still retries an attempt that times out well before the deadline', async () => {
    const { fetch } = scripted(hang, json(200, ['ok']))
    const answer = await settle(send(settingsWith(fetch, { timeout: 1_000, totalTimeout: 10_000 }), out()))
    expect(JSON.parse(answer.text)).toEqual(['ok'])
  })
})

/** An answer whose body arrives in `chunks` chunks of `size` bytes; `pulled` counts the bytes handed out. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}) {
  const counter = { pulled: 0 }
  let left = chunks
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left === 0) return controller.close()
      left--
      counter.pulled += size
      controller.enqueue(new Uint8Array(size).fill(0x61))
    },
  })
  return { response: new Response(stream, { status: 200, headers }), counter }
}

describe('send with maxResponseBytes', () => {
  const MiB = 1024 * 1024

  it('stops reading a body larger than the limit and throws ResponseTooLargeError naming it', async () => {
    const { response, counter } = streamed(64, 64 * 1024) // 4 MiB
    const { fetch, calls } = scripted(response, json(200, []))
    const error = (await settle(send(settingsWith(fetch, { maxResponseBytes: MiB }), out())).catch(
      (e: unknown) => e,
    )) as ResponseTooLargeError
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error.maxBytes).toBe(MiB)
    expect(error.message).toContain(`maxResponseBytes (${MiB} bytes)`)
    expect(error.message).toContain('https://api.test/v1/published/products')
    expect(counter.pulled).toBeLessThan(2 * MiB)
    expect(calls).toHaveLength(1)
  })

  it('refuses at once an answer whose Content-Length is above the limit', async () => {
    const { response, counter } = streamed(4, 1024, { 'content-length': String(4 * 1024) })
    const { fetch } = scripted(response)
    const error = await settle(send(settingsWith(fetch, { maxResponseBytes: 1024 }), out())).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect(counter.pulled).toBeLessThanOrEqual(1024)
  })

  it('reads a body of exactly the limit', async () => {
    const { response } = streamed(4, 256)
    const { fetch } = scripted(response)
    const answer = await settle(send(settingsWith(fetch, { maxResponseBytes: 1024 }), out()))
    expect(answer.text).toBe('a'.repeat(1024))
  })

  it('decodes a character whose bytes are split between two chunks', async () => {
    const bytes = new TextEncoder().encode('"Pull été"')
    const split = bytes.indexOf(0xc3) + 1
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split))
        controller.enqueue(bytes.slice(split))
        controller.close()
      },
    })
    const { fetch } = scripted(new Response(stream, { status: 200 }))
    const answer = await settle(send(settingsWith(fetch), out()))
    expect(JSON.parse(answer.text)).toBe('Pull été')
  })
})

describe('errors and events hold no credential', () => {
  const GENESIS_TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f'
  const ACCESS_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.access-token-value.sig'
  const CLIENT_SECRET = 'client-secret-value-1234'
  const secrets = [GENESIS_TOKEN, ACCESS_TOKEN, CLIENT_SECRET]
  const url = `https://api.test/genesis/product?idWebsite=w-1&token=${GENESIS_TOKEN}`

  /** Every way an error or event is shown: its message, stack, JSON, util.inspect, String(). */
  function shown(value: unknown): string {
    const error = value instanceof Error ? value : undefined
    return [
      String(value),
      error?.message ?? '',
      error?.stack ?? '',
      JSON.stringify(value),
      inspect(value, { depth: 10, showHidden: true }),
    ].join('\n')
  }

  function expectNoSecret(value: unknown) {
    const text = shown(value)
    for (const secret of secrets) expect(text).not.toContain(secret)
    expect(text).not.toContain(encodeURIComponent(ACCESS_TOKEN))
  }

  function secretOut(): Outgoing {
    const token = new TokenCache(async () => ({
      value: ACCESS_TOKEN,
      issuedAt: Date.now(),
      expiresAt: undefined,
    }))
    return out({
      service: { source: 'genesis', token },
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_secret=${CLIENT_SECRET}`,
    })
  }

  /** An error answer that echoes every credential back, as a careless upstream might. */
  const echo = (status: number, headers: Record<string, string> = {}) =>
    json(
      status,
      {
        message: `bad token=${GENESIS_TOKEN} for Bearer ${ACCESS_TOKEN}`,
        access_token: ACCESS_TOKEN,
        client_secret: CLIENT_SECRET,
        url,
      },
      { 'set-cookie': `session=${ACCESS_TOKEN}`, ...headers },
    )

  it.each([400, 403, 404, 406, 409, 500])('keeps them out of the error of a %i answer', async (status) => {
    const { fetch } = scripted(echo(status), echo(status), echo(status))
    const error = await settle(send(settingsWith(fetch, { maxRetries: 0 }), secretOut())).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(APIError)
    expect((error as APIError).url).toBe(`https://api.test/genesis/product?idWebsite=w-1&token=[REDACTED]`)
    expectNoSecret(error)
  })

  it('keeps them out of an AuthenticationError after two 401s', async () => {
    const { fetch } = scripted(echo(401), echo(401))
    const error = await settle(send(settingsWith(fetch), secretOut())).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthenticationError)
    expectNoSecret(error)
  })

  it('keeps them out of a RateLimitError and its rate-limit event', async () => {
    const events: RateLimitEvent[] = []
    const { fetch } = scripted(echo(429, { 'retry-after': '1' }), echo(429, { 'retry-after': '1' }))
    const settings = settingsWith(fetch, { maxRetries: 1, onRateLimit: (event) => void events.push(event) })
    const error = await settle(send(settings, secretOut())).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expectNoSecret(error)
    expect(events).toHaveLength(1)
    expect(events[0]?.url).toBe('https://api.test/genesis/product?idWebsite=w-1&token=[REDACTED]')
    expectNoSecret(events[0])
  })

  it('keeps them out of the RateLimitError and event of a spent rate budget', async () => {
    const events: RateLimitEvent[] = []
    const budget = new RateBudget()
    const { fetch } = scripted(json(200, [], { 'ratelimit-remaining': '0', 'ratelimit-reset': '5' }))
    const settings = settingsWith(fetch, {
      onRateLimit: (event) => {
        events.push(event)
        return false
      },
    })
    const service = { source: 'genesis' as const, budget }
    await settle(send(settings, { ...secretOut(), service }))
    const error = await settle(send(settings, { ...secretOut(), service })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expectNoSecret(error)
    expect(events).toHaveLength(1)
    expectNoSecret(events[0])
  })

  it('keeps them out of retry events and their errors', async () => {
    const events: RetryEvent[] = []
    const { fetch } = scripted(echo(503), json(200, []))
    await settle(send(settingsWith(fetch, { onRetry: (event) => void events.push(event) }), secretOut()))
    expect(events).toHaveLength(1)
    expectNoSecret(events[0])
  })

  it('keeps them out of an APIConnectionError whose cause holds the address', async () => {
    const failure = new TypeError(`Failed to parse URL from ${url}`, {
      cause: new Error(`connect to ${url} with Bearer ${ACCESS_TOKEN}`),
    })
    const { fetch } = scripted(failure)
    const error = await settle(send(settingsWith(fetch, { maxRetries: 0 }), secretOut())).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(APIConnectionError)
    expect((error as APIConnectionError).cause).toBeInstanceOf(TypeError)
    expectNoSecret(error)
  })

  it('keeps them out of the APITimeoutError of one attempt', async () => {
    const { fetch } = scripted(hang)
    const error = await settle(send(settingsWith(fetch, { maxRetries: 0 }), secretOut())).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ name: 'APITimeoutError', limit: 'timeout' })
    expectNoSecret(error)
  })

  it('keeps them out of the APITimeoutError of the deadline', async () => {
    const { fetch } = scripted(echo(503, { 'retry-after': '20' }))
    const error = await settle(send(settingsWith(fetch, { totalTimeout: 10_000 }), secretOut())).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ name: 'APITimeoutError', limit: 'totalTimeout' })
    expectNoSecret(error)
  })

  it('keeps them out of a ResponseTooLargeError', async () => {
    const { response } = streamed(8, 1024)
    const { fetch } = scripted(response)
    const error = await settle(send(settingsWith(fetch, { maxResponseBytes: 1024 }), secretOut())).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect((error as ResponseTooLargeError).message).toContain('token=[REDACTED]')
    expectNoSecret(error)
  })

  it('keeps them out of an InvalidResponseError about an answer', async () => {
    const { fetch } = scripted(
      new Response(`not json: token=${GENESIS_TOKEN} Bearer ${ACCESS_TOKEN}`, { status: 200 }),
    )
    const answer = await settle(send(settingsWith(fetch), secretOut()))
    expect(answer.url).not.toContain(GENESIS_TOKEN)
    const error = (() => {
      try {
        jsonOf(answer, 'genesis')
      } catch (thrown) {
        return thrown
      }
    })()
    expect(error).toBeInstanceOf(InvalidResponseError)
    expectNoSecret(error)
  })

  it('keeps the client secret and the issued token out of the errors of the token endpoint', async () => {
    const { fetch } = scripted(new Response(`access_token=${ACCESS_TOKEN}&oops`, { status: 200 }))
    const error = await settle(
      requestToken(settingsWith(fetch), {
        service: { source: 'published-token' },
        url: 'https://auth.test/token',
        clientId: 'id',
        clientSecret: CLIENT_SECRET,
        form: { audience: 'verified-reviews' },
      }),
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expectNoSecret(error)
  })
})
