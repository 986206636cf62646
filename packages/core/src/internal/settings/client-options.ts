// The options of `createClient` (public through `client.ts`), below the client: the context need not import it.
import type { RequestOptionsHook } from '../../types/operations.ts'
import type { CacheOptions, FetchOptions, RateLimitEvent, RetryEvent } from '../../types/request-options.ts'
import type { SharedRateBudget, TokenStore } from '../base/shared-state.ts'
import type { CacheStore } from '../cache/store.ts'

/** Options of `createClient`. Every one is optional. */
export interface ClientOptions {
  /**
   * Client id of the API credentials (merchant account console).
   * @default process.env.VERIFIED_REVIEWS_CLIENT_ID
   */
  clientId?: string
  /**
   * Client secret of the API credentials.
   * @default process.env.VERIFIED_REVIEWS_CLIENT_SECRET
   */
  clientSecret?: string
  /**
   * One origin (`http://127.0.0.1:4010`) that replaces the scheme, host and port of every default
   * address, keeping its path: how to point the whole client at the sandbox or a proxy.
   * @default process.env.VERIFIED_REVIEWS_ORIGIN, else the production addresses
   */
  origin?: string
  /**
   * Secret of the key (HKDF, then HMAC-SHA-256) that signs the review cursors the site hands out, so the
   * reviews endpoint and components accept only the site's own. The same for every client of one site;
   * 16 characters or more, random is best (`openssl rand -base64 32`). Without it the key derives from
   * the client credentials through PBKDF2-SHA-256 (600,000 iterations, some 100 ms once per process).
   * @default process.env.VERIFIED_REVIEWS_CURSOR_SECRET, else a key derived from `clientSecret`
   */
  cursorSecret?: string
  /**
   * Base address of the Published API.
   * @default 'https://api.skeepers.io/verified-reviews/v1/published'
   */
  publishedUrl?: string
  /**
   * Token endpoint of the Published API.
   * @default 'https://auth.skeepers.io/realms/skeepers/protocol/openid-connect/token'
   */
  publishedTokenUrl?: string
  /**
   * Base address of the purchase events service.
   * @default 'https://api.skeepers.io/purchase-event/'
   */
  purchaseEventsUrl?: string
  /**
   * Token endpoint of the purchase events service.
   * @default 'https://auth.skeepers.io/am/oauth2/alpha/access_token'
   */
  purchaseEventsTokenUrl?: string
  /**
   * Base address of the legacy Product Reviews API.
   * @default 'https://api-product-reviews.rr.skeepers.io/v1'
   */
  legacyUrl?: string
  /**
   * Base address of the Genesis API. Genesis addresses differ per account: set the one of yours.
   * @default 'https://api.skeepers.io/genesis'
   */
  genesisUrl?: string
  /**
   * Website id (uuid): the default `websiteId` of purchase events, legacy and Genesis calls.
   * @default process.env.VERIFIED_REVIEWS_WEBSITE_ID
   */
  websiteId?: string
  /**
   * Secret key of the Genesis API, from which the daily Genesis token is derived.
   * @default process.env.VERIFIED_REVIEWS_GENESIS_SECRET
   */
  genesisSecret?: string
  /**
   * The fetch function to call.
   * @default globalThis.fetch, looked up at each call (so a fetch patched in later, as Next.js does, is used)
   */
  fetch?: (input: string, init: RequestInit) => Promise<Response>
  /**
   * Milliseconds one attempt may take, from sending to the last byte of the answer.
   * @default 30_000
   */
  timeout?: number
  /**
   * Milliseconds each request may take in all (token, rate-budget waits, attempts, waits between them).
   * A wait that would end past it is not started: the request throws an `APITimeoutError` with `limit`
   * `'totalTimeout'` and the last failure as `cause`. `Infinity` turns it off.
   * @default 60_000
   */
  totalTimeout?: number
  /**
   * Retries after a 429, a 5xx, a timeout, a failed connection or a body cut short. Other 4xx
   * answers are never retried. Batches of purchase events are retried too, which creates no second
   * event only if the service keeps one per `purchase_reference` (the spec does not promise it):
   * `purchaseEvents.submit({ events, retry: false })` sends each batch once.
   * @default 2
   */
  maxRetries?: number
  /**
   * The longest wait, in milliseconds, the client accepts before a retry or for a rate budget. When the
   * API asks for longer (`Retry-After`, else `RateLimit-Reset`), it throws at once (a `RateLimitError`
   * with `retryAfter` for a 429).
   * @default 30_000
   */
  maxRetryWait?: number
  /**
   * The largest answer body read, in bytes. The body is read as a stream and reading stops past
   * this size: the request throws a `ResponseTooLargeError` (never retried).
   * @default 10_485_760 (10 MiB)
   */
  maxResponseBytes?: number
  /**
   * Aborts every call of this client.
   * @default undefined
   */
  signal?: AbortSignal
  /**
   * Passed through to `fetch` with every API request (not token requests), such as Next.js's
   * `{ next: { revalidate: 3600, tags: ['reviews'] } }`.
   * @default undefined
   */
  fetchOptions?: FetchOptions
  /**
   * Extra headers of every API request.
   * @default undefined
   */
  headers?: Record<string, string>
  /**
   * Most requests a single call sends at once (bulk ratings split into chunks of 200).
   * @default 4
   */
  maxConcurrency?: number
  /**
   * Called before each retry that is not caused by a 429. Return `false` to give up: the call then
   * throws the error that caused the retry.
   * @default undefined
   */
  onRetry?: (event: RetryEvent) => boolean | undefined | Promise<boolean | undefined>
  /**
   * Called before each wait caused by a rate limit: a 429, or a budget the rate-limit headers say
   * is spent. Return `false` to give up instead of waiting (a build may prefer to fail fast): the
   * call then throws a `RateLimitError`.
   * @default undefined
   */
  onRateLimit?: (event: RateLimitEvent) => boolean | undefined | Promise<boolean | undefined>
  /**
   * Caches successful GET answers in a store, with stale-while-revalidate, stale-if-error and
   * single-flight (concurrent identical reads make one request). A store alone uses the default durations.
   * @default undefined (nothing is cached)
   */
  cache?: CacheStore | CacheOptions
  /**
   * Where several instances keep one access token per API, so that N instances fetch one token, not N:
   * `createRedisTokenStore()` of `@verified-reviews/redis`, or any {@link TokenStore}. A store that
   * fails is left aside for that refresh: the client fetches its own token.
   * @default undefined (each client fetches and keeps its own token)
   */
  tokenStore?: TokenStore
  /**
   * A rate budget several instances share to stay together under the API's limit, taken from besides
   * the client's own: `createRedisRateBudget()` of `@verified-reviews/redis`, or any
   * {@link SharedRateBudget}. A budget that fails is left aside for that request.
   * @default undefined (each client keeps its own budget)
   */
  rateBudget?: SharedRateBudget
  /**
   * Sees each call of an operation once, after its parameters are checked, and gives it request options
   * (Next.js's `next.tags`, headers, cache tags, a timeout) for every request of the call but token
   * requests. Its answer is laid over the caller's `options`: `fetchOptions` and `headers` entry by entry,
   * `cache` setting by setting, the rest whole. Testing `operation` narrows `params`.
   *
   * @example
   * ```ts
   * createClient({
   *   requestOptions: ({ operation, params }) =>
   *     operation === 'products.reviews.list'
   *       ? { cache: { tags: [`product:${params.product_variation_id}`] } }
   *       : undefined,
   * })
   * ```
   * @default undefined (calls keep the options their caller passed)
   */
  requestOptions?: RequestOptionsHook
}
