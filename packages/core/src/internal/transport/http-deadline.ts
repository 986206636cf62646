import { APITimeoutError, ValidationError } from '../../errors.ts'
import type { Outgoing } from './http-types.ts'

/** Timers beyond this many milliseconds fire at once (setTimeout's 32-bit limit): no timer is set. */
export const MAX_TIMER_MS = 2_147_483_647

/**
 * The time a request has in all (`totalTimeout`), from its start: the token, the waits for the
 * rate budget, every attempt and every wait between attempts. A wait that would end past it is
 * not started; the request fails at once with an {@link APITimeoutError} whose `limit` is
 * `totalTimeout`.
 */
export class Deadline {
  readonly #at: number
  readonly total: number
  readonly #out: Outgoing
  /** Attempts sent so far. */
  attempts = 0
  /** The last failure of an attempt, the cause of the deadline error when time runs out later. */
  lastError: unknown

  constructor(total: number, out: Outgoing) {
    this.total = total
    this.#at = Date.now() + total
    this.#out = out
    if (!(total > 0)) {
      throw new ValidationError([
        { field: 'totalTimeout', message: 'must be a positive number of milliseconds' },
      ])
    }
  }

  /** Milliseconds left (Infinity when there is no deadline). */
  remaining(): number {
    return this.#at - Date.now()
  }

  /** Whether a wait of `delay` ms ends before the deadline, leaving time for the attempt after it. */
  allows(delay: number): boolean {
    return delay < this.remaining()
  }

  /** The error of a request out of time; `cause` is the failure that would have been retried. */
  error(cause: unknown = this.lastError, waiting?: number): APITimeoutError {
    const source = this.#out.service.source
    const made = `${this.attempts} attempt${this.attempts === 1 ? '' : 's'} made`
    const wait = waiting === undefined ? '' : `; waiting ${Math.ceil(waiting)} ms more would pass it`
    const last = cause instanceof Error ? `; last error: ${cause.message}` : ''
    return new APITimeoutError(
      `The request to ${source} did not finish within its totalTimeout of ${this.total} ms (${made}${wait})${last}`,
      {
        url: this.#out.url,
        source,
        cause,
        limit: 'totalTimeout',
        timeout: this.total,
        attempts: this.attempts,
      },
    )
  }

  /** Throws the deadline error when no time is left. */
  check(): void {
    if (this.remaining() <= 0) throw this.error()
  }

  /** Settles with `promise`, or rejects with the deadline error when time runs out first. */
  race<T>(promise: Promise<T>): Promise<T> {
    const left = this.remaining()
    if (left <= 0) return Promise.reject(this.error())
    if (left > MAX_TIMER_MS) return promise
    let timer: ReturnType<typeof setTimeout> | undefined
    const outOfTime = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.error()), left)
    })
    return Promise.race([promise, outOfTime]).finally(() => clearTimeout(timer))
  }
}

export function isDeadlineError(error: unknown): error is APITimeoutError {
  return error instanceof APITimeoutError && error.limit === 'totalTimeout'
}
