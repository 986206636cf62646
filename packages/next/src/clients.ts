import {
  type ClientOptions,
  defaultClient,
  readEnvironment,
  type VerifiedReviewsClient,
  type VerifiedReviewsEnvironment,
} from '@verified-reviews/core'
import { cacheKeyFetch } from './internal/cache-key-fetch.ts'
import { sharedState } from './internal/shared-client-state.ts'
import { nextTagging } from './internal/tagged-client.ts'

export {
  type SharedClientState,
  shareClientState,
  sharedClientState,
} from './internal/shared-client-state.ts'

/** Seconds review data stays fresh in the Next.js data cache when `VERIFIED_REVIEWS_REVALIDATE` is not set. */
export const DEFAULT_REVALIDATE = 3600

/**
 * Seconds review data stays fresh: `VERIFIED_REVIEWS_REVALIDATE`, else one hour. A value that is not a
 * whole number of seconds throws (a `ValidationError` naming the variable), so a typo does not silently
 * disable caching.
 */
export function revalidateSeconds(): number {
  return readEnvironment(process.env).revalidate ?? DEFAULT_REVALIDATE
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

/** The options and name of a default client of this package, with the state shared with other instances. */
function withShared(name: string, options: Omit<ClientOptions, 'tokenStore' | 'rateBudget'>) {
  const { generation, state } = sharedState()
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
  const environment = readEnvironment(process.env)
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
  return withShared('next-fresh', { fetch: nextFetch(readEnvironment(process.env)) })
}
