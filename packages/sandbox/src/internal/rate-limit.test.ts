import { describe, expect, it } from 'vitest'
import { RateLimiter } from './rate-limit.ts'

function clock(start: number) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

describe('RateLimiter', () => {
  it('lets `limit` requests through in one second and refuses the next', () => {
    const time = clock(10_000)
    const limiter = new RateLimiter(3, time.now)
    expect([1, 2, 3].map(() => limiter.hit('a').allowed)).toEqual([true, true, true])
    expect(limiter.hit('a').allowed).toBe(false)
  })

  it('opens a fresh window in the next second', () => {
    const time = clock(10_000)
    const limiter = new RateLimiter(1, time.now)
    limiter.hit('a')
    time.advance(1000)
    expect(limiter.hit('a').allowed).toBe(true)
  })

  it('counts each client on its own', () => {
    const limiter = new RateLimiter(1, clock(10_000).now)
    limiter.hit('a')
    expect(limiter.hit('b').allowed).toBe(true)
  })

  it('reports the limit, what remains and the reset in the headers', () => {
    const limiter = new RateLimiter(5, clock(10_250).now)
    limiter.hit('a')
    expect(limiter.hit('a').headers).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '3',
      'RateLimit-Reset': '1',
      'X-RateLimit-Limit-Second': '5',
      'X-RateLimit-Limit-Minute': '300',
      'X-RateLimit-Remaining-Second': '3',
      'X-RateLimit-Remaining-Minute': '298',
    })
  })

  it('tells a refused request when to retry, in whole seconds', () => {
    const limiter = new RateLimiter(1, clock(10_999).now)
    limiter.hit('a')
    const refused = limiter.hit('a')
    expect(refused.headers['Retry-After']).toBe('1')
    expect(refused.headers['RateLimit-Remaining']).toBe('0')
  })

  it('carries the minute budget across seconds of the same minute', () => {
    const time = clock(60_000)
    const limiter = new RateLimiter(2, time.now)
    limiter.hit('a')
    time.advance(1000)
    expect(limiter.hit('a').headers['X-RateLimit-Remaining-Minute']).toBe('118')
  })
})
