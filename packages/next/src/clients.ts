import { createClient, type VerifiedReviewsClient } from '@verified-reviews/core'
import { nextTagging } from './internal/tagged-client.ts'

/** Environment variables the clients are built from; a change of any builds new clients. */
const ENV_KEYS = [
  'VERIFIED_REVIEWS_ORIGIN',
  'VERIFIED_REVIEWS_CLIENT_ID',
  'VERIFIED_REVIEWS_CLIENT_SECRET',
  'VERIFIED_REVIEWS_WEBSITE_ID',
  'VERIFIED_REVIEWS_REVALIDATE',
] as const

/** Seconds review data stays fresh in the Next.js data cache when `VERIFIED_REVIEWS_REVALIDATE` is not set. */
export const DEFAULT_REVALIDATE = 3600

function env(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
}

/**
 * Seconds review data stays fresh: `VERIFIED_REVIEWS_REVALIDATE`, else one hour. A value that is not a
 * whole number of seconds throws, so a typo does not silently disable caching.
 */
export function revalidateSeconds(): number {
  const text = env().VERIFIED_REVIEWS_REVALIDATE
  if (text === undefined || text === '') return DEFAULT_REVALIDATE
  if (!/^[0-9]+$/.test(text)) {
    throw new RangeError(`VERIFIED_REVIEWS_REVALIDATE must be a whole number of seconds, not "${text}"`)
  }
  return Number(text)
}

interface Clients {
  key: string
  tagged: VerifiedReviewsClient
  fresh: VerifiedReviewsClient
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>

/**
 * The fetch Next.js patched, unpatched. Next.js caches a fetch without cache options during `next build`
 * in `.next/cache` (a token answer would be reused by the next build, expired) and a `no-store` fetch
 * turns a static page dynamic; requests that must reach the API, and token requests, bypass both.
 */
function unpatchedFetch(): Fetch {
  const current = globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch }
  return current._nextOriginalFetch ?? current
}

/** Reads with `next` options go through Next.js's fetch (its data cache); everything else does not. */
const cacheAwareFetch: Fetch = (input, init) =>
  'next' in init ? globalThis.fetch(input, init) : unpatchedFetch()(input, init)

const CLIENTS = Symbol.for('verified-reviews.next.clients')

function clients(): Clients {
  const key = ENV_KEYS.map((name) => env()[name] ?? '').join('\n')
  // On globalThis: Next.js may load this module in several bundles of one server process.
  const holder = globalThis as { [CLIENTS]?: Clients }
  const held = holder[CLIENTS]
  if (held?.key === key) return held
  const made: Clients = {
    key,
    tagged: createClient({ fetch: cacheAwareFetch, requestOptions: nextTagging(revalidateSeconds()) }),
    // The data cache would answer a sync with the pages it saw last time: syncs and writes bypass it.
    fresh: createClient({ fetch: (input, init) => unpatchedFetch()(input, init) }),
  }
  holder[CLIENTS] = made
  return made
}

/**
 * The client the components and the reviews route use, configured from the environment
 * (`VERIFIED_REVIEWS_ORIGIN`, `_CLIENT_ID`, `_CLIENT_SECRET`, `_WEBSITE_ID`): its reads go through the
 * Next.js data cache for `VERIFIED_REVIEWS_REVALIDATE` seconds, tagged with the `reviewTags` of the
 * products or shops they read. One client per process, so every render shares its token and rate
 * budget. Call it inside a `'use cache'` function rather than passing it in.
 */
export function reviewsClient(): VerifiedReviewsClient {
  return clients().tagged
}

/**
 * The same client without the Next.js data cache: every request reaches the API. Syncs, the build
 * prefetch and purchase events use it.
 */
export function freshReviewsClient(): VerifiedReviewsClient {
  return clients().fresh
}
