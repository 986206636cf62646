import type { BrandReview, ProductRating, ProductReview, ProductSummary } from '@verified-reviews/core'
import {
  createReviewsCatalog,
  prefetchProgressLog,
  type ReviewsCatalogClient,
} from '@verified-reviews/core/prefetch'
import { type BrandReviewsClient, syncBrandReviews } from '@verified-reviews/core/sync'
import type { Loader } from 'astro/loaders'
import type { z } from 'astro/zod'
import { astroReviewStore } from './internal/astro-review-store.ts'
import { buildWithoutReviewData, reviewDataFailed } from './internal/build-check.ts'
import { reportedLister } from './internal/build-report.ts'
import { checkOptions } from './internal/check-options.ts'
import { brandReviewSchema, productRatingSchema, productReviewSchema } from './internal/schemas.ts'
import { shared, sharedCatalog, sharedClient } from './internal/shared.ts'

/** A content loader whose entries have the type `T`. */
export type TypedLoader<T> = Loader & { schema: z.ZodType<T> }

/** Options shared by {@link productReviewsLoader} and {@link brandReviewsLoader}. */
export interface ReviewsLoaderOptions<C> {
  /**
   * The client to sync with.
   * @default the integration's client (credentials from `VERIFIED_REVIEWS_*`)
   */
  client?: C
  /**
   * Reviews per call, 1 to 200.
   * @default 200
   */
  limit?: number
  /**
   * `auto`: a full sync on the first build, then incremental syncs that fetch only the reviews published
   * since the mark kept in the collection's `meta`. `full`: walk every review again, which also finds
   * reviews edited without a new publish date (a merchant reply added later); schedule it now and then.
   * @default 'auto'
   */
  mode?: 'auto' | 'full'
}

/** Options of {@link productReviewsLoader}. */
export type ProductReviewsLoaderOptions = ReviewsLoaderOptions<ReviewsCatalogClient>

/** Options of {@link brandReviewsLoader}. */
export type BrandReviewsLoaderOptions = ReviewsLoaderOptions<BrandReviewsClient>

const REVIEWS_LOADER_RULES = {
  client: { kind: 'object' },
  limit: { kind: 'integer', min: 1, max: 200 },
  mode: { kind: 'oneOf', values: ['auto', 'full'] },
} as const

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/**
 * A content loader of every product review of the account: one entry per review, id `review_id`, data
 * the `ProductReview` as the API sends it (filter by `product_variation_id` with `getCollection`). The
 * first build walks every review, 200 per call; later builds walk newest first and stop at the first
 * review already held, so a build with fewer than 200 new reviews makes one call. The sync mark lives in
 * the collection's `meta`; entries whose digest did not change are not rewritten, and nothing is cleared.
 * During `astro build` a sync that fails stops the build (refused credentials, an API out of reach) or
 * keeps the collection as it was and says why once, as the integration's `failOnError` decides; a build
 * without credentials syncs nothing.
 *
 * @example
 * ```ts
 * // src/content.config.ts
 * import { productReviewsLoader } from '@verified-reviews/astro/loaders'
 * export const collections = { reviews: defineCollection({ loader: productReviewsLoader() }) }
 * ```
 */
export function productReviewsLoader(options: ProductReviewsLoaderOptions = {}): TypedLoader<ProductReview> {
  checkOptions('productReviewsLoader', options, REVIEWS_LOADER_RULES)
  return {
    name: 'verified-reviews-product-reviews',
    schema: productReviewSchema,
    load: async (context) => {
      if (options.client === undefined && buildWithoutReviewData()) return
      const store = astroReviewStore<ProductReview>(context, (review) => review.product_variation_id)
      // The build's catalog over the content store: the product summaries (whose review counts a first
      // sync expects), then the sync, with the progress and closing line of a Next.js build.
      const catalog = createReviewsCatalog({
        client: options.client ?? sharedClient(),
        store,
        sync: { mode: options.mode ?? 'auto', limit: options.limit ?? 200 },
        onProgress: prefetchProgressLog((line) => context.logger.info(line)),
      })
      let report: Awaited<ReturnType<typeof catalog.syncReport>>
      try {
        await catalog.report()
        report = await catalog.syncReport()
      } catch (error) {
        // The collection keeps what it held; a stop of the build throws.
        reviewDataFailed('product reviews not synced', error, 'throw', context.logger)
        return
      }
      // The pages, the ratings loader and the injection of this build read this catalog instead of fetching again.
      if (options.client === undefined) shared().catalog = catalog
      context.logger.info(
        `${report?.mode} sync: ${plural(report?.newReviews ?? 0, 'new review')}, ${report?.updatedReviews ?? 0} updated; ` +
          `${store.writes.written} entries written, ${await store.count()} held`,
      )
    },
  }
}

/**
 * A content loader of every brand and shop review: one entry per review, id `review_id`, data the
 * `BrandReview` (`shop_key` is empty for the brand itself). Synced, and its failures met, as
 * {@link productReviewsLoader} does.
 */
export function brandReviewsLoader(options: BrandReviewsLoaderOptions = {}): TypedLoader<BrandReview> {
  checkOptions('brandReviewsLoader', options, REVIEWS_LOADER_RULES)
  return {
    name: 'verified-reviews-brand-reviews',
    schema: brandReviewSchema,
    load: async (context) => {
      if (options.client === undefined && buildWithoutReviewData()) return
      const store = astroReviewStore<BrandReview>(context, (review) => review.shop_key)
      const client = options.client ?? sharedClient()
      const mode = options.mode ?? 'auto'
      let report: Awaited<ReturnType<typeof syncBrandReviews>>
      try {
        report = await syncBrandReviews({
          client: {
            brands: {
              reviews: reportedLister(client.brands.reviews, (line) => context.logger.info(line)),
            },
          },
          store,
          limit: options.limit ?? 200,
          mode,
        })
      } catch (error) {
        reviewDataFailed('brand reviews not synced', error, 'throw', context.logger)
        return
      }
      context.logger.info(
        `${report.mode} sync: ${plural(report.newReviews, 'new review')}, ${report.updatedReviews} updated, ` +
          `${plural(report.calls, 'API call')}; ${store.writes.written} entries written, ${await store.count()} held`,
      )
    },
  }
}

/** What {@link productRatingsLoader} needs of a client: `createClient()` satisfies it. */
export type ProductRatingsClient = ReviewsCatalogClient

/** Options of {@link productRatingsLoader}. */
export interface ProductRatingsLoaderOptions {
  /**
   * The client to load with.
   * @default the integration's client (credentials from `VERIFIED_REVIEWS_*`)
   */
  client?: ProductRatingsClient
  /**
   * The products (`product_variation_id`) whose ratings to load, or a function that returns them (from
   * your catalogue).
   * @default every product of the account, listed with `products.list` (200 per call)
   */
  products?: readonly string[] | (() => readonly string[] | Promise<readonly string[]>)
}

/**
 * A product's rating, as `products.ratings.list` gives it, from its summary: the same average, counts
 * and criteria (`product_ean` is empty: a summary does not carry it).
 */
function ratingOf(summary: ProductSummary): ProductRating {
  const { ratings } = summary
  return {
    product_variation_id: summary.product_variation_id,
    product_ean: '',
    average: ratings.average,
    count_total: ratings.count_total,
    count_5: ratings.count_5,
    count_4: ratings.count_4,
    count_3: ratings.count_3,
    count_2: ratings.count_2,
    count_1: ratings.count_1,
    extras: summary.extras.map((extra) => ({
      count: extra.rate.count,
      average: extra.rate.average,
      label: extra.label,
    })),
  }
}

/**
 * A content loader of product ratings: one entry per product with reviews, id `product_variation_id`,
 * data a `ProductRating` (average, per-star counts, criteria; `product_ean` is empty) taken from the
 * product summaries of the build's catalog, which the review loader, the components and the injection
 * share: no call of its own when they are fetched anyway, else 200 products per call, on every build
 * (the API has no "changed since" for ratings). Entries whose digest did not change are not rewritten,
 * and a product missing from an answer keeps its entry. Failures are met as {@link productReviewsLoader}
 * meets them.
 */
export function productRatingsLoader(options: ProductRatingsLoaderOptions = {}): TypedLoader<ProductRating> {
  checkOptions('productRatingsLoader', options, {
    client: { kind: 'object' },
    products: { kind: 'stringsOrFunction' },
  })
  return {
    name: 'verified-reviews-product-ratings',
    schema: productRatingSchema,
    load: async ({ store, meta, logger, parseData, generateDigest }) => {
      if (options.client === undefined && buildWithoutReviewData()) return
      const given = typeof options.products === 'function' ? await options.products() : options.products
      // The build's catalog: its product summaries carry the ratings, so they cost no call of their own.
      const catalog =
        options.client === undefined
          ? sharedCatalog()
          : createReviewsCatalog({ client: options.client, productIds: given })
      const before = catalog.calls().products
      let summaries: Awaited<ReturnType<typeof catalog.summaries>>
      try {
        summaries = await catalog.summaries(given)
      } catch (error) {
        reviewDataFailed('product ratings not loaded', error, 'throw', logger)
        return
      }
      const ratings = [...summaries.values()]
        .filter((summary) => summary.ratings.count_total > 0)
        .map(ratingOf)
      let written = 0
      for (const rating of ratings) {
        const digest = generateDigest(rating as unknown as Record<string, unknown>)
        if (store.get(rating.product_variation_id)?.digest === digest) continue
        const data = await parseData({
          id: rating.product_variation_id,
          data: rating as unknown as Record<string, unknown>,
        })
        store.set({ id: rating.product_variation_id, data, digest })
        written++
      }
      meta.set('verified-reviews:loaded-at', new Date().toISOString())
      const pages = catalog.calls().products - before
      logger.info(
        `${plural(ratings.length, 'rating')} of ${plural(summaries.size, 'product')} from the product summaries ` +
          `(${plural(pages, 'summary page')} fetched for them); ${written} entries written`,
      )
    },
  }
}
