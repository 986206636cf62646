import { parseResetSeconds, requestedDelay } from './retry-timing.ts'

function count(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined
  return Number(value)
}

/**
 * The rate budget of one API, shared by every request a client sends to it. It learns the budget
 * from the rate-limit headers of each answer and makes requests wait once it is spent, so that the
 * client slows down before the API starts refusing it.
 */
export class RateBudget {
  // Undefined while nothing is known: requests then go out freely.
  #remaining: number | undefined
  #resetAt = 0
  #inFlight = 0
  #headers: Headers = new Headers()
  // Each window whose size the answers told: what is left of it and when it ends, for `share`.
  #windows: { left: number; limit: number; resetAt: number }[] = []
  /**
   * Per kind of window (`RateLimit-*`, per second, per minute): the remaining budget the last answer
   * told, and the earliest time by which an answer of the current window said it ends. Every answer
   * bounds the end of its window (its time plus the reset it tells), and the first answer of a window
   * bounds it best: the reset it tells is counted from closest to the window's start. Taking the last
   * answer's bound instead made a client that spends a window in 400 ms wait a whole second after it,
   * some 15 requests a second against a limit of 20.
   */
  readonly #bounds = new Map<string, { remaining: number; endsBy: number }>()

  /** Headers of the answer that last reported the budget. */
  get headers(): Headers {
    return this.#headers
  }

  /**
   * Takes one request from the budget and returns 0, or returns how many milliseconds to wait
   * before asking again when the budget is spent.
   */
  reserve(now: number = Date.now()): number {
    if (this.#remaining !== undefined && now >= this.#resetAt) this.#remaining = undefined
    if (this.#remaining === undefined || this.#remaining > 0) {
      if (this.#remaining !== undefined) this.#remaining--
      for (const window of this.#windows) window.left--
      this.#inFlight++
      return 0
    }
    return Math.max(1, this.#resetAt - now)
  }

  /** Ends a reserved request, learning from its answer's headers when there was an answer. */
  settle(answer?: { status: number; headers: Headers }, now: number = Date.now()): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1)
    if (answer === undefined) return
    const { headers, status } = answer
    if (status === 429) {
      this.#remaining = 0
      this.#resetAt = Math.max(this.#resetAt, now + (requestedDelay(headers, now) ?? 1000))
      this.#headers = headers
      this.#windows = [{ left: 0, limit: 1, resetAt: this.#resetAt }]
      return
    }
    // Each window reports what is left of it; the tightest one decides.
    const told: { kind: string; remaining: number; resetMs: number; limit: number | undefined }[] = []
    const general = count(headers, 'ratelimit-remaining')
    if (general !== undefined) {
      told.push({
        kind: 'general',
        remaining: general,
        resetMs: parseResetSeconds(headers.get('ratelimit-reset'), now) ?? 1000,
        limit: count(headers, 'ratelimit-limit'),
      })
    }
    const perSecond = count(headers, 'x-ratelimit-remaining-second')
    if (perSecond !== undefined)
      told.push({
        kind: 'second',
        remaining: perSecond,
        resetMs: 1000,
        limit: count(headers, 'x-ratelimit-limit-second'),
      })
    const perMinute = count(headers, 'x-ratelimit-remaining-minute')
    if (perMinute !== undefined)
      told.push({
        kind: 'minute',
        remaining: perMinute,
        resetMs: 60_000,
        limit: count(headers, 'x-ratelimit-limit-minute'),
      })
    if (told.length === 0) return
    const windows = told.map(({ kind, remaining, resetMs, limit }) => {
      const known = this.#bounds.get(kind)
      // A window that is over, or a budget that grew back, is a new window: this answer starts its bound.
      // (An answer overtaken by a later one looks like a new window too, which only bounds it later.)
      const fresh = known === undefined || now >= known.endsBy || remaining > known.remaining
      const endsBy = fresh ? now + resetMs : Math.min(known.endsBy, now + resetMs)
      this.#bounds.set(kind, { remaining, endsBy })
      return { remaining, resetMs: endsBy - now, limit }
    })
    const tightest = windows.reduce((a, b) =>
      b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a,
    )
    // Requests still in flight were sent after the API counted this one, so they spend the budget too.
    this.#remaining = Math.max(0, tightest.remaining - this.#inFlight)
    this.#resetAt = now + tightest.resetMs
    this.#headers = headers
    this.#windows = windows.flatMap(({ remaining, resetMs, limit }) =>
      limit === undefined || limit <= 0
        ? []
        : [{ left: remaining - this.#inFlight, limit, resetAt: now + resetMs }],
    )
  }

  /**
   * The share (0 to 1) left of the most spent rate window whose size the answers told (`RateLimit-Limit`,
   * `X-RateLimit-Limit-Second`, `-Minute`), counting requests sent since; 0 after a 429 until it may
   * retry; undefined while nothing is known. Lets a caller of lesser priority (the public reviews
   * endpoint) leave the rest of the budget to others.
   */
  share(now: number = Date.now()): number | undefined {
    const live = this.#windows.filter((window) => now < window.resetAt)
    if (live.length === 0) return undefined
    return Math.min(...live.map((window) => Math.max(0, window.left) / window.limit))
  }

  /** Milliseconds until the most spent window of {@link share} ends; 0 when none is known. */
  resetIn(now: number = Date.now()): number {
    const live = this.#windows.filter((window) => now < window.resetAt)
    if (live.length === 0) return 0
    const tightest = live.reduce((a, b) => (b.left / b.limit < a.left / a.limit ? b : a))
    return tightest.resetAt - now
  }
}
