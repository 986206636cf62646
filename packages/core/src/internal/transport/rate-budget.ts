import { parseResetSeconds, requestedDelay } from './retry-timing.ts'

function count(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined
  return Number(value)
}

/** The rate windows an answer may tell of, by their headers; the reset of each in milliseconds. */
const WINDOW_HEADERS = [
  {
    kind: 'general',
    remaining: 'ratelimit-remaining',
    limit: 'ratelimit-limit',
    resetMs: (headers: Headers, now: number) =>
      parseResetSeconds(headers.get('ratelimit-reset'), now) ?? 1000,
  },
  {
    kind: 'second',
    remaining: 'x-ratelimit-remaining-second',
    limit: 'x-ratelimit-limit-second',
    resetMs: () => 1000,
  },
  {
    kind: 'minute',
    remaining: 'x-ratelimit-remaining-minute',
    limit: 'x-ratelimit-limit-minute',
    resetMs: () => 60_000,
  },
]

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
  /** The API's clock less this one's (ms), from the last answer taken as fresh; undefined before. */
  #offset: number | undefined
  /** What tells apart the successful answers of the last 10 seconds, with when each came. */
  readonly #recent = new Map<string, number>()

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

  /**
   * Whether a successful answer is one a cache replays rather than the API's. Next.js's data cache hands
   * back a stored answer with the headers it had, rate-limit headers included: learning from them made
   * the budget take a window spent long ago for the current one, and the reviews route refused nearly
   * every request of a load test with a 503 while it made no API call. An answer is a replay when its
   * `Date` and rate-limit headers are those of an answer of the last 10 seconds (the API counts each
   * request, so two of its answers differ), or when its `Date` is more than 5 seconds behind the API's
   * clock as the last fresh answer showed it. An answer that is not a success is always fresh (caches keep
   * successes) and sets the API's clock again, so that a clock set back is followed at its first refusal.
   */
  replayed(answer: { status: number; headers: Headers }, now: number = Date.now()): boolean {
    const { headers } = answer
    const date = Date.parse(headers.get('date') ?? '')
    if (answer.status < 200 || answer.status >= 300) {
      if (!Number.isNaN(date)) this.#offset = date - now
      return false
    }
    const told = ['ratelimit-reset', ...WINDOW_HEADERS.map((window) => window.remaining)].map((name) =>
      headers.get(name),
    )
    if (Number.isNaN(date) && told.every((value) => value === null)) return false
    const signature = JSON.stringify([headers.get('date'), ...told])
    if (this.#recent.has(signature)) return true
    if (!Number.isNaN(date) && this.#offset !== undefined && date < now + this.#offset - 5000) return true
    if (!Number.isNaN(date)) this.#offset = date - now
    for (const [key, seen] of this.#recent) {
      if (seen > now - 10_000) break
      this.#recent.delete(key)
    }
    this.#recent.set(signature, now)
    return false
  }

  /**
   * Ends a reserved request that never reached the API (a cache answered it): it gives back its place
   * in the budget and teaches nothing.
   */
  refund(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1)
    if (this.#remaining !== undefined) this.#remaining++
    for (const window of this.#windows) window.left = Math.min(window.limit, window.left + 1)
  }

  /** Ends a reserved request, learning from its answer's headers when there was an answer. */
  settle(answer?: { status: number; headers: Headers }, now: number = Date.now()): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1)
    if (answer === undefined) return
    const { headers, status } = answer
    if (status === 429) {
      this.#remaining = 0
      this.#resetAt = Math.max(this.#resetAt, now + (requestedDelay(429, headers, now) ?? 1000))
      this.#headers = headers
      this.#windows = [{ left: 0, limit: 1, resetAt: this.#resetAt }]
      return
    }
    // Each window reports what is left of it; the tightest one decides.
    const windows = WINDOW_HEADERS.flatMap(({ kind, remaining: name, limit, resetMs }) => {
      const remaining = count(headers, name)
      if (remaining === undefined) return []
      const known = this.#bounds.get(kind)
      const endsAt = now + resetMs(headers, now)
      // A window that is over, or a budget that grew back, is a new window: this answer starts its bound.
      // (An answer overtaken by a later one looks like a new window too, which only bounds it later.)
      const fresh = known === undefined || now >= known.endsBy || remaining > known.remaining
      const endsBy = fresh ? endsAt : Math.min(known.endsBy, endsAt)
      this.#bounds.set(kind, { remaining, endsBy })
      return [{ remaining, resetMs: endsBy - now, limit: count(headers, limit) }]
    })
    if (windows.length === 0) return
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
