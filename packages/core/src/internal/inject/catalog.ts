import type { ProductListParams, ProductRatingListParams } from '../../resources/products.ts'
import type { ProductRating, ProductReview, ProductSummary, RatingCounts } from '../../types/published.ts'
import { MAX_VALUES } from '../query.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import type { ReviewStore } from '../sync/store.ts'
import {
  type ProductReviewsClient,
  type ProductReviewsSyncReport,
  syncProductReviews,
} from '../sync/sync-reviews.ts'

/** One page of `products.list`, as much of it as the catalog needs. */
interface SummaryPage {
  data: ProductSummary[]
  hasNextPage(): boolean
  getNextPage(): Promise<SummaryPage>
}

/** What a {@link ReviewsCatalog} needs of a client: `createClient()` satisfies it. */
export interface ReviewsCatalogClient extends ProductReviewsClient {
  products: ProductReviewsClient['products'] & {
    ratings: { list(params: ProductRatingListParams): Promise<ProductRating[]> }
    list(params?: ProductListParams): PromiseLike<SummaryPage>
  }
}

/** Options of {@link createReviewsCatalog}. */
export interface ReviewsCatalogOptions {
  /** The client that fetches reviews, ratings and summaries. */
  client: ReviewsCatalogClient
  /**
   * Where the product reviews are synced. A store kept between runs (`createJsonFileReviewStore`)
   * makes every run after the first an incremental sync.
   * @default createMemoryReviewStore()
   */
  store?: ReviewStore<ProductReview>
  /**
   * `false` when `store` has already been synced in this run (by a content loader, say): reviews are
   * then read from it without a call.
   * @default true
   */
  sync?: boolean
}

/** API calls a catalog made, by operation. */
export interface ReviewsCatalogCalls {
  /** `products.reviews.list` pages (the sync). */
  reviews: number
  /** `products.ratings.list` requests (200 products each). */
  ratings: number
  /** `products.list` pages. */
  products: number
}

/** A product's aggregate rating: what `ProductRating` and `ProductSummary.ratings` share. */
export interface CatalogRating extends RatingCounts {
  average: number
  count_total: number
}

/**
 * Product reviews, ratings and summaries fetched in bulk once and shared by every page of a build:
 * reviews from one paged sync (200 per call), ratings from bulk calls (200 products per call),
 * summaries from one paged walk of `products.list`. Every method is single-flight: concurrent
 * callers share one fetch.
 */
export interface ReviewsCatalog {
  /** The reviews of a product, newest first (syncs the store on first use). */
  reviews(productId: string): Promise<ProductReview[]>
  /** The report of this catalog's sync, once it has run; undefined before, or when `sync` is false. */
  syncReport(): Promise<ProductReviewsSyncReport | undefined>
  /**
   * Ratings of these products: from the summaries when they have been fetched (no call), else in bulk
   * for those not fetched yet. A product without reviews is absent from the map.
   */
  ratings(productIds: readonly string[]): Promise<Map<string, CatalogRating>>
  /** Every product's summary (ratings, AI summary), from one walk of `products.list`. */
  summaries(): Promise<Map<string, ProductSummary>>
  /** Calls made so far. */
  calls(): ReviewsCatalogCalls
}

/** Creates a {@link ReviewsCatalog}; nothing is fetched before the first question. */
export function createReviewsCatalog(options: ReviewsCatalogOptions): ReviewsCatalog {
  const { client } = options
  const store = options.store ?? createMemoryReviewStore<ProductReview>()
  const calls: ReviewsCatalogCalls = { reviews: 0, ratings: 0, products: 0 }
  let synced: Promise<ProductReviewsSyncReport | undefined> | undefined
  let summaries: Promise<Map<string, ProductSummary>> | undefined
  const ratings = new Map<string, Promise<ProductRating | undefined>>()

  const sync = () => {
    if (synced === undefined) {
      const run =
        options.sync === false
          ? Promise.resolve(undefined)
          : syncProductReviews({ client, store }).then((report) => {
              calls.reviews += report.calls
              return report
            })
      synced = run
      // A failed sync is not kept, so that the next question tries again.
      run.catch(() => {
        if (synced === run) synced = undefined
      })
    }
    return synced
  }

  return {
    async reviews(productId) {
      await sync()
      return store.list(productId)
    },
    syncReport: () => sync(),
    async ratings(productIds) {
      if (summaries !== undefined) {
        const all = await summaries
        const found = new Map<string, CatalogRating>()
        for (const id of productIds) {
          const rating = all.get(id)?.ratings
          if (rating !== undefined && rating.count_total > 0) found.set(id, rating)
        }
        return found
      }
      const missing = [...new Set(productIds)].filter((id) => !ratings.has(id))
      if (missing.length > 0) {
        const fetched = (async () => {
          calls.ratings += Math.ceil(missing.length / MAX_VALUES)
          const list = await client.products.ratings.list({ type: 'product_variation_id', value: missing })
          return new Map(list.map((rating) => [rating.product_variation_id, rating]))
        })()
        for (const id of missing) {
          const one = fetched.then((found) => found.get(id))
          ratings.set(id, one)
          one.catch(() => ratings.delete(id))
        }
      }
      const found = new Map<string, CatalogRating>()
      for (const id of productIds) {
        const rating = await ratings.get(id)
        if (rating !== undefined) found.set(id, rating)
      }
      return found
    },
    summaries() {
      if (summaries !== undefined) return summaries
      const walk = (async () => {
        const all = new Map<string, ProductSummary>()
        calls.products++
        let page = await client.products.list({ limit: MAX_VALUES })
        for (;;) {
          for (const summary of page.data) all.set(summary.product_variation_id, summary)
          if (!page.hasNextPage()) return all
          calls.products++
          page = await page.getNextPage()
        }
      })()
      summaries = walk
      walk.catch(() => {
        if (summaries === walk) summaries = undefined
      })
      return walk
    },
    calls: () => ({ ...calls }),
  }
}
