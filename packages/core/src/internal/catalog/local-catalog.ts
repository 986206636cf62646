import type { Language, ProductReview, ProductSummary, RatingCounts } from '../../types/published.ts'
import { sharedPromise, singleFlight } from '../base/single-flight.ts'
import { newestOf } from '../display/product-group.ts'
import { keptForm, sameKeptForm } from '../sync/kept-review.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import type { ReviewStore } from '../sync/store.ts'
import type { ProductReviewsSyncReport } from '../sync/sync-reviews.ts'
import { type FetchedReviews, fetchReviews, type ReviewPagesClient } from './fetch-reviews.ts'
import { fetchSummaries, type SummaryClient } from './fetch-summaries.ts'
import type { PrefetchProgress, PrefetchReport } from './prefetch-progress.ts'
import { planReviews, REVIEW_PAGE, type ReviewsPlan, reviewCount, totalReviews } from './review-plan.ts'

/** What a {@link ReviewsCatalog} needs of a client: `createClient()` satisfies it. */
export interface ReviewsCatalogClient {
  products: SummaryClient['products'] & ReviewPagesClient['products']
}

/** API calls a catalog made, by operation. */
export interface ReviewsCatalogCalls {
  /** `products.reviews.list` pages (the sync, or the named products' reviews). */
  reviews: number
  /** `products.list` pages (the summaries, which the ratings come from). */
  products: number
}

/** The first reviews of some products, newest first, as {@link ReviewsCatalog.newestReviews} reads them. */
export interface NewestReviews {
  data: ProductReview[]
  /** Reviews follow these. */
  more: boolean
}

/** A product's aggregate rating: what `ProductRating` and `ProductSummary.ratings` share. */
export interface CatalogRating extends RatingCounts {
  average: number
  count_total: number
}

/**
 * The review data of a build, fetched in bulk once and shared by every page: the product summaries
 * (one walk of `products.list`, 200 per page, or 200 named products per call), the ratings taken from
 * them (no call), the reviews (the sync of the account, 200 per page, or the named products' reviews,
 * whichever the summaries' review counts say is cheaper): the review components' source at build time
 * (`buildDataSource` of the internal entry `@verified-reviews/core/internal`). Concurrent callers share one fetch.
 */
export interface ReviewsCatalog {
  /**
   * The summaries of these products, or of the catalog's products (every product of the account when
   * it names none). A product the API does not know is absent from the map.
   */
  summaries(productIds?: readonly string[]): Promise<Map<string, ProductSummary>>
  /**
   * Ratings of these products, from their summaries (products the catalog does not name are
   * summarized by 200 per call). A product without reviews is absent from the map.
   */
  ratings(productIds: readonly string[]): Promise<Map<string, CatalogRating>>
  /** The reviews of a product, newest published first (fetches the reviews on first use). */
  reviews(productId: string): Promise<ProductReview[]>
  /**
   * The newest `limit` reviews of these products together (a product, or a group's variations), newest
   * published first, ties by review id, and whether more follow: what a first page shows. A catalog over
   * a store with an index reads those alone; without this method, `reviews` of each product is read in full.
   */
  newestReviews?(productIds: readonly string[], limit: number): Promise<NewestReviews>
  /** What the fetch did: the closing line of a build (`describePrefetchReport`). Fetches the reviews. */
  report(): Promise<PrefetchReport>
  /** The report of the sync, once reviews are fetched; undefined when they were the named products'. */
  syncReport(): Promise<ProductReviewsSyncReport | undefined>
  /** Calls made so far. */
  calls(): ReviewsCatalogCalls
}

/** Options of an in-process catalog. */
export interface LocalCatalogOptions {
  /** The client that fetches summaries and reviews. */
  client: ReviewsCatalogClient
  /**
   * The products the build names (`product_variation_id`): their summaries are fetched by 200 ids per
   * call, and their reviews alone when that costs fewer calls than the sync of every review; the build
   * data keeps only theirs. Without it every product of the account is read (`products.list`).
   * @default every product of the account
   */
  productIds?: readonly string[] | undefined
  /**
   * Where the sync keeps reviews. A store kept between runs (`createSqliteReviewStore`) makes every
   * run after the first an incremental sync (one call when fewer than 200 reviews arrived).
   * @default createMemoryReviewStore()
   */
  store?: ReviewStore<ProductReview> | undefined
  /**
   * Whether `store` outlives this run, so that a full sync now makes the later runs incremental: with
   * named products whose full sync's cost is unknown, the catalog then syncs rather than fetch the named
   * reviews. When it fetches the named reviews all the same (they cost fewer calls than a sync whose cost
   * is known), they go to `store` too, which records the products it holds (`SyncCheckpoint.products`):
   * later runs ask for those products' reviews newest first down to the first one held (one call per
   * 200 products when fewer than 200 reviews arrived), and fetch in full only products named since; a
   * sync of the account over such a store starts from scratch. `false` for a store each run starts
   * without (a Next.js build folder, which `next build` empties).
   * @default true when `store` is given
   */
  keptStore?: boolean | undefined
  /**
   * `false` when `store` has already been synced in this run (by a content loader, say): reviews are
   * then read from it without a call. Else how the sync walks: `mode: 'full'` walks every review again
   * (which finds reviews edited without a new publish date); `limit` reviews per call, 1 to 200.
   * @default { mode: 'auto', limit: 200 }
   */
  sync?: false | { mode?: 'auto' | 'full' | undefined; limit?: number | undefined } | undefined
  /**
   * The languages of the site's pages: `store` keeps the reviews in the form `keptReview` trims them
   * to, with the translations a page in these languages shows (`replicaLanguages` of
   * `syncProductReviews`, which also rebuilds a store kept in another form).
   * @default undefined: reviews are kept whole
   */
  replicaLanguages?: readonly Language[] | undefined
  /** Stops the fetch between two pages, and a wait for another process's fetch. */
  signal?: AbortSignal | undefined
  /**
   * Told each page of summaries and reviews, and the report at the end, in the process that fetches;
   * in a process that waits for another one's fetch, what it waits for (at once, then every 30
   * seconds). `prefetchProgressLog` writes them as lines.
   * @default undefined
   */
  onProgress?: ((progress: PrefetchProgress) => void) | undefined
}

/** A catalog that fetches in this process, its promises shared by every caller of the process. */
export function createLocalCatalog(options: LocalCatalogOptions): ReviewsCatalog {
  const { client, signal, onProgress } = options
  const named = options.productIds === undefined ? undefined : [...new Set(options.productIds)]
  const store = options.store ?? createMemoryReviewStore<ProductReview>()
  const calls: ReviewsCatalogCalls = { reviews: 0, products: 0 }

  const summaries = sharedPromise(async () => {
    const fetched = await fetchSummaries(client, named, {
      signal,
      onPage: (products, pages) => onProgress?.({ phase: 'summaries', products, calls: pages }),
    })
    calls.products += fetched.calls
    const byId = new Map(fetched.summaries.map((summary) => [summary.product_variation_id, summary]))
    // The catalog's products: the named ones (in their order), when a walk gave every product.
    const own =
      named === undefined || !fetched.all ? fetched.summaries : named.flatMap((id) => byId.get(id) ?? [])
    return { all: fetched.all, summaries: own, every: fetched.summaries, calls: fetched.calls, byId }
  })

  const fetched = sharedPromise(async (): Promise<{ reviews: FetchedReviews; plan: ReviewsPlan }> => {
    if (options.sync === false) {
      const plan: ReviewsPlan = { choice: 'incremental', batches: [], namedCalls: undefined, syncCalls: 0 }
      return { reviews: { store, calls: 0, received: 0, newReviews: 0, sync: undefined }, plan }
    }
    const { summaries: list, every, all } = await summaries()
    const checkpoint = await store.getCheckpoint()
    const kept = options.replicaLanguages === undefined ? undefined : keptForm(options.replicaLanguages)
    // A store of named products' reviews (`products`) is no sync of the account, whatever its phase.
    const incremental =
      options.sync?.mode !== 'full' &&
      checkpoint?.completedAt !== undefined &&
      checkpoint.phase !== 'full' &&
      checkpoint.products === undefined &&
      // A store kept in another form is rebuilt by a full walk.
      sameKeptForm(checkpoint.kept, kept)
    const keptStore = options.keptStore ?? options.store !== undefined
    // Named reviews go to a kept store that is empty or holds named reviews only: never over a sync's.
    const namedIntoStore =
      keptStore &&
      options.sync?.mode !== 'full' &&
      (checkpoint === undefined || (checkpoint.phase === 'idle' && checkpoint.products !== undefined))
    const plan = planReviews({
      summaries: all ? every : list,
      productIds: named,
      incremental,
      summarizedAll: all,
      keptStore,
      held: namedIntoStore && checkpoint !== undefined ? new Set(checkpoint.products) : undefined,
    })
    // The summaries' review counts, when they count what the fetch walks: every review, or the named
    // ones (not when some are held, and only those published since are walked).
    const expected =
      plan.choice === 'named' && (plan.heldBatches ?? []).length === 0
        ? totalReviews(list)
        : plan.choice === 'full' && checkpoint === undefined && all
          ? totalReviews(every)
          : undefined
    const reviews = await fetchReviews({
      client,
      plan,
      store,
      sync: options.sync === undefined ? undefined : options.sync,
      namedIntoStore,
      replicaLanguages: options.replicaLanguages,
      signal,
      onPage: (received, pages) =>
        onProgress?.({ phase: 'reviews', reviews: received, expected, calls: pages }),
    })
    calls.reviews += reviews.calls
    return { reviews, plan }
  })

  // Reviews of products the catalog does not name, asked for one at a time.
  const extraReviews = singleFlight<string, ProductReview[]>('success')
  const namedSet = new Set(named)
  const reviewsOf = async (productId: string): Promise<ProductReview[]> => {
    const { reviews, plan } = await fetched()
    if (plan.choice !== 'named' || namedSet.has(productId)) {
      return reviews.store.list(productId)
    }
    return extraReviews.run(productId, async () => {
      const summary = await summaryOf(productId)
      if (reviewCount(summary) === 0) return []
      const one = await fetchReviews({
        client,
        plan: { choice: 'named', batches: [[productId]], namedCalls: undefined, syncCalls: undefined },
        store,
        replicaLanguages: options.replicaLanguages,
        signal,
      })
      calls.reviews += one.calls
      return one.store.list(productId)
    })
  }

  // A first page through the store's index (the newest `limit` alone), where the store has one and
  // holds these products; else from every review of each.
  const newestReviews = async (productIds: readonly string[], limit: number): Promise<NewestReviews> => {
    const { reviews, plan } = await fetched()
    const held = plan.choice !== 'named' || productIds.every((id) => namedSet.has(id))
    const { store: read } = reviews
    if (held && read.query !== undefined) {
      const page = await read.query({ keys: productIds, order: 'newest', rates: [], limit })
      return { data: page.data, more: page.more }
    }
    return newestOf(await Promise.all(productIds.map(reviewsOf)), limit)
  }

  // Summaries of products the catalog does not name, 200 per call for those asked together.
  const extraSummaries = singleFlight<string, ProductSummary | undefined>('success')
  const summariesOf = async (productIds: readonly string[]): Promise<Map<string, ProductSummary>> => {
    const { byId } = await summaries()
    const found = new Map<string, ProductSummary>()
    const missing: string[] = []
    for (const id of new Set(productIds)) {
      const summary = byId.get(id)
      if (summary !== undefined) found.set(id, summary)
      else if (named !== undefined) missing.push(id)
    }
    const unasked = missing.filter((id) => extraSummaries.get(id) === undefined)
    if (unasked.length > 0) {
      const batch = fetchSummaries(client, unasked, { signal }).then((extra) => {
        calls.products += extra.calls
        return new Map(extra.summaries.map((summary) => [summary.product_variation_id, summary]))
      })
      for (const id of unasked) extraSummaries.run(id, () => batch.then((extra) => extra.get(id)))
    }
    for (const id of missing) {
      const summary = await extraSummaries.get(id)
      if (summary !== undefined) found.set(id, summary)
    }
    return found
  }
  const summaryOf = async (productId: string) => (await summariesOf([productId])).get(productId)

  const report = sharedPromise(async (): Promise<PrefetchReport> => {
    const { summaries: list, calls: summaryCalls } = await summaries()
    const { reviews, plan } = await fetched()
    let held = 0
    if (named === undefined) held = await reviews.store.count()
    else for (const id of named) held += (await reviews.store.list(id)).length
    const products = named?.length ?? list.length
    const result: PrefetchReport = {
      mode: reviews.sync?.mode ?? plan.choice,
      reviews: held,
      newReviews: reviews.newReviews,
      products: list.length,
      calls: { reviews: reviews.calls, summaries: summaryCalls },
      lowerBound:
        (reviews.calls === 0 ? 0 : Math.max(1, Math.ceil(reviews.received / REVIEW_PAGE))) +
        Math.ceil(products / REVIEW_PAGE),
      estimate: { named: plan.namedCalls, sync: plan.syncCalls },
    }
    onProgress?.({ phase: 'done', report: result })
    return result
  })

  return {
    summaries: async (productIds) =>
      productIds === undefined
        ? new Map((await summaries()).summaries.map((summary) => [summary.product_variation_id, summary]))
        : summariesOf(productIds),
    ratings: async (productIds) => ratingsOf(await summariesOf(productIds)),
    reviews: reviewsOf,
    newestReviews,
    report,
    syncReport: async () => (await fetched()).reviews.sync,
    calls: () => ({ ...calls }),
  }
}

/** The ratings of summarized products, those without reviews left out. */
export function ratingsOf(summaries: Map<string, ProductSummary>): Map<string, CatalogRating> {
  const found = new Map<string, CatalogRating>()
  for (const [id, summary] of summaries) {
    if (summary.ratings !== undefined && summary.ratings.count_total > 0) found.set(id, summary.ratings)
  }
  return found
}
