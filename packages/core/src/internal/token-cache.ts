/** An access token and when it stops working. */
export interface AccessToken {
  value: string
  /** Epoch milliseconds; undefined when the token endpoint did not say (kept until a 401). */
  expiresAt: number | undefined
  /** Epoch milliseconds at which it was issued. */
  issuedAt: number
}

/** Before expiry, refresh in the background from this long on, at most a quarter of the lifetime. */
export const ADVISORY_REFRESH_MS = 120_000
/** Before expiry, wait for a new token from this long on, at most a tenth of the lifetime. */
export const MANDATORY_REFRESH_MS = 30_000
/** After a failed background refresh, keep the current token this long before trying again. */
export const ADVISORY_RETRY_MS = 10_000

/**
 * Keeps one access token per audience. Inside the advisory window a caller gets the current token
 * while a new one is fetched in the background; inside the mandatory window (or without a token)
 * callers wait for the new one. Concurrent callers always share one token request.
 */
export class TokenCache {
  readonly #fetchToken: () => Promise<AccessToken>
  readonly #now: () => number
  #current: AccessToken | undefined
  #pending: Promise<AccessToken> | undefined
  #advisoryFailedAt = Number.NEGATIVE_INFINITY

  constructor(fetchToken: () => Promise<AccessToken>, now: () => number = Date.now) {
    this.#fetchToken = fetchToken
    this.#now = now
  }

  /** A token that is valid now, fetching one when needed. */
  async get(): Promise<string> {
    const current = this.#current
    if (current === undefined) return (await this.#refresh()).value
    if (current.expiresAt === undefined) return current.value
    const lifetime = Math.max(0, current.expiresAt - current.issuedAt)
    const left = current.expiresAt - this.#now()
    if (left <= Math.min(MANDATORY_REFRESH_MS, lifetime / 10)) return (await this.#refresh()).value
    if (left <= Math.min(ADVISORY_REFRESH_MS, lifetime / 4)) this.#refreshInBackground()
    return current.value
  }

  /**
   * Drops `value` after the API refused it. A token that was already replaced is left alone, so
   * that many requests refused together cause one new token, not one each.
   */
  invalidate(value: string): void {
    if (this.#current?.value === value) this.#current = undefined
  }

  #refresh(): Promise<AccessToken> {
    if (this.#pending !== undefined) return this.#pending
    const pending = this.#fetchToken().then((token) => {
      this.#current = token
      return token
    })
    this.#pending = pending
    const clear = () => {
      if (this.#pending === pending) this.#pending = undefined
    }
    pending.then(clear, clear)
    return pending
  }

  #refreshInBackground(): void {
    if (this.#pending !== undefined) return
    if (this.#now() - this.#advisoryFailedAt < ADVISORY_RETRY_MS) return
    // A failed early refresh is not an error yet: the current token still works for a while.
    this.#refresh().catch(() => {
      this.#advisoryFailedAt = this.#now()
    })
  }
}
