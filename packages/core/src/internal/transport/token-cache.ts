import type { StoredToken, TokenStore } from '../base/shared-state.ts'
import { singleFlight } from '../base/single-flight.ts'

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

/** A token store shared by several instances, and where this cache keeps its token in it. */
export interface SharedTokens {
  store: TokenStore
  /** Names the API and the account; holds no secret. */
  key: string
  /**
   * Milliseconds between two looks at the store while another instance fetches (doubling up to 8
   * times that).
   * @default 25
   */
  pollInterval?: number
  /**
   * Milliseconds this instance waits for another one's token before fetching one itself.
   * @default 10_000
   */
  waitTimeout?: number
}

/**
 * Keeps one access token per audience. Inside the advisory window a caller gets the current token
 * while a new one is fetched in the background; inside the mandatory window (or without a token)
 * callers wait for the new one. Concurrent callers always share one token request.
 *
 * With a shared {@link TokenStore}, the instances of a site share one token too: a new token is first
 * looked for in the store, and only the instance that takes the store's lock fetches one, while the
 * others wait for it to appear there. A store that fails is left aside for that refresh: this instance
 * then fetches its own token, as without a store.
 */
export class TokenCache {
  readonly #fetchToken: () => Promise<AccessToken>
  readonly #now: () => number
  #current: AccessToken | undefined
  readonly #refreshing = singleFlight<true, AccessToken>()
  #advisoryFailedAt = Number.NEGATIVE_INFINITY
  readonly #shared: SharedTokens | undefined
  // The last token the API refused, so that a copy still in the shared store is not taken again.
  #refused: string | undefined

  constructor(fetchToken: () => Promise<AccessToken>, now: () => number = Date.now, shared?: SharedTokens) {
    this.#fetchToken = fetchToken
    this.#now = now
    this.#shared = shared
  }

  /** A token that is valid now, fetching one when needed. */
  async get(): Promise<string> {
    const current = this.#current
    if (current === undefined || this.#expiresWithin(current, MANDATORY_REFRESH_MS, 10))
      return (await this.#refresh()).value
    if (this.#expiresWithin(current, ADVISORY_REFRESH_MS, 4)) this.#refreshInBackground()
    return current.value
  }

  /**
   * Drops `value` after the API refused it. A token that was already replaced is left alone, so
   * that many requests refused together cause one new token, not one each.
   */
  invalidate(value: string): void {
    if (this.#current?.value === value) this.#current = undefined
    this.#refused = value
    this.#shared?.store.delete(this.#shared.key, value).catch(() => {})
  }

  /** A new token (from the shared store when there is one, else fetched here), kept as the current one. */
  #refresh(): Promise<AccessToken> {
    const shared = this.#shared
    return this.#refreshing.run(true, () =>
      (shared === undefined ? this.#fetchToken() : this.#obtainShared(shared)).then((token) => {
        this.#current = token
        return token
      }),
    )
  }

  #refreshInBackground(): void {
    if (this.#refreshing.get(true) !== undefined) return
    if (this.#now() - this.#advisoryFailedAt < ADVISORY_RETRY_MS) return
    // A failed early refresh is not an error yet: the current token still works for a while.
    this.#refresh().catch(() => {
      this.#advisoryFailedAt = this.#now()
    })
  }

  async #obtainShared({
    store,
    key,
    pollInterval = 25,
    waitTimeout = 10_000,
  }: SharedTokens): Promise<AccessToken> {
    // The token being replaced (inside a refresh window) and a refused one are not what is looked for.
    const replaced = this.#current?.value
    const wanted = (token: StoredToken | undefined): token is StoredToken =>
      token !== undefined &&
      typeof token.value === 'string' &&
      token.value !== '' &&
      token.value !== replaced &&
      token.value !== this.#refused &&
      !this.#expiresWithin(token, MANDATORY_REFRESH_MS, 10)
    const deadline = this.#now() + waitTimeout
    let delay = pollInterval
    for (;;) {
      let lock: Awaited<ReturnType<TokenStore['lock']>>
      try {
        const held = await store.get(key)
        if (wanted(held)) return asAccessToken(held)
        lock = await store.lock(key)
      } catch {
        return this.#fetchToken()
      }
      if (lock !== undefined) {
        try {
          // Another instance may have stored a token between the look and the lock.
          const raced = await store.get(key).catch(() => undefined)
          if (wanted(raced)) return asAccessToken(raced)
          const token = await this.#fetchToken()
          await store.set(key, token).catch(() => {})
          return token
        } finally {
          await lock.release().catch(() => {})
        }
      }
      if (this.#now() >= deadline) return this.#fetchToken()
      await new Promise((resolve) => setTimeout(resolve, delay))
      delay = Math.min(delay * 2, pollInterval * 8)
    }
  }

  /**
   * Whether a token expires within `ms`, or within a `part`th of its lifetime when that is shorter: inside
   * its mandatory refresh window (or past its expiry) with `MANDATORY_REFRESH_MS` and 10.
   */
  #expiresWithin(token: StoredToken, ms: number, part: number): boolean {
    if (token.expiresAt === undefined) return false
    const lifetime = Math.max(0, token.expiresAt - token.issuedAt)
    return token.expiresAt - this.#now() <= Math.min(ms, lifetime / part)
  }
}

function asAccessToken(token: StoredToken): AccessToken {
  return { value: token.value, issuedAt: token.issuedAt, expiresAt: token.expiresAt }
}
