import {
  type ClientOptions,
  defaultClient,
  readEnvironment,
  type VerifiedReviewsClient,
  type VerifiedReviewsEnvironment,
} from '@verified-reviews/core'
import { type ProductReplica, processState } from '@verified-reviews/core/internal'
import { cacheKeyFetch } from './internal/cache-key-fetch.ts'
import { nextTagging } from './internal/tagged-client.ts'

/** Seconds review data stays fresh in the Next.js data cache when `VERIFIED_REVIEWS_REVALIDATE` is not set. */
export const DEFAULT_REVALIDATE = 3600

/**
 * Seconds review data stays fresh: `VERIFIED_REVIEWS_REVALIDATE`, else one hour. A value that is not a
 * whole number of seconds throws (a `ValidationError` naming the variable), so a typo does not silently
 * disable caching.
 */
export function revalidateSeconds(): number {
  return readEnvironment().revalidate ?? DEFAULT_REVALIDATE
}

/**
 * Next.js's fetch, with each request's caching said in the documented way: a read with Next.js options
 * (`next.tags` and `next.revalidate`, set by the tagging hook) goes to its data cache as it is; every
 * other request (token requests, syncs, the build prefetch, purchase events) is sent with
 * `cache: 'no-store'`, which Next.js never caches. Without it, `next build` would keep token answers and
 * sync pages in `.next/cache` and hand them to the next build. The fetch is looked up at each request,
 * so that the one Next.js patches in is the one used.
 */
function nextFetch(environment: VerifiedReviewsEnvironment) {
  // The account a cached read belongs to (the one of the client built for this environment), in its
  // cache key instead of its token.
  const account = encodeURIComponent(`${environment.origin ?? ''} ${environment.clientId ?? ''}`)
  return cacheKeyFetch(
    (input, init) => globalThis.fetch(input, 'next' in init ? init : { cache: 'no-store', ...init }),
    () => account,
  )
}

/** What the clients of this package may share with the other instances of a site. */
export type SharedClientState = Pick<ClientOptions, 'tokenStore' | 'rateBudget'> & {
  /**
   * The site's replica of the account that every instance reads and the revalidate route syncs
   * (`createRedisReplica()` of `@verified-reviews/redis`). Without it, instances that share a token or
   * a rate budget read the API rather than a replica of their own, which the others would not see.
   */
  replica?: ProductReplica | undefined
}

interface Shared {
  /** Counts the calls of {@link shareClientState}, so that each call's clients are built anew. */
  generation: number
  state: SharedClientState
}

// On globalThis: instrumentation.ts and the routes are bundled apart, in one process (this and every other
// state kept on globalThis are listed in core's internal/process-state.ts).
const SHARED = Symbol.for('verified-reviews.next.shared-client-state')

const shared = (): Shared => processState(SHARED, () => ({ generation: 0, state: {} }))

/**
 * Makes the clients of this package (the components, the reviews route, the revalidate route, the
 * build prefetch, purchase events) share their access token and rate budget with the other instances
 * of the site, through the stores given: on several servers, N instances then fetch one token, not N,
 * and together stay under the API's limit. Call it once per server process, before the first request:
 * in `register()` of `instrumentation.ts`. The clients built before it are replaced. With `replica`,
 * every instance reads the reviews from that one replica (filled from the build's store on first use,
 * synced by the revalidate route), and no render calls the API.
 *
 * @example
 * ```ts
 * // instrumentation.ts
 * export async function register() {
 *   if (process.env.NEXT_RUNTIME !== 'nodejs') return
 *   const { shareClientState } = await import('@verified-reviews/next/advanced')
 *   const { createRedisConnection, createRedisReplica, redisClientOptions } = await import('@verified-reviews/redis')
 *   const redis = createRedisConnection()
 *   shareClientState({ ...redisClientOptions(redis, { cache: false }), replica: createRedisReplica(redis) })
 * }
 * ```
 */
export function shareClientState(state: SharedClientState): void {
  const current = shared()
  const next: SharedClientState = {}
  if (state.tokenStore !== undefined) next.tokenStore = state.tokenStore
  if (state.rateBudget !== undefined) next.rateBudget = state.rateBudget
  if (state.replica !== undefined) next.replica = state.replica
  current.generation++
  current.state = next
}

/** The options and name of a default client of this package, with the state shared with other instances. */
/** What {@link shareClientState} was given; empty before (one instance on its own). */
export function sharedClientState(): SharedClientState {
  return shared().state
}

function withShared(name: string, options: Omit<ClientOptions, 'tokenStore' | 'rateBudget'>) {
  const { generation, state } = shared()
  const { replica: _replica, ...clientState } = state
  return defaultClient({
    ...options,
    ...clientState,
    name: generation === 0 ? name : `${name}#${generation}`,
  })
}

/**
 * The client the components and the reviews route use, configured from the environment
 * (`VERIFIED_REVIEWS_ORIGIN`, `_CLIENT_ID`, `_CLIENT_SECRET`, `_WEBSITE_ID`, read by the core's
 * settings resolver): its reads go through the Next.js data cache for `VERIFIED_REVIEWS_REVALIDATE`
 * seconds, tagged with the `reviewTags` of the products or shops they read; its token requests are
 * never cached. One client per process (the core's `defaultClient`), so every render shares its token
 * and rate budget (and the other instances too, after {@link shareClientState}). Call it inside a `'use cache'` function rather than passing it in.
 */
export function reviewsClient(): VerifiedReviewsClient {
  const environment = readEnvironment()
  return withShared('next', {
    fetch: nextFetch(environment),
    requestOptions: nextTagging(environment.revalidate ?? DEFAULT_REVALIDATE),
  })
}

/**
 * The same client without the Next.js data cache: every request is sent with `cache: 'no-store'` and
 * reaches the API. Syncs, the build prefetch and purchase events use it.
 */
export function freshReviewsClient(): VerifiedReviewsClient {
  return withShared('next-fresh', { fetch: nextFetch(readEnvironment()) })
}
