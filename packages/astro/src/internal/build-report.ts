import type { ProductReview, ProductSummary } from '@verified-reviews/core'
import type { ReviewsCatalogClient } from '@verified-reviews/core/inject'
import { prefetchProgressLog } from '@verified-reviews/core/prefetch'
import type { ReviewStore } from '@verified-reviews/core/sync'
import { shared } from './shared.ts'

/** Reviews and products per call of the bulk operations: the unit of the lower bound. */
const PER_CALL = 200

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

/** What a build fetched, for the lower bound of its calls. */
export interface BuildFetched {
  calls: BuildCalls
  /** The product review sync of this build (a loader's or the catalog's), if one ran. */
  productSync: { reviews: number; calls: number } | undefined
  /** Most products whose summaries or ratings the build asked for at once. */
  products: number
}

/** A fresh tally, for a new build. */
export function emptyFetched(): BuildFetched {
  return { calls: { product: 0, brand: 0, other: 0 }, productSync: undefined, products: 0 }
}

/** Records that the build asked for the summaries or ratings of `products` products. */
export function recordProducts(products: number): void {
  const fetched = shared().fetched
  fetched.products = Math.max(fetched.products, products)
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** Whether a request asks for an OAuth token (every token request sends `grant_type`): no API call. */
function isTokenRequest(init: RequestInit): boolean {
  return typeof init.body === 'string' && new URLSearchParams(init.body).has('grant_type')
}

/**
 * `fetch` that counts the API requests it sends in the build's tally (token requests aside; answers
 * served from the client's cache never reach it), by the first segment of the operation's path.
 */
export function countingFetch(inner: Fetch | undefined): Fetch {
  return (input, init) => {
    if (!isTokenRequest(init)) {
      const { calls } = shared().fetched
      const path = new URL(input).pathname
      if (path.includes('/products')) calls.product++
      else if (path.includes('/brands')) calls.brand++
      else calls.other++
    }
    return inner === undefined ? globalThis.fetch(input, init) : inner(input, init)
  }
}

/** One page of a review list, as much of it as a sync needs. */
interface ReviewPage<T> {
  data: T[]
  hasNextPage(): boolean
  getNextPage(): Promise<ReviewPage<T>>
  nextCursor?: string | undefined
}

/** A review list operation, as the syncs call it (with `{ cache: false }`, passed on). */
interface ReviewLister<T, P> {
  list(params: P, options?: { cache: false }): PromiseLike<ReviewPage<T>>
}

/** One page of `products.list`, as much of it as the expected count needs. */
interface SummaryPage {
  data: ProductSummary[]
  hasNextPage(): boolean
  getNextPage(): Promise<SummaryPage>
}

/** What the expected count of a first sync needs of a client: `createClient()` satisfies it. */
export interface SummaryClient {
  products: { list(params: { limit: number }): PromiseLike<SummaryPage> }
}

/**
 * The reviews of every product of the account, from the review counts of their summaries (one walk of
 * `products.list`, 200 per call, the walk the catalog and the ratings loader make with the same client
 * and its cache); undefined when the walk fails, which the sync then reports on its own.
 */
export async function expectedReviews(client: SummaryClient): Promise<number | undefined> {
  try {
    let page = await client.products.list({ limit: PER_CALL })
    let reviews = 0
    let products = 0
    for (;;) {
      for (const summary of page.data) reviews += summary.ratings?.count_total ?? 0
      products += page.data.length
      if (!page.hasNextPage()) break
      page = await page.getNextPage()
    }
    recordProducts(products)
    return reviews
  } catch {
    return undefined
  }
}

/** Options of {@link reportedSync}. */
export interface ReportedSyncOptions {
  /** Where progress lines go: `reviews 1,000/3,000, 5 calls`. */
  log: (line: string) => void
  /** The store the sync fills: without a checkpoint (or with `full`) the sync is a full one. */
  store: Pick<ReviewStore<ProductReview>, 'getCheckpoint'>
  mode: 'auto' | 'full'
  /** Gives the reviews a full sync is expected to receive; not asked for an incremental sync. */
  expected?: () => Promise<number | undefined>
  /** Whether this is the product review sync, whose reviews count in the build's lower bound. */
  product: boolean
}

/**
 * `lister` whose pages are reported as they arrive: progress lines (the first page, each quarter of the
 * expected reviews, then at most one every 10 seconds) in the format of the Next.js build prefetch, and,
 * for the product reviews, the reviews and calls the build's lower bound counts.
 */
export function reportedLister<T, P>(
  lister: ReviewLister<T, P>,
  options: ReportedSyncOptions,
): ReviewLister<T, P> {
  const progress = prefetchProgressLog(options.log)
  let expected: number | undefined
  let asked = false
  let reviews = 0
  let calls = 0
  const onPage = (page: ReviewPage<T>): ReviewPage<T> => {
    reviews += page.data.length
    calls++
    if (options.product) shared().fetched.productSync = { reviews, calls }
    progress({ phase: 'reviews', reviews, expected, calls })
    return {
      data: page.data,
      nextCursor: page.nextCursor,
      hasNextPage: () => page.hasNextPage(),
      getNextPage: async () => onPage(await page.getNextPage()),
    }
  }
  return {
    list: async (params, requestOptions) => {
      if (!asked && options.expected !== undefined) {
        asked = true
        // Asked alongside the first page, not before it: the count is shown once it is known.
        const full = options.mode === 'full' || (await options.store.getCheckpoint()) === undefined
        if (full) {
          void options.expected().then((value) => {
            expected = value
          })
        }
      }
      return onPage(await lister.list(params, requestOptions))
    },
  }
}

/** `products.list` pages whose summaries are counted in the build's products as they arrive. */
function countedSummaries(first: PromiseLike<SummaryPage>): Promise<SummaryPage> {
  let products = 0
  const onPage = (page: SummaryPage): SummaryPage => {
    products += page.data.length
    recordProducts(products)
    return {
      data: page.data,
      hasNextPage: () => page.hasNextPage(),
      getNextPage: async () => onPage(await page.getNextPage()),
    }
  }
  return Promise.resolve(first).then(onPage)
}

/**
 * The client of the build's catalog: its review sync reports progress to `log` (with the reviews a
 * first sync expects, from the product summaries) and counts in the lower bound, as do its summaries.
 */
export function reportedCatalogClient(
  client: ReviewsCatalogClient,
  options: { store: Pick<ReviewStore<ProductReview>, 'getCheckpoint'>; log: (line: string) => void },
): ReviewsCatalogClient {
  return {
    products: {
      reviews: reportedLister(client.products.reviews, {
        log: options.log,
        store: options.store,
        mode: 'auto',
        expected: () => expectedReviews(client),
        product: true,
      }),
      list: (params) => countedSummaries(client.products.list(params)),
    },
  }
}

/**
 * The closing line of a build: the API calls of the product data against their lower bound,
 * ceil(reviews fetched / 200) + ceil(products / 200), then the calls for other data.
 *
 * For the astro-demo: `API calls: 17 (lower bound 16) for the product data of 60 products and 3,000 reviews
 * fetched; 12 for brand data, 29 in all`.
 */
export function describeBuildCalls(fetched: BuildFetched): string {
  const { calls, productSync, products } = fetched
  const syncBound = productSync === undefined ? 0 : Math.max(1, Math.ceil(productSync.reviews / PER_CALL))
  const lowerBound = syncBound + Math.ceil(products / PER_CALL)
  const data = [
    `${count.format(products)} product${products === 1 ? '' : 's'}`,
    ...(productSync === undefined
      ? []
      : [`${count.format(productSync.reviews)} review${productSync.reviews === 1 ? '' : 's'} fetched`]),
  ].join(' and ')
  const others = [
    ...(calls.brand > 0 ? [`${count.format(calls.brand)} for brand data`] : []),
    ...(calls.other > 0 ? [`${count.format(calls.other)} for other data`] : []),
  ]
  const total = calls.product + calls.brand + calls.other
  return (
    `API calls: ${count.format(calls.product)} (lower bound ${count.format(lowerBound)}) for the product data ` +
    `of ${data}` +
    (others.length === 0 ? '' : `; ${others.join(', ')}, ${count.format(total)} in all`)
  )
}
