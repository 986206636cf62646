import type { ProductSummary } from '../../types/published.ts'
import { VerifiedReviewsError } from '../base/errors.ts'
import { sharedPromise } from '../base/single-flight.ts'
import {
  createLocalCatalog,
  type LocalCatalogOptions,
  type ReviewsCatalog,
  type ReviewsCatalogCalls,
  ratingsOf,
} from '../catalog/local-catalog.ts'
import { type BuildData, type PrefetchOptions, prefetchBuildData } from './build-data.ts'

/**
 * How the processes of a build share one fetch. Without it the catalog fetches in this process, and
 * every caller of the process shares that fetch (Astro, the injector). With `directory`, the build
 * workers of one machine meet through the SQLite file `reviews.sqlite` there: one fetches into it, the
 * others wait, and each reads a product's reviews from it when a page asks (Next.js). With `share` too, the processes of
 * several machines meet through it (`createRedisPrefetchShare()` of `@verified-reviews/redis`).
 */
export type CatalogSharing = Pick<
  PrefetchOptions,
  | 'directory'
  | 'buildId'
  | 'share'
  | 'waitTimeout'
  | 'staleLockTimeout'
  | 'pollInterval'
  | 'logger'
  | 'afterFetch'
>

/** Options of {@link createReviewsCatalog}. */
export interface ReviewsCatalogOptions extends LocalCatalogOptions {
  /**
   * Shares the fetch with the other processes of the build (an SQLite file, or a share across machines);
   * `sync: false` does not apply then.
   * @default undefined (this process fetches, once for all its callers)
   */
  sharing?: CatalogSharing | undefined
}

/**
 * Creates a {@link ReviewsCatalog}; nothing is fetched before the first question.
 *
 * @example
 * const catalog = createReviewsCatalog({ client: createClient(), productIds: ['SKU-1', 'SKU-2'] })
 * const view = await loadProductView({ source: buildDataSource(catalog), ids: ['SKU-1'], … }) // core/internal
 * console.log(describePrefetchReport(await catalog.report())) // … (reviews of 2 named products) …
 */
export function createReviewsCatalog(options: ReviewsCatalogOptions): ReviewsCatalog {
  const { sharing, ...local } = options
  return sharing === undefined ? createLocalCatalog(local) : sharedCatalog(options, sharing)
}

/** A catalog over the build data that one process of the build fetched (`prefetchBuildData`). */
function sharedCatalog(options: ReviewsCatalogOptions, sharing: CatalogSharing): ReviewsCatalog {
  let loaded: BuildData | undefined
  const data = sharedPromise(async () => {
    // The catalog's options but `sync`, which a shared fetch does not take, and the sharing's.
    loaded = await prefetchBuildData({ ...options, ...sharing })
    return loaded
  })
  const summariesOf = async (productIds: readonly string[]) => {
    const built = await data()
    const found = new Map<string, ProductSummary>()
    for (const id of productIds) {
      const summary = built.summary(id)
      if (summary !== undefined) found.set(id, summary)
    }
    return found
  }
  const reviewsOf = async (productId: string) => (await data()).reviews(productId)
  return {
    summaries: async (productIds) => summariesOf(productIds ?? (await data()).productIds),
    ratings: async (productIds) => ratingsOf(await summariesOf(productIds)),
    reviews: reviewsOf,
    newestReviews: async (productIds, limit) => (await data()).newestReviews(productIds, limit),
    async report() {
      const built = await data()
      if (built.report === undefined) throw new VerifiedReviewsError('the build data carries no report')
      return built.report
    },
    syncReport: async () => undefined,
    calls: (): ReviewsCatalogCalls =>
      loaded?.fetchedHere === true
        ? { reviews: loaded.calls.reviews, products: loaded.calls.summaries }
        : { reviews: 0, products: 0 },
  }
}
