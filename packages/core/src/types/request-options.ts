// The options and events of one request, public through `client/client.ts`: they live in the types
// layer, below the transport that reads them, so that the transport never imports the client.
import type { APIConnectionError, APIError, RateLimitError } from '../internal/base/errors.ts'
import type { CacheErrorContext } from '../internal/cache/read-through.ts'
import type { CacheStore } from '../internal/cache/store.ts'

/**
 * Options passed through to `fetch` with every API request, such as Next.js's
 * `{ next: { revalidate: 3600, tags: ['reviews'] } }` or `{ cache: 'force-cache' }`.
 * `method`, `headers`, `body` and `signal` are the client's own.
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'> &
  Record<string, unknown>

/** A retry the client is about to make after a failure (429 aside: see {@link RateLimitEvent}). */
export interface RetryEvent {
  /** 1 for the first retry of this request. */
  attempt: number
  /** Milliseconds the client is about to wait before retrying. */
  delay: number
  /** Why: a 5xx answer, a timeout, a failed connection or a body cut short. */
  error: APIError | APIConnectionError
  method: string
  /** The address requested, its credentials (the Genesis `token`, any secret) shown as `[REDACTED]`. */
  url: string
}

/** A wait the client is about to make because of a rate limit. */
export interface RateLimitEvent {
  /**
   * `refused`: the API answered 429 and the client is about to retry. `budget`: the client's rate
   * budget gives the request a later turn (requests are spaced to stay under the limits the API's
   * rate-limit headers tell, and stopped after a 429 or a spent window), so it waits before sending.
   */
  reason: 'refused' | 'budget'
  /** Milliseconds the client is about to wait (for `budget`, as things stand when the wait starts). */
  delay: number
  /** Retries already made for this request. */
  attempt: number
  /** The 429, when `reason` is `refused`. */
  error?: RateLimitError
  method: string
  /** The address requested, its credentials (the Genesis `token`, any secret) shown as `[REDACTED]`. */
  url: string
}

/** How the answers of a call are cached. Durations are in seconds, as in `Cache-Control`. */
export interface RequestCacheOptions {
  /**
   * Seconds an answer stays fresh: served from the store without a request.
   * @default the client's, else 300
   */
  ttl?: number
  /**
   * Seconds after `ttl` during which a stale answer is served at once while one background request
   * refreshes it.
   * @default the client's, else 0
   */
  staleWhileRevalidate?: number
  /**
   * Seconds after `ttl` during which a stale answer is served instead of an error when the API fails.
   * @default the client's, else 86_400 (one day)
   */
  staleIfError?: number
  /**
   * Tags stored with the answers (added to the client's), so that `store.deleteByTag(tag)` drops them.
   * @default []
   */
  tags?: readonly string[]
}

/** The client's cache of GET answers (see `@verified-reviews/core/cache`). */
export interface CacheOptions extends RequestCacheOptions {
  /** Where answers are kept: `createMemoryCache()`, or a shared store such as Redis. */
  store: CacheStore
  /**
   * Receives cache errors that do not reach the caller (a failed background refresh, a store that
   * failed to read or write).
   * @default errors are dropped
   */
  onError?: (error: unknown, context: CacheErrorContext) => void
}

/** Options of one call, the last argument of every operation. They override the client's options. */
export interface RequestOptions {
  /** Aborts the call, its retries and its waits; it then rejects with `APIUserAbortError`. */
  signal?: AbortSignal
  /**
   * Milliseconds one attempt may take, from sending to the last byte of the answer.
   * @default the client's `timeout`
   */
  timeout?: number
  /**
   * Milliseconds each request of the call may take in all, token and waits included (see `totalTimeout`
   * of `createClient`).
   * @default the client's `totalTimeout`
   */
  totalTimeout?: number
  /**
   * Retries after a 429, a 5xx, a timeout or a failed connection.
   * @default the client's `maxRetries`
   */
  maxRetries?: number
  /**
   * Passed through to `fetch`, over the client's `fetchOptions`.
   * @default the client's `fetchOptions`
   */
  fetchOptions?: FetchOptions
  /**
   * Extra request headers, over the client's `headers`.
   * @default undefined
   */
  headers?: Record<string, string>
  /**
   * `false` sends this call to the API even when the client has a cache; an object overrides the
   * cache settings for this call. Only GET answers are cached.
   * @default the client's cache settings
   */
  cache?: false | RequestCacheOptions
  /**
   * Marks the call as driven by a visitor (a public route, such as the reviews endpoint, which sets it):
   * its requests go before the client's other waiting requests, but together such requests take at most
   * `visitorShare` of the client's rate budget. A request beyond that share is not queued: the call
   * throws a `RateShareError` at once. Needs rate-limit headers from the API (before the first answer
   * tells the limits, the request waits its turn as any other).
   * @default false
   */
  visitor?: boolean
  /**
   * Share of the client's rate budget (more than 0, at most 1) that visitor-driven requests may take
   * together, in each rate window and of what the API says is left of the current one: the rest is kept
   * for the site's own calls (page rendering, sync). Read only with `visitor: true`.
   * @default 0.5
   */
  visitorShare?: number
}
