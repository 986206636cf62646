import { prefetchProgressLog } from '@verified-reviews/core/prefetch'
import { observePages, type PagedLister } from '@verified-reviews/core/sync'

const count = new Intl.NumberFormat('en-US')

/** API calls a build made through the integration's client, by the data they fetched. */
export interface BuildCalls {
  /** `products.*` operations: reviews, summaries, ratings, structured data. */
  product: number
  /** `brands.*` operations: statistics and reviews of the brand and its shops. */
  brand: number
  /** Any other API (legacy, Genesis). */
  other: number
}

/** A fresh tally, for a new build. */
export function emptyCalls(): BuildCalls {
  return { product: 0, brand: 0, other: 0 }
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** Whether a request asks for an OAuth token (every token request sends `grant_type`): no API call. */
function isTokenRequest(init: RequestInit): boolean {
  return typeof init.body === 'string' && new URLSearchParams(init.body).has('grant_type')
}

/**
 * `fetch` that counts the API requests it sends in the build's tally (token requests aside; answers
 * served from the client's cache never reach it), by the first segment of the operation's path.
 * `tally` is read at each request, so a new build's tally counts from then on.
 */
export function countingFetch(inner: Fetch | undefined, tally: () => BuildCalls): Fetch {
  return (input, init) => {
    if (!isTokenRequest(init)) {
      const calls = tally()
      const path = new URL(input).pathname
      if (path.includes('/products')) calls.product++
      else if (path.includes('/brands')) calls.brand++
      else calls.other++
    }
    return inner === undefined ? globalThis.fetch(input, init) : inner(input, init)
  }
}

/**
 * `lister` whose pages are told to `log` as progress lines of the same format (the brand review sync,
 * whose total is not known beforehand).
 */
export function reportedLister<T, P>(
  lister: PagedLister<T, P>,
  log: (line: string) => void,
): PagedLister<T, P> {
  const progress = prefetchProgressLog(log)
  let reviews = 0
  let calls = 0
  return observePages(lister, (page) => {
    reviews += page.data.length
    calls++
    progress({ phase: 'reviews', reviews, expected: undefined, calls })
  })
}

/**
 * The closing line of a build: every API call through the integration's client (loaders, components,
 * injection), by data. The product data's calls against their lower bound are in the line of the
 * build's catalog before it (`build data ready: …`), as in a Next.js build.
 *
 * For the astro-demo: `API calls: 28 in all (16 for product data, 12 for brand data)`.
 */
export function describeBuildCalls(calls: BuildCalls): string {
  const parts = [
    `${count.format(calls.product)} for product data`,
    ...(calls.brand > 0 ? [`${count.format(calls.brand)} for brand data`] : []),
    ...(calls.other > 0 ? [`${count.format(calls.other)} for other data`] : []),
  ]
  const total = calls.product + calls.brand + calls.other
  return `API calls: ${count.format(total)} in all (${parts.join(', ')})`
}
