/** What one request learns from the limiter: whether it may pass, and the headers it carries. */
export interface RateLimitDecision {
  allowed: boolean
  headers: Record<string, string>
}

interface Window {
  second: number
  secondCount: number
  minute: number
  minuteCount: number
}

/**
 * A per-client limit of `limit` requests in fixed one-second windows, with the minute budget
 * (60 × the second limit) reported alongside, as the Published API's gateway does.
 */
export class RateLimiter {
  readonly limit: number
  readonly #now: () => number
  readonly #windows = new Map<string, Window>()

  constructor(limit: number, now: () => number = Date.now) {
    this.limit = limit
    this.#now = now
  }

  /** Counts one request of `client` and answers whether it is within the limit. */
  hit(client: string): RateLimitDecision {
    const now = this.#now()
    const second = Math.floor(now / 1000)
    const minute = Math.floor(now / 60_000)
    let window = this.#windows.get(client)
    if (!window) {
      if (this.#windows.size >= 10_000) this.#prune(second)
      window = { second, secondCount: 0, minute, minuteCount: 0 }
      this.#windows.set(client, window)
    }
    if (window.second !== second) {
      window.second = second
      window.secondCount = 0
    }
    if (window.minute !== minute) {
      window.minute = minute
      window.minuteCount = 0
    }
    const perMinute = this.limit * 60
    const allowed = window.secondCount < this.limit && window.minuteCount < perMinute
    if (allowed) {
      window.secondCount++
      window.minuteCount++
    }
    const remaining = Math.max(0, this.limit - window.secondCount)
    // Whole seconds until the window closes, at least 1 (a client never waits 0 seconds).
    const reset = Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000))
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(this.limit),
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(reset),
      'X-RateLimit-Limit-Second': String(this.limit),
      'X-RateLimit-Limit-Minute': String(perMinute),
      'X-RateLimit-Remaining-Second': String(remaining),
      'X-RateLimit-Remaining-Minute': String(Math.max(0, perMinute - window.minuteCount)),
    }
    if (!allowed) headers['Retry-After'] = String(reset)
    return { allowed, headers }
  }

  clear(): void {
    this.#windows.clear()
  }

  #prune(second: number): void {
    for (const [client, window] of this.#windows)
      if (window.second < second - 60) this.#windows.delete(client)
  }
}
