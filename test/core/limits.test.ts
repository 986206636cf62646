import {
  APITimeoutError,
  createClient,
  RateLimitError,
  ResponseTooLargeError,
  ValidationError,
} from '@verified-reviews/core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const WEBSITE = '8a6a3b0e-0c3f-4a6e-9d55-2c9b1f0e7a11'
const LEGACY = 'https://legacy.test/v1'

/** A legacy client (no token) whose fetch answers with `reply`, counting the calls. */
function clientWith(
  reply: (init: RequestInit) => Promise<Response>,
  options: Parameters<typeof createClient>[0] = {},
) {
  const calls: string[] = []
  const vr = createClient({
    legacyUrl: LEGACY,
    websiteId: WEBSITE,
    fetch: (url, init) => {
      calls.push(url)
      return reply(init)
    },
    ...options,
  })
  return { vr, calls }
}

/** Never answers until the request is aborted. */
const hang = (init: RequestInit) =>
  new Promise<Response>((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
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

describe('the default limits of a client', () => {
  it('gives a request 60 s in all: two 30 s attempts, not three', async () => {
    const { vr, calls } = clientWith(hang)
    const start = Date.now()
    const error = (await settle(vr.legacy.products.ratings.get({ ref: ['A'] })).catch(
      (e: unknown) => e,
    )) as APITimeoutError
    expect(error).toBeInstanceOf(APITimeoutError)
    expect(error).toMatchObject({ limit: 'totalTimeout', timeout: 60_000, attempts: 2 })
    expect(calls).toHaveLength(2)
    expect(Date.now() - start).toBe(60_000)
  })

  it('does not wait out a Retry-After above 30 s: it throws the RateLimitError at once', async () => {
    const { vr, calls } = clientWith(
      async () => new Response('{}', { status: 429, headers: { 'retry-after': '45' } }),
    )
    const start = Date.now()
    const error = await settle(vr.legacy.products.ratings.get({ ref: ['A'] })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).retryAfter).toBe(45)
    expect(calls).toHaveLength(1)
    expect(Date.now() - start).toBe(0)
  })

  it('waits out a Retry-After of 30 s', async () => {
    let count = 0
    const { vr, calls } = clientWith(async () =>
      ++count === 1
        ? new Response('{}', { status: 429, headers: { 'retry-after': '30' } })
        : Response.json({ data: {} }),
    )
    await settle(vr.legacy.products.ratings.get({ ref: ['A'] }))
    expect(calls).toHaveLength(2)
  })

  it('reads no more than 10 MiB of a body', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20)
    let pulled = 0
    const { vr } = clientWith(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled >= 12) return controller.close()
              pulled++
              controller.enqueue(chunk)
            },
          }),
        ),
    )
    const error = await settle(vr.legacy.products.ratings.get({ ref: ['A'] })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseTooLargeError)
    expect((error as ResponseTooLargeError).maxBytes).toBe(10 * 1024 * 1024)
    expect((error as Error).message).toContain('maxResponseBytes (10485760 bytes)')
    expect((error as Error).message).toContain(`${LEGACY}/websites/${WEBSITE}/products/ratings`)
  })
})

describe('the limit options', () => {
  it.each([
    ['totalTimeout', 0],
    ['totalTimeout', Number.NaN],
    ['maxResponseBytes', 0],
    ['maxResponseBytes', 1.5],
  ] as const)('refuses %s: %s, naming it', (field, value) => {
    const error = (() => {
      try {
        createClient({ [field]: value })
      } catch (thrown) {
        return thrown
      }
    })()
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).field).toBe(field)
  })

  it('takes a per-request totalTimeout over the client one', async () => {
    const { vr, calls } = clientWith(hang, { totalTimeout: 60_000 })
    const error = await settle(vr.legacy.products.ratings.get({ ref: ['A'] }, { totalTimeout: 2_000 })).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ name: 'APITimeoutError', limit: 'totalTimeout', timeout: 2_000 })
    expect(calls).toHaveLength(1)
  })

  it('turns the deadline off with Infinity', async () => {
    const { vr, calls } = clientWith(hang, { totalTimeout: Number.POSITIVE_INFINITY, timeout: 1_000 })
    const error = await settle(vr.legacy.products.ratings.get({ ref: ['A'] })).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'APITimeoutError', limit: 'timeout' })
    expect(calls).toHaveLength(3)
  })
})
