import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RateLimitEvent, RetryEvent } from '../client.ts'
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotAcceptableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../errors.ts'
import { type Fetch, type HttpSettings, type Outgoing, send } from './http.ts'
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
    maxRetries: 2,
    maxRetryWait: 60_000,
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
    expect(decoded).toBe('id:sécret')
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(init.body as string))).toEqual({
      grant_type: 'client_credentials',
      audience: 'verified-reviews',
    })
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
