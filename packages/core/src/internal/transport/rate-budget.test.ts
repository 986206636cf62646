import { describe, expect, it } from 'vitest'
import { RateBudget } from './rate-budget.ts'

const ok = (headers: Record<string, string>) => ({ status: 200, headers: new Headers(headers) })

describe('RateBudget', () => {
  it('lets requests go while nothing is known', () => {
    const budget = new RateBudget()
    expect([budget.reserve(0), budget.reserve(0), budget.reserve(0)]).toEqual([0, 0, 0])
  })

  it('makes a request wait until the reset once RateLimit-Remaining reaches zero', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(ok({ 'ratelimit-remaining': '0', 'ratelimit-reset': '2' }), 100)
    expect(budget.reserve(600)).toBe(1500)
  })

  it('lets requests go again after the reset', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(ok({ 'ratelimit-remaining': '0', 'ratelimit-reset': '1' }), 0)
    expect(budget.reserve(1000)).toBe(0)
  })

  it('counts the remaining budget down locally between answers', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(ok({ 'ratelimit-remaining': '2', 'ratelimit-reset': '1' }), 0)
    expect([budget.reserve(10), budget.reserve(10)]).toEqual([0, 0])
    expect(budget.reserve(10)).toBe(990)
  })

  it('subtracts requests still in flight from the reported budget', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.reserve(0)
    budget.reserve(0)
    budget.settle(ok({ 'ratelimit-remaining': '2', 'ratelimit-reset': '1' }), 0)
    expect(budget.reserve(0)).toBeGreaterThan(0)
  })

  it('waits for the next second when X-RateLimit-Remaining-Second is zero', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(ok({ 'x-ratelimit-remaining-second': '0', 'x-ratelimit-remaining-minute': '50' }), 0)
    expect(budget.reserve(0)).toBe(1000)
  })

  it('follows the tightest of several windows', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(
      ok({ 'ratelimit-remaining': '9', 'ratelimit-reset': '1', 'x-ratelimit-remaining-minute': '0' }),
      0,
    )
    expect(budget.reserve(5000)).toBe(55_000)
  })

  it('stops sending after a 429 until Retry-After has passed', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle({ status: 429, headers: new Headers({ 'retry-after': '3' }) }, 0)
    expect(budget.reserve(1000)).toBe(2000)
    expect(budget.reserve(3000)).toBe(0)
  })

  it('learns nothing from a failed request', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(undefined, 0)
    expect(budget.reserve(0)).toBe(0)
  })

  it('knows no share while no answer told the size of a window', () => {
    const budget = new RateBudget()
    expect(budget.share(0)).toBeUndefined()
    budget.reserve(0)
    budget.settle(ok({ 'ratelimit-remaining': '5', 'ratelimit-reset': '1' }), 0)
    expect(budget.share(0)).toBeUndefined()
  })

  it('tells the share left of the window, counting requests sent since the answer', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(ok({ 'ratelimit-limit': '10', 'ratelimit-remaining': '8', 'ratelimit-reset': '1' }), 0)
    expect(budget.share(0)).toBe(0.8)
    budget.reserve(10)
    budget.reserve(10)
    expect(budget.share(10)).toBe(0.6)
    expect(budget.resetIn(10)).toBe(990)
  })

  it('tells the share of the most spent window', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(
      ok({
        'x-ratelimit-limit-second': '10',
        'x-ratelimit-remaining-second': '9',
        'x-ratelimit-limit-minute': '600',
        'x-ratelimit-remaining-minute': '60',
      }),
      0,
    )
    expect(budget.share(0)).toBe(0.1)
    expect(budget.resetIn(0)).toBe(60_000)
  })

  it('tells a share of 0 after a 429, until it may retry', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle({ status: 429, headers: new Headers({ 'retry-after': '2' }) }, 0)
    expect(budget.share(1000)).toBe(0)
    expect(budget.share(2000)).toBeUndefined()
  })

  it('forgets the share once the window is over', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(ok({ 'ratelimit-limit': '10', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' }), 0)
    expect(budget.share(999)).toBe(0.1)
    expect(budget.share(1000)).toBeUndefined()
  })
})

describe('RateBudget, the end of a window', () => {
  const second = (remaining: number) =>
    ok({
      'ratelimit-limit': '20',
      'ratelimit-remaining': String(remaining),
      'ratelimit-reset': '1',
      'x-ratelimit-limit-second': '20',
      'x-ratelimit-remaining-second': String(remaining),
    })

  it('waits until a second after the first answer of the window, not after the last', () => {
    const budget = new RateBudget()
    // 20 requests one after the other, 20 ms each, from t = 0: the window is spent at 400 ms.
    for (let i = 0; i < 20; i++) {
      expect(budget.reserve(i * 20)).toBe(0)
      budget.settle(second(19 - i), i * 20 + 20)
    }
    // The first answer (at 20 ms) said the window ends within a second: by 1,020 ms, not 1,400 ms.
    expect(budget.reserve(400)).toBe(620)
    expect(budget.reserve(1020)).toBe(0)
  })

  it('starts a new bound when the budget grows back (a new window began)', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(second(1), 10)
    budget.reserve(500)
    budget.settle(second(0), 510)
    expect(budget.reserve(600)).toBe(410)
    // At 1,010 ms the first window is over; the next answer opens a window whose bound it sets.
    budget.reserve(1010)
    budget.settle(second(19), 1030)
    budget.reserve(1100)
    budget.settle(second(0), 1120)
    expect(budget.reserve(1200)).toBe(830)
  })

  it('keeps the bound of an earlier answer only while its window lasts', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(second(5), 0)
    // 1,500 ms later the window of the first answer is over: this answer bounds a window of its own.
    budget.reserve(1500)
    budget.settle(second(0), 1500)
    expect(budget.reserve(1600)).toBe(900)
  })

  it('tells the share and the reset of the window from the same bound', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(second(10), 100)
    budget.reserve(700)
    budget.settle(second(5), 800)
    expect(budget.resetIn(800)).toBe(300)
    expect(budget.share(800)).toBe(0.25)
  })
})

describe('RateBudget, answers a cache replays', () => {
  const T = Date.parse('Wed, 25 Nov 2026 17:00:10 GMT')
  const at = (seconds: number, remaining: number, status = 200) => ({
    status,
    headers: new Headers({
      date: new Date(T + seconds * 1000).toUTCString(),
      'x-ratelimit-limit-second': '10',
      'x-ratelimit-remaining-second': String(remaining),
    }),
  })

  it('tells an answer whose Date and rate-limit headers came in the last 10 seconds', () => {
    const budget = new RateBudget()
    expect(budget.replayed(at(0, 5), T + 100)).toBe(false)
    expect(budget.replayed(at(0, 4), T + 200)).toBe(false)
    expect(budget.replayed(at(0, 5), T + 900)).toBe(true)
    expect(budget.replayed(at(0, 4), T + 3000)).toBe(true)
  })

  it("tells an answer more than 5 s behind the API's clock as the last fresh answer showed it", () => {
    const budget = new RateBudget()
    // The API's clock is 60 s ahead of this one: its answers are fresh all the same.
    expect(budget.replayed(at(0, 5), T - 60_000)).toBe(false)
    expect(budget.replayed(at(0, 4), T - 60_000 + 100)).toBe(false)
    expect(budget.replayed(at(-6, 7), T - 60_000 + 200)).toBe(true)
    // 30 s later, an answer cached 20 s ago (a Date 10 s behind the clock it had then).
    expect(budget.replayed(at(10, 9), T - 30_000)).toBe(true)
    expect(budget.replayed(at(30, 9), T - 30_000)).toBe(false)
  })

  it('takes every answer as fresh without a Date or rate-limit headers, and a refusal as fresh', () => {
    const budget = new RateBudget()
    const bare = { status: 200, headers: new Headers() }
    expect([budget.replayed(bare, 0), budget.replayed(bare, 1)]).toEqual([false, false])
    budget.replayed(at(0, 5), T)
    // The API's clock set back an hour: its first refusal is fresh and sets the clock again.
    expect(budget.replayed(at(-3600, 0, 429), T + 1000)).toBe(false)
    expect(budget.replayed(at(-3599, 4), T + 2000)).toBe(false)
  })

  it('gives back the place of a request a cache answered, learning nothing from it', () => {
    const budget = new RateBudget()
    budget.reserve(0)
    budget.settle(ok({ 'x-ratelimit-limit-second': '10', 'x-ratelimit-remaining-second': '1' }), 0)
    expect(budget.reserve(10)).toBe(0)
    // A cache answered that one: its place comes back, and the budget still lets one more go.
    budget.refund()
    expect(budget.share(10)).toBe(0.1)
    expect(budget.reserve(20)).toBe(0)
    expect(budget.reserve(30)).toBe(970)
  })
})
