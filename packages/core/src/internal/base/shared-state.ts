/**
 * What several instances of a site (servers, serverless functions, build workers) can share through a
 * store such as Redis (`@verified-reviews/redis`): the access token, the rate budget and short locks.
 * Every method may fail (the store is down): the client then falls back to its own state for that
 * call, so a page still renders.
 */

/** A short lock taken in a shared store. A lock whose holder dies expires by itself. */
export interface SharedLock {
  /** Frees the lock at once, if this instance still holds it. */
  release(): Promise<void>
}

/** An access token as a {@link TokenStore} keeps it. Times are milliseconds since the epoch. */
export interface StoredToken {
  value: string
  issuedAt: number
  /** Undefined when the token endpoint did not say: the token is then kept until it is refused. */
  expiresAt?: number | undefined
}

/**
 * Where the clients of several instances keep one access token per API and account, so that N
 * instances fetch one token, not N. Keys name an API and an account; they hold no secret.
 */
export interface TokenStore {
  /** The token stored under `key`, or undefined when there is none (or it expired). */
  get(key: string): Promise<StoredToken | undefined>
  /** Stores `token` under `key` until it expires. */
  set(key: string, token: StoredToken): Promise<void>
  /** Drops the token under `key` if its value is still `value` (the API refused it). */
  delete(key: string, value: string): Promise<void>
  /**
   * Takes the lock of `key` for the one instance that fetches a new token, or resolves undefined
   * when another instance holds it (this one then waits for the token that instance stores).
   */
  lock(key: string): Promise<SharedLock | undefined>
}

/** The part of an answer a rate budget learns from. */
export interface RateBudgetAnswer {
  /** The HTTP status; 0 when the request got no answer (a failed connection, a timeout) or was not sent. */
  status: number
  headers: Headers
}

/**
 * A rate budget shared by the clients of several instances, so that together they stay under the
 * API's limit. It is consulted before each request, in addition to the client's own budget; taking
 * from it must be atomic (one script, not a read then a write).
 */
export interface SharedRateBudget {
  /**
   * Takes one request from the budget of `key` (an API and an account) and resolves 0, or resolves
   * how many milliseconds to wait before asking again when the budget is spent.
   */
  reserve(key: string): Promise<number>
  /**
   * Tells the budget how a request it let go ended: its status and rate-limit headers. Each `reserve`
   * that resolved 0 is followed by exactly one `settle` of its key, so the budget can count the
   * requests still under way.
   */
  settle(key: string, answer: RateBudgetAnswer): Promise<void>
}
