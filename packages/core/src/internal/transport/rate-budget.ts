import { type RateWindow, rateWindowsOf } from './rate-windows.ts'
import { parseResetSeconds, requestedDelay } from './retry-timing.ts'

function count(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined
  return Number(value)
}

/** The rate windows an answer may tell what is left of, by their headers; the reset of each in milliseconds. */
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
 * Milliseconds added to every window when turns are spaced: the time a request takes to reach the API
 * varies, and two requests a window apart here must still be a window apart when they arrive there. The
 * default margin of the Redis budget too.
 */
export const RATE_MARGIN_MS = 100

/** The visitor-driven share of the budget when the caller names none: half. */
export const DEFAULT_VISITOR_SHARE = 0.5

/**
 * One request's place in a {@link RateBudget}, from {@link RateBudget.take}: waiting for its turn, then
 * counted as sent until its answer (or its failure) is told with `settle`, or it is given back with `refund`.
 */
export class RateTurn {
  /** Whether the request is visitor-driven: such turns go before the others, within their share. */
  readonly visitor: boolean
  /**
   * Milliseconds until the turn as things stand when it was taken: 0 when the request may go at once;
   * undefined while it waits for the first answer to tell the limits (the time that takes is not known).
   */
  wait: number | undefined
  /** Settles when the turn comes; at once when `wait` is 0. */
  readonly ready: Promise<void>
  /** When the turn came (ms); undefined while the request waits. */
  at: number | undefined
  /** `waiting` for the turn, `out` once it came (the request counts), `done` once told or given back. */
  state: 'waiting' | 'out' | 'done' = 'waiting'
  readonly #budget: RateBudget
  #resolve: () => void = () => {}

  constructor(budget: RateBudget, visitor: boolean) {
    this.#budget = budget
    this.visitor = visitor
    this.ready = new Promise((resolve) => {
      this.#resolve = resolve
    })
  }

  /** Lets the request go: it counts from `now`. */
  go(now: number): void {
    this.state = 'out'
    this.at = now
    this.#resolve()
  }

  /**
   * Gives the place up (the caller stopped waiting): a waiting request leaves the queue; one whose turn
   * came but that was not sent gives it back. Nothing once the request was told.
   */
  cancel(now?: number): void {
    this.#budget.refund(this, now)
  }
}

/**
 * The rate budget of one API, shared by every request a client sends to it. It learns the API's limits
 * from the rate-limit headers of the answers and hands out turns, first come first served, so that the
 * client stays under the limit rather than learning it from 429s:
 *
 * - Until an answer tells the limits, one request goes at a time: the others wait for its answer.
 * - Once it knows `L` requests per window `W`, it spaces the turns `(W + 100 ms) / L` apart (the tightest
 *   of the windows decides). A window's end releases nothing at once: turns stay spaced, and the requests
 *   in flight keep their place, as the turns are counted from when they were given, not by window.
 * - When the answers tell no limits at all, requests go at once.
 *
 * A 429 stops every turn until its `Retry-After`, and an answer that says a window is spent
 * (`RateLimit-Remaining: 0`, another client of the account spent it) stops them until that window ends;
 * then the turns go on, spaced. Visitor-driven requests go before the others, but only within their
 * share of each window: {@link visitorWait} tells when they must be refused instead of queued.
 */
export class RateBudget {
  /** What the answers told of the limits: undefined before any did, empty when they tell none. */
  #limits: RateWindow[] | undefined
  /** Milliseconds between two turns, and the window (margin included) and requests of the window that sets it. */
  #interval = 0
  #span = 0
  #perSpan = 0
  #inFlight = 0
  #blockedUntil = 0
  /** The turns given within the last span, oldest first: the last sets the next; visitors count theirs. */
  #turns: RateTurn[] = []
  // Waiting requests, first come first served; sets, so that one that gives up leaves in constant time.
  readonly #visitors = new Set<RateTurn>()
  readonly #others = new Set<RateTurn>()
  #timer: ReturnType<typeof setTimeout> | undefined
  #headers: Headers = new Headers()
  // Each window whose size the answers told: what is left of it and when it ends, for the visitors' share.
  #windows: { left: number; limit: number; resetAt: number }[] = []
  /**
   * Per kind of window (`RateLimit-*`, per second, per minute): the remaining budget the last answer
   * told, and the earliest time by which an answer of the current window said it ends. Every answer
   * bounds the end of its window (its time plus the reset it tells), and the first answer of a window
   * bounds it best: the reset it tells is counted from closest to the window's start. Taking the last
   * answer's bound instead made a client that spends a window in 400 ms wait a whole second after it.
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

  /** Requests waiting for a turn now. */
  get waiting(): number {
    return this.#visitors.size + this.#others.size
  }

  /**
   * Takes a turn for one request: at once when it may go now (`wait` 0), else its place in the queue,
   * whose `ready` settles when the turn comes. Visitor-driven requests queue before the others; check
   * {@link visitorWait} first, as a turn taken is never refused.
   */
  take(visitor = false, now: number = Date.now()): RateTurn {
    this.#prune(now)
    const turn = new RateTurn(this, visitor)
    const ahead = this.#visitors.size + (visitor ? 0 : this.#others.size)
    const at = this.#nextAt(now)
    if (ahead === 0 && at <= now) {
      this.#give(turn, now)
      turn.wait = 0
      return turn
    }
    turn.wait = Number.isFinite(at) ? at - now + ahead * this.#interval : undefined
    ;(visitor ? this.#visitors : this.#others).add(turn)
    this.#arm(now)
    return turn
  }

  /**
   * Milliseconds until a visitor-driven request fits in `share` (0 to 1) of the budget again; 0 when it
   * fits now. It does not fit while visitor-driven requests took `share` of the turns of the last window
   * (those waiting included), or while the answers say that no more than `1 - share` of the current
   * window is left (the rest of the account's clients spent it). 0 while no limit is known.
   */
  visitorWait(share: number, now: number = Date.now()): number {
    this.#prune(now)
    let wait = 0
    if (this.#perSpan > 0) {
      const allowance = Math.max(1, Math.floor(share * this.#perSpan))
      const given = this.#turns.filter((turn) => turn.visitor && (turn.at ?? now) > now - this.#span)
      const taken = given.length + this.#visitors.size
      if (taken >= allowance) {
        // One more fits once enough of the turns given leave the window.
        const freeing = given[taken - allowance]
        wait = freeing?.at === undefined ? this.#span : freeing.at + this.#span - now
      }
    }
    const live = this.#windows.filter((window) => now < window.resetAt)
    const waitingVisitors = this.#visitors.size
    for (const window of live) {
      if ((window.left - waitingVisitors) / window.limit <= 1 - share)
        wait = Math.max(wait, window.resetAt - now)
    }
    return wait > 0 ? Math.max(1, Math.ceil(wait)) : 0
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
   * Gives back a turn that never reached the API (a cache answered it, or the caller gave up first): it
   * counts no more and teaches nothing. A turn still waiting leaves the queue.
   */
  refund(turn: RateTurn, now: number = Date.now()): void {
    if (turn.state === 'done') return
    if (turn.state === 'waiting') {
      this.#visitors.delete(turn)
      this.#others.delete(turn)
    } else {
      this.#inFlight = Math.max(0, this.#inFlight - 1)
      const index = this.#turns.indexOf(turn)
      if (index >= 0) this.#turns.splice(index, 1)
      for (const window of this.#windows) window.left = Math.min(window.limit, window.left + 1)
    }
    turn.state = 'done'
    this.#pump(now)
  }

  /** Ends a request whose turn came, learning from its answer's headers when there was an answer. */
  settle(turn: RateTurn, answer?: { status: number; headers: Headers }, now: number = Date.now()): void {
    if (turn.state !== 'out') return
    turn.state = 'done'
    this.#inFlight = Math.max(0, this.#inFlight - 1)
    if (answer !== undefined) this.#learn(answer, now)
    this.#pump(now)
  }

  #learn({ status, headers }: { status: number; headers: Headers }, now: number): void {
    const limits = rateWindowsOf(headers)
    if (limits.length > 0) this.#setLimits(limits)
    if (status === 429) {
      this.#blockedUntil = Math.max(this.#blockedUntil, now + (requestedDelay(429, headers, now) ?? 1000))
      this.#headers = headers
      this.#windows = [{ left: 0, limit: 1, resetAt: this.#blockedUntil }]
      // Without limits to space them, the requests after the wait go one at a time again.
      if (this.#limits?.length === 0) this.#limits = undefined
      return
    }
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
      return [{ remaining, endsBy, limit: count(headers, limit) }]
    })
    if (windows.length === 0) {
      // An answer of the API that tells no limit at all: the API has none to keep to.
      if (this.#limits === undefined && limits.length === 0 && status < 500) this.#limits = []
      return
    }
    this.#headers = headers
    // A spent window (another client of the account spent it, or a limit lower than told) stops every
    // turn until it ends.
    for (const window of windows)
      if (window.remaining === 0) this.#blockedUntil = Math.max(this.#blockedUntil, window.endsBy)
    // Requests still in flight were sent after the API counted this one, so they spend the window too.
    this.#windows = windows.flatMap(({ remaining, endsBy, limit }) =>
      limit === undefined || limit <= 0 ? [] : [{ left: remaining - this.#inFlight, limit, resetAt: endsBy }],
    )
  }

  #setLimits(limits: RateWindow[]): void {
    this.#limits = limits
    this.#interval = 0
    for (const { requests, windowMs } of limits) {
      const interval = (windowMs + RATE_MARGIN_MS) / requests
      if (interval > this.#interval) {
        this.#interval = interval
        this.#span = windowMs + RATE_MARGIN_MS
        this.#perSpan = requests
      }
    }
  }

  /** When the next turn may be given: Infinity while the first answer is awaited. */
  #nextAt(now: number): number {
    const at = Math.max(now, this.#blockedUntil)
    if (this.#limits === undefined) return this.#inFlight > 0 ? Number.POSITIVE_INFINITY : at
    const last = this.#turns.at(-1)?.at
    return last === undefined ? at : Math.max(at, last + this.#interval)
  }

  #give(turn: RateTurn, now: number): void {
    turn.go(now)
    this.#turns.push(turn)
    this.#inFlight++
    for (const window of this.#windows) window.left--
  }

  /** Gives the turns that are due, first to visitor-driven requests, then sets the timer of the next. */
  #pump(now: number = Date.now()): void {
    this.#prune(now)
    for (;;) {
      const next = this.#visitors.values().next().value ?? this.#others.values().next().value
      if (next === undefined || this.#nextAt(now) > now) break
      ;(next.visitor ? this.#visitors : this.#others).delete(next)
      this.#give(next, now)
    }
    this.#arm(now)
  }

  #arm(now: number): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.waiting === 0) return
    const at = this.#nextAt(now)
    // Infinity: the answer of the request in flight gives the next turn.
    if (Number.isFinite(at)) this.#timer = setTimeout(() => this.#pump(), Math.max(1, Math.ceil(at - now)))
  }

  /** Forgets the turns older than the window that sets the spacing; the last one stays, for it. */
  #prune(now: number): void {
    let old = 0
    while (old < this.#turns.length - 1 && (this.#turns[old]?.at ?? now) <= now - this.#span) old++
    if (old > 0) this.#turns.splice(0, old)
  }
}
