import { describe, expect, it } from 'vitest'
import {
  backoffDelay,
  INITIAL_RETRY_DELAY_MS,
  MAX_RETRY_DELAY_MS,
  parseResetSeconds,
  parseRetryAfter,
  requestedDelay,
  retryDelay,
} from './retry-timing.ts'

const now = Date.UTC(2026, 0, 15, 12, 0, 0)

describe('parseRetryAfter', () => {
  it('reads delay seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
  })

  it('reads fractional delay seconds', () => {
    expect(parseRetryAfter('1.5', now)).toBe(1500)
  })

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Thu, 15 Jan 2026 12:00:42 GMT', now)).toBe(42_000)
  })

  it('reads an HTTP date in the past as no wait', () => {
    expect(parseRetryAfter('Thu, 15 Jan 2026 11:00:00 GMT', now)).toBe(0)
  })

  it('ignores absent, negative and unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('2026-01-15T12:00:42Z', now)).toBeUndefined()
  })
})

describe('parseResetSeconds', () => {
  it('reads small values as seconds to wait', () => {
    expect(parseResetSeconds('1', now)).toBe(1000)
    expect(parseResetSeconds('60', now)).toBe(60_000)
  })

  it('reads large values as epoch seconds', () => {
    expect(parseResetSeconds(String(now / 1000 + 30), now)).toBe(30_000)
  })

  it('ignores unreadable values', () => {
    expect(parseResetSeconds('later', now)).toBeUndefined()
    expect(parseResetSeconds(null, now)).toBeUndefined()
  })
})

describe('requestedDelay', () => {
  it('prefers Retry-After over RateLimit-Reset for a 429', () => {
    const headers = new Headers({ 'retry-after': '2', 'ratelimit-reset': '9' })
    expect(requestedDelay(429, headers, now)).toBe(2000)
  })

  it('falls back to RateLimit-Reset, then X-RateLimit-Reset, for a 429', () => {
    expect(requestedDelay(429, new Headers({ 'ratelimit-reset': '4' }), now)).toBe(4000)
    expect(requestedDelay(429, new Headers({ 'x-ratelimit-reset': '5' }), now)).toBe(5000)
  })

  it('falls back when the Retry-After of a 429 is unreadable', () => {
    expect(requestedDelay(429, new Headers({ 'retry-after': 'x', 'ratelimit-reset': '4' }), now)).toBe(4000)
  })

  it('reads the Retry-After of a 503', () => {
    expect(requestedDelay(503, new Headers({ 'retry-after': '3' }), now)).toBe(3000)
  })

  it('does not take the RateLimit-Reset of a 503 for a wait, since it only says when the quota resets', () => {
    const headers = new Headers({ 'ratelimit-remaining': '10', 'ratelimit-reset': '45' })
    expect(requestedDelay(503, headers, now)).toBeUndefined()
    expect(requestedDelay(503, new Headers({ 'x-ratelimit-reset': '45' }), now)).toBeUndefined()
  })

  it('asks no wait of a 500, even with a Retry-After', () => {
    expect(requestedDelay(500, new Headers({ 'retry-after': '3' }), now)).toBeUndefined()
  })

  it('is undefined when no header says', () => {
    expect(requestedDelay(429, new Headers(), now)).toBeUndefined()
  })
})

describe('retryDelay', () => {
  it('waits the Retry-After of a 503', () => {
    expect(retryDelay(0, { status: 503, headers: new Headers({ 'retry-after': '3' }) }, now)).toBe(3000)
  })

  it('backs off after a 503 whose only timing header is RateLimit-Reset', () => {
    const failure = {
      status: 503,
      headers: new Headers({ 'ratelimit-remaining': '10', 'ratelimit-reset': '45' }),
    }
    expect(retryDelay(1, failure, now, () => 1)).toBe(INITIAL_RETRY_DELAY_MS * 2)
  })

  it('waits the RateLimit-Reset of a 429 without Retry-After', () => {
    const failure = { status: 429, headers: new Headers({ 'ratelimit-reset': '7' }) }
    expect(retryDelay(0, failure, now)).toBe(7000)
  })

  it('backs off after a failure that got no answer', () => {
    expect(retryDelay(2, undefined, now, () => 0)).toBe(INITIAL_RETRY_DELAY_MS * 2)
  })
})

describe('backoffDelay', () => {
  it('doubles from the initial delay', () => {
    expect(backoffDelay(0, () => 1)).toBe(INITIAL_RETRY_DELAY_MS)
    expect(backoffDelay(1, () => 1)).toBe(INITIAL_RETRY_DELAY_MS * 2)
    expect(backoffDelay(2, () => 1)).toBe(INITIAL_RETRY_DELAY_MS * 4)
  })

  it('never exceeds the cap', () => {
    expect(backoffDelay(30, () => 1)).toBe(MAX_RETRY_DELAY_MS)
  })

  it('jitters between half and all of the ceiling', () => {
    expect(backoffDelay(2, () => 0)).toBe(INITIAL_RETRY_DELAY_MS * 2)
    const delay = backoffDelay(2)
    expect(delay).toBeGreaterThanOrEqual(INITIAL_RETRY_DELAY_MS * 2)
    expect(delay).toBeLessThanOrEqual(INITIAL_RETRY_DELAY_MS * 4)
  })
})
