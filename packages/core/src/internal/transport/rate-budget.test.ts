import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RateBudget, type RateTurn } from './rate-budget.ts'

const ok = (headers: Record<string, string>) => ({ status: 200, headers: new Headers(headers) })
/** An answer of an API that allows `limit` requests a second, `remaining` of them left. */
const perSecond = (limit: number, remaining = limit - 1) =>
  ok({ 'x-ratelimit-limit-second': String(limit), 'x-ratelimit-remaining-second': String(remaining) })

// The budget's clock and timers are faked: each test moves time itself, from 0.
beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})
afterEach(() => {
  vi.useRealTimers()
})

/** A budget whose first request (sent and answered at the current time) told it `answer`'s limits. */
function learned(answer = perSecond(10)): RateBudget {
  const budget = new RateBudget()
  budget.settle(budget.take(), answer)
  return budget
}

/** When each turn comes, by the fake clock; undefined for a turn that has not come. */
function turnTimes(turns: RateTurn[]): (number | undefined)[] {
  const times: (number | undefined)[] = turns.map(() => undefined)
  turns.forEach((turn, index) => {
    turn.ready.then(() => {
      times[index] = Date.now()
    })
  })
  return times
}

/** Takes `n` turns at once and lets `ms` pass; answers each request as soon as its turn comes. */
async function burst(budget: RateBudget, n: number, ms: number, answer = perSecond(10, 5)) {
  const turns = Array.from({ length: n }, () => budget.take())
  for (const turn of turns) turn.ready.then(() => budget.settle(turn, answer))
  const times = turnTimes(turns)
  await vi.advanceTimersByTimeAsync(ms)
  return times
}

describe('RateBudget, before an answer tells the limits', () => {
  it('lets the first request go and makes the others wait for its answer', () => {
    const budget = new RateBudget()
    const [first, second, third] = [budget.take(), budget.take(), budget.take()]
    expect(first?.wait).toBe(0)
    expect([second?.wait, third?.wait]).toEqual([undefined, undefined])
    expect(budget.waiting).toBe(2)
  })

  it('lets one more request go when an answer without limits ends the one in flight', async () => {
    const budget = new RateBudget()
    const first = budget.take()
    const times = turnTimes([budget.take(), budget.take()])
    await vi.advanceTimersByTimeAsync(50)
    budget.settle(first, ok({ 'ratelimit-remaining': '5', 'ratelimit-reset': '1' }))
    await vi.advanceTimersByTimeAsync(0)
    expect(times).toEqual([50, undefined])
  })

  it('lets the next request go when the one in flight failed without an answer', async () => {
    const budget = new RateBudget()
    const first = budget.take()
    const times = turnTimes([budget.take()])
    await vi.advanceTimersByTimeAsync(30)
    budget.settle(first)
    await vi.advanceTimersByTimeAsync(0)
    expect(times).toEqual([30])
  })

  it('lets requests go at once once an answer tells no rate limit at all', () => {
    const budget = new RateBudget()
    budget.settle(budget.take(), ok({}))
    expect([budget.take().wait, budget.take().wait, budget.take().wait]).toEqual([0, 0, 0])
  })
})

describe('RateBudget, once the limits are known', () => {
  it('spaces the turns (window + 100 ms) / limit apart, first come first served', async () => {
    const times = await burst(learned(), 5, 1000)
    expect(times).toEqual([110, 220, 330, 440, 550])
  })

  it('tells each waiting request how long its wait is as things stand', () => {
    const budget = learned()
    expect([budget.take().wait, budget.take().wait, budget.take().wait]).toEqual([110, 220, 330])
  })

  it('sends a burst of 96 at a limit of 10 a second in about 10 s, never more than 10 in a second', async () => {
    const times = (await burst(learned(), 96, 20_000)) as number[]
    expect(times.every((time) => time !== undefined)).toBe(true)
    expect(times.at(-1)).toBe(96 * 110)
    // The turn given and the ten before it span more than a second: no 11 in any second, even across the
    // end of a window.
    for (let i = 10; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 10] ?? 0)).toBeGreaterThan(1000)
  })

  it('releases no herd when a window ends, with requests in flight', async () => {
    const budget = learned()
    // Ten requests whose answers have not come yet when their window would be over.
    const inFlight = Array.from({ length: 10 }, () => budget.take())
    await vi.advanceTimersByTimeAsync(1100)
    expect(inFlight.every((turn) => turn.state === 'out')).toBe(true)
    const times = await burst(budget, 3, 500)
    expect(times).toEqual([1210, 1320, 1430])
  })

  it('spaces the turns by the tightest of several windows', async () => {
    // 10 a second and 300 a minute: 300 a minute is one every (60,000 + 100) / 300 ms = 200.33 ms.
    const budget = learned(
      ok({
        'x-ratelimit-limit-second': '10',
        'x-ratelimit-remaining-second': '9',
        'x-ratelimit-limit-minute': '300',
        'x-ratelimit-remaining-minute': '299',
      }),
    )
    expect(budget.take().wait).toBeCloseTo(200.33, 1)
  })

  it('learns a window of a second from RateLimit-Limit with a reset of a second', () => {
    const budget = learned(ok({ 'ratelimit-limit': '5', 'ratelimit-remaining': '4', 'ratelimit-reset': '1' }))
    expect(budget.take().wait).toBe(220)
  })

  it('gives the next turn at once when the request before it gives its turn back', async () => {
    const budget = learned()
    await vi.advanceTimersByTimeAsync(110)
    const cached = budget.take()
    expect(cached.wait).toBe(0)
    // A cache answered that one: the API saw nothing, so the next request need not be spaced from it.
    budget.refund(cached)
    expect(budget.take().wait).toBe(0)
  })

  it('gives the turn of a request that stopped waiting to the one after it', async () => {
    const budget = learned()
    const [leaving, staying] = [budget.take(), budget.take()]
    const times = turnTimes([leaving, staying])
    leaving.cancel()
    await vi.advanceTimersByTimeAsync(500)
    expect(times).toEqual([undefined, 110])
    expect(leaving.state).toBe('done')
  })
})

describe('RateBudget, refusals and spent windows', () => {
  it('stops every turn after a 429 until Retry-After, then spaces them again', async () => {
    const budget = learned()
    const refused = budget.take()
    await vi.advanceTimersByTimeAsync(110)
    budget.settle(refused, { status: 429, headers: new Headers({ 'retry-after': '2' }) })
    const times = await burst(budget, 3, 3000)
    expect(times).toEqual([2110, 2220, 2330])
  })

  it('after a 429 without limits told, lets one request go at a time again', async () => {
    const budget = new RateBudget()
    budget.settle(budget.take(), ok({}))
    const refused = budget.take()
    budget.settle(refused, { status: 429, headers: new Headers({ 'retry-after': '1' }) })
    const turns = [budget.take(), budget.take()]
    const times = turnTimes(turns)
    await vi.advanceTimersByTimeAsync(1500)
    expect(times).toEqual([1000, undefined])
  })

  it('stops every turn until the window ends once an answer says it is spent', async () => {
    const budget = new RateBudget()
    // Another client of the account spent the window: 0 left, 10 ms after it began.
    budget.settle(budget.take(), perSecond(10, 0))
    const times = await burst(budget, 2, 2000)
    expect(times).toEqual([1000, 1110])
  })

  it('bounds a spent window by the first answer of that window, not the last', async () => {
    const budget = new RateBudget()
    const answer = (remaining: number) =>
      ok({ 'ratelimit-limit': '20', 'ratelimit-remaining': String(remaining), 'ratelimit-reset': '1' })
    // The first answer of the window, at 0, says it ends within a second; the last, at 400 ms, that it
    // is spent (and again "within a second", which is later than the first said).
    budget.settle(budget.take(), answer(19))
    await vi.advanceTimersByTimeAsync(400)
    budget.settle(budget.take(), answer(0))
    const times = await burst(budget, 1, 2000)
    expect(times).toEqual([1000])
  })
})

describe('RateBudget, visitor-driven requests', () => {
  it('gives visitor-driven requests their turns before the requests already waiting', async () => {
    const budget = learned()
    const site = [budget.take(), budget.take()]
    const visitor = budget.take(true)
    const times = turnTimes([...site, visitor])
    await vi.advanceTimersByTimeAsync(1000)
    expect(times).toEqual([220, 330, 110])
  })

  it('lets visitor-driven requests take their share of the window and no more', () => {
    // The limit alone: what is left of the window, as the answers tell it, plays no part here.
    const budget = learned(ok({ 'x-ratelimit-limit-second': '10' }))
    // Half of 10 a second: 5 turns, those waiting included.
    for (let i = 0; i < 5; i++) {
      expect(budget.visitorWait(0.5)).toBe(0)
      budget.take(true)
    }
    expect(budget.visitorWait(0.5)).toBeGreaterThan(0)
    expect(budget.visitorWait(0.8)).toBe(0)
  })

  it('fits a visitor-driven request again once the first visitor turn leaves the window', async () => {
    const budget = learned()
    const turns = Array.from({ length: 5 }, () => budget.take(true))
    for (const turn of turns) turn.ready.then(() => budget.settle(turn, perSecond(10, 9)))
    await vi.advanceTimersByTimeAsync(600)
    // The first visitor turn came at 110 ms; it leaves the window (1,100 ms with the margin) at 1,210 ms.
    expect(budget.visitorWait(0.5)).toBe(610)
    await vi.advanceTimersByTimeAsync(610)
    expect(budget.visitorWait(0.5)).toBe(0)
  })

  it('refuses visitor-driven requests while the answers say only the reserved share of the window is left', () => {
    const budget = learned(perSecond(10, 5))
    expect(budget.visitorWait(0.5)).toBe(1000)
    expect(budget.visitorWait(0.6)).toBe(0)
  })

  it('refuses no visitor-driven request while no limit is known', () => {
    const budget = new RateBudget()
    budget.take(true)
    budget.take(true)
    expect(budget.visitorWait(0.1)).toBe(0)
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
})
