import { describe, expect, it } from 'vitest'
import { rateWindowsOf } from './rate-windows.ts'

describe('rateWindowsOf', () => {
  it('reads the per-second and per-minute limits', () => {
    const headers = new Headers({ 'x-ratelimit-limit-second': '10', 'x-ratelimit-limit-minute': '600' })
    expect(rateWindowsOf(headers)).toEqual([
      { requests: 10, windowMs: 1000 },
      { requests: 600, windowMs: 60_000 },
    ])
  })

  it('reads a RateLimit-Policy', () => {
    expect(rateWindowsOf(new Headers({ 'ratelimit-policy': '100;w=60, 10;w=1' }))).toEqual([
      { requests: 100, windowMs: 60_000 },
      { requests: 10, windowMs: 1000 },
    ])
  })

  it('takes RateLimit-Limit as a per-second limit only when it resets within a second', () => {
    expect(rateWindowsOf(new Headers({ 'ratelimit-limit': '10', 'ratelimit-reset': '1' }))).toEqual([
      { requests: 10, windowMs: 1000 },
    ])
    expect(rateWindowsOf(new Headers({ 'ratelimit-limit': '600', 'ratelimit-reset': '42' }))).toEqual([])
  })
})
