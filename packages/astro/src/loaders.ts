import type {
  BrandReview,
  ProductListParams,
  ProductRating,
  ProductRatingListParams,
  ProductReview,
  ProductSummary,
} from '@verified-reviews/core'
import {
  type BrandReviewsClient,
  type ProductReviewsClient,
  syncBrandReviews,
  syncProductReviews,
} from '@verified-reviews/core/sync'
import type { Loader } from 'astro/loaders'
import type { z } from 'astro/zod'
import { astroReviewStore } from './internal/astro-review-store.ts'
import {
  expectedReviews,
  recordProducts,
  reportedLister,
  type SummaryClient,
} from './internal/build-report.ts'
import { checkOptions } from './internal/check-options.ts'
import { brandReviewSchema, productRatingSchema, productReviewSchema } from './internal/schemas.ts'
import { shared, sharedClient } from './internal/shared.ts'

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
export type ProductReviewsLoaderOptions = ReviewsLoaderOptions<ProductReviewsClient>

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

/** Whether a client given to the product reviews loader can also list products (for the expected count). */
function hasSummaries(client: ProductReviewsClient): client is ProductReviewsClient & SummaryClient {
  const products = client.products as Partial<SummaryClient['products']>
  return typeof products.list === 'function'
}

/**
 * A content loader of every product review of the account: one entry per review, id `review_id`, data
 * the `ProductReview` as the API sends it (filter by `product_variation_id` with `getCollection`). The
 * first build walks every review, 200 per call; later builds walk newest first and stop at the first
 * review already held, so a build with fewer than 200 new reviews makes one call. The sync mark lives in
 * the collection's `meta`; entries whose digest did not change are not rewritten, and nothing is cleared.
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
      const store = astroReviewStore<ProductReview>(context, (review) => review.product_variation_id)
      const client = options.client ?? sharedClient()
      const mode = options.mode ?? 'auto'
      const report = await syncProductReviews({
        client: {
          products: {
            reviews: reportedLister(client.products.reviews, {
              log: (line) => context.logger.info(line),
              store,
              mode,
              // The product summaries' review counts, when the client can list products (the default
              // one can, and shares the walk with the ratings loader and the components through its cache).
              ...(hasSummaries(client) ? { expected: () => expectedReviews(client) } : {}),
              product: true,
            }),
          },
        },
        store,
        limit: options.limit ?? 200,
        mode,
      })
      // The pages and the injection of this build read these reviews instead of syncing them again.
      shared().loaderProductReviews = store
      context.logger.info(
        `${report.mode} sync: ${plural(report.newReviews, 'new review')}, ${report.updatedReviews} updated, ` +
          `${plural(report.calls, 'API call')}; ${store.writes.written} entries written, ${await store.count()} held`,
      )
    },
  }
}

/**
 * A content loader of every brand and shop review: one entry per review, id `review_id`, data the
 * `BrandReview` (`shop_key` is empty for the brand itself). Synced as {@link productReviewsLoader} does.
 */
export function brandReviewsLoader(options: BrandReviewsLoaderOptions = {}): TypedLoader<BrandReview> {
  checkOptions('brandReviewsLoader', options, REVIEWS_LOADER_RULES)
  return {
    name: 'verified-reviews-brand-reviews',
    schema: brandReviewSchema,
    load: async (context) => {
      const store = astroReviewStore<BrandReview>(context, (review) => review.shop_key)
      const client = options.client ?? sharedClient()
      const mode = options.mode ?? 'auto'
      const report = await syncBrandReviews({
        client: {
          brands: {
            reviews: reportedLister(client.brands.reviews, {
              log: (line) => context.logger.info(line),
              store,
              mode,
              product: false,
            }),
          },
        },
        store,
        limit: options.limit ?? 200,
        mode,
      })
      context.logger.info(
        `${report.mode} sync: ${plural(report.newReviews, 'new review')}, ${report.updatedReviews} updated, ` +
          `${plural(report.calls, 'API call')}; ${store.writes.written} entries written, ${await store.count()} held`,
      )
    },
  }
}

/** One page of `products.list`, as much as the ratings loader needs. */
interface SummaryPage {
  data: ProductSummary[]
  hasNextPage(): boolean
  getNextPage(): Promise<SummaryPage>
}

/** What {@link productRatingsLoader} needs of a client: `createClient()` satisfies it. */
export interface ProductRatingsClient {
  products: {
    ratings: { list(params: ProductRatingListParams): Promise<ProductRating[]> }
    list(params?: ProductListParams): PromiseLike<SummaryPage>
  }
}

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

const MAX_PER_CALL = 200

async function allProductIds(client: ProductRatingsClient): Promise<{ ids: string[]; calls: number }> {
  const ids: string[] = []
  let calls = 1
  let page = await client.products.list({ limit: MAX_PER_CALL })
  for (;;) {
    for (const summary of page.data) ids.push(summary.product_variation_id)
    if (!page.hasNextPage()) return { ids, calls }
    calls++
    page = await page.getNextPage()
  }
}

/**
 * A content loader of product ratings: one entry per product with reviews, id `product_variation_id`,
 * data the `ProductRating` (average, per-star counts). Ratings are fetched in bulk, 200 products per
 * call, on every build (the API has no "changed since" for ratings); entries whose digest did not change
 * are not rewritten, and a product missing from an answer keeps its entry.
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
      const client = options.client ?? sharedClient()
      const given = typeof options.products === 'function' ? await options.products() : options.products
      const listed = given === undefined ? await allProductIds(client) : { ids: [...given], calls: 0 }
      const ids = [...new Set(listed.ids)]
      recordProducts(ids.length)
      const ratings =
        ids.length === 0
          ? []
          : await client.products.ratings.list({ type: 'product_variation_id', value: ids })
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
      const calls = listed.calls + Math.ceil(ids.length / MAX_PER_CALL)
      logger.info(
        `${plural(ratings.length, 'rating')} of ${plural(ids.length, 'product')}, ${plural(calls, 'API call')}; ` +
          `${written} entries written`,
      )
    },
  }
}
