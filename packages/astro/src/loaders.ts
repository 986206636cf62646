import type { BrandReview, ProductRating, ProductSummary } from '@verified-reviews/core'
import {
  createReviewsCatalog,
  prefetchProgressLog,
  type ReviewsCatalogClient,
} from '@verified-reviews/core/prefetch'
import { type BrandReviewsClient, syncBrandReviews } from '@verified-reviews/core/sync'
import type { Loader } from 'astro/loaders'
import type { z } from 'astro/zod'
import { astroReviewStore } from './internal/astro-review-store.ts'
import { reportedLister } from './internal/build-report.ts'
import { checkOptions } from './internal/check-options.ts'
import { loaderRun } from './internal/loader-run.ts'
import { heldReviews, namedProductsMark, writeProductEntries } from './internal/product-entries.ts'
import {
  brandReviewSchema,
  type ProductReviewsEntry,
  productRatingSchema,
  productReviewsEntrySchema,
} from './internal/schemas.ts'
import { shared, sharedCatalog } from './internal/shared.ts'

export type { ProductReviewsEntry }

/** A content loader whose entries have the type `T`. */
export type TypedLoader<T> = Loader & { schema: z.ZodType<T> }

/** Options shared by {@link productReviewsLoader} and {@link brandReviewsLoader}. */
export interface ReviewsLoaderOptions<C> {
  /**
   * The client to sync with.
   * @default the integration's client; without the integration, one of the loader's own, from the
   * `VERIFIED_REVIEWS_*` variables of the environment and the project's `.env` files
   * @example
   * ```ts
   * productReviewsLoader({ client: createClient({ clientId, clientSecret, timeout: 30_000 }) })
   * ```
   */
  client?: C
  /**
   * Reviews per call, 1 to 200.
   * @default 200
   * @example
   * ```ts
   * brandReviewsLoader({ limit: 100 })
   * ```
   */
  limit?: number
  /**
   * `auto`: a full sync on the first build, then incremental syncs that fetch only the reviews published
   * since the mark kept in the collection's `meta`. `full`: walk every review again, which also finds
   * reviews edited without a new publish date (a merchant reply added later); schedule it now and then.
   * @default 'auto'
   * @example
   * ```ts
   * // a weekly full walk in CI, incremental builds otherwise
   * productReviewsLoader({ mode: process.env.FULL_SYNC === '1' ? 'full' : 'auto' })
   * ```
   */
  mode?: 'auto' | 'full'
}

/** The products a loader loads: their ids (`product_variation_id`), or a function that returns them. */
export type ProductIds = readonly string[] | (() => readonly string[] | Promise<readonly string[]>)

/** Options of {@link productReviewsLoader}. */
export interface ProductReviewsLoaderOptions extends ReviewsLoaderOptions<ReviewsCatalogClient> {
  /**
   * The products to load (`product_variation_id`), or a function that returns them (from your
   * catalogue), sync or async: the loader then fetches their summaries (200 ids per call) and their
   * reviews alone (200 ids per call, 200 reviews per page), unless a sync of the account costs no more
   * calls. Each of them gets an entry, one without reviews too (`rating: null`, `reviews: []`).
   * @default every product of the account (`products.list`, 200 per call) and every review (the sync)
   * @example
   * ```ts
   * // the ids of your catalogue, e.g. from the shop's API at build time
   * productReviewsLoader({ products: async () => (await fetchCatalogue()).map((product) => product.sku) })
   * ```
   */
  products?: ProductIds
}

/** Options of {@link brandReviewsLoader}. */
export type BrandReviewsLoaderOptions = ReviewsLoaderOptions<BrandReviewsClient>

const REVIEWS_LOADER_RULES = {
  client: { kind: 'object' },
  limit: { kind: 'integer', min: 1, max: 200 },
  mode: { kind: 'oneOf', values: ['auto', 'full'] },
} as const

/** The products of a `products` option, the ids a function returned checked as the array would be. */
async function productIdsOf(owner: string, products: ProductIds | undefined): Promise<string[] | undefined> {
  const ids = typeof products === 'function' ? await products() : products
  checkOptions(owner, { products: ids }, { products: { kind: 'strings' } })
  return ids === undefined ? undefined : [...new Set(ids)]
}

const number = new Intl.NumberFormat('en-US')

/** `3,000 reviews`, `1 review`: counts as the core's progress lines write them. */
function plural(count: number, word: string): string {
  return `${number.format(count)} ${word}${count === 1 ? '' : 's'}`
}

/**
 * A content loader of product reviews: one entry per product, id `product_variation_id`, data
 * `{ product_variation_id, rating, reviews }` (a {@link ProductReviewsEntry}: the rating from the
 * product summary, null without reviews; the reviews newest first, as the API sends them), so that a
 * page reads its product with `getEntry('reviews', sku)`.
 *
 * With `products`, only those products are fetched: for 3 products of an account of 3,000 reviews, 2
 * API calls (their summaries, their reviews) besides the token; of an account of 10,000 products and
 * 100,000 reviews, 3 (one more to find their summaries). Without it, every product and review of
 * the account: the summaries (200 per call) and the sync of every review (200 per call). Later builds
 * are incremental either way, from the mark kept in the collection's `meta`: the sync walks newest first
 * and stops at the first review already held (one call while fewer than 200 are new); the named
 * products' reviews are asked for newest first down to the first one held (one call per 200 products),
 * and the summaries again (the API has no "changed since" for ratings). Entries whose digest did not
 * change are not rewritten, and nothing is cleared.
 *
 * Used with the integration, it shares the integration's client, and the components and the injection
 * of the build read its catalog instead of fetching again. Without the integration (only in
 * `content.config.ts`) it reads the `VERIFIED_REVIEWS_*` variables itself. During `astro build` a fetch
 * that fails stops the build (refused credentials, an API out of reach) or keeps the collection as it
 * was and says why once through the loader's logger, as `failOnError` (or
 * `VERIFIED_REVIEWS_FAIL_ON_ERROR`) decides; a build without credentials loads nothing.
 *
 * @example
 * ```ts
 * // src/content.config.ts
 * import { productReviewsLoader } from '@verified-reviews/astro/loaders'
 * export const collections = {
 *   reviews: defineCollection({ loader: productReviewsLoader({ products: ['SKU-1', 'SKU-2', 'SKU-3'] }) }),
 * }
 * // src/pages/products/[sku].astro
 * const entry = await getEntry('reviews', sku) // entry.data.rating, entry.data.reviews
 * ```
 */
export function productReviewsLoader(
  options: ProductReviewsLoaderOptions = {},
): TypedLoader<ProductReviewsEntry> {
  checkOptions('productReviewsLoader', options, {
    ...REVIEWS_LOADER_RULES,
    products: { kind: 'stringsOrFunction' },
  })
  return {
    name: 'verified-reviews-product-reviews',
    schema: productReviewsEntrySchema,
    load: async (context) => {
      const run = loaderRun(context, options.client)
      if (run === undefined) return
      const named = await productIdsOf('productReviewsLoader', options.products)
      const held = await heldReviews(context)
      // Over a store kept between runs, the core syncs the whole account once before it fetches named
      // products when it cannot price that sync (an account of over 200 products), for later runs to be
      // incremental. The first run with `products` fetches their reviews alone instead (or syncs when
      // that costs fewer calls), and keeps the mark the core would have kept: later runs are incremental.
      const firstNamed = named !== undefined && (await held.store.getCheckpoint()) === undefined
      // The core's catalog plans the calls over the reviews held, with the progress and closing line of
      // a Next.js build.
      const catalog = createReviewsCatalog({
        client: run.client,
        ...(named === undefined ? {} : { productIds: named }),
        store: held.store,
        keptStore: !firstNamed,
        sync: { mode: options.mode ?? 'auto', limit: options.limit ?? 200 },
        onProgress: prefetchProgressLog((line) => context.logger.info(line), {
          namingHint: '`products` of productReviewsLoader()',
        }),
      })
      const entries: ProductReviewsEntry[] = []
      try {
        await catalog.report()
        // The catalog's own summaries: those of the named products it found (no call for one it did not).
        const summaries = await catalog.summaries()
        const namedSet = new Set(named ?? summaries.keys())
        // The products named, or every product of the account, and those whose reviews are held from
        // earlier runs, so that the entries hold every review the mark counts.
        for (const id of new Set([...namedSet, ...(await held.store.keys())])) {
          const summary = summaries.get(id)
          entries.push({
            product_variation_id: id,
            rating:
              summary === undefined
                ? (held.entries.get(id)?.rating ?? null)
                : summary.ratings.count_total > 0
                  ? ratingOf(summary)
                  : null,
            reviews: namedSet.has(id) ? await catalog.reviews(id) : await held.store.list(id),
          })
        }
      } catch (error) {
        // The collection keeps what it held; a stop of the build throws.
        run.failed('product reviews not loaded', error)
        return
      }
      const synced = (await catalog.syncReport()) !== undefined
      const mark = firstNamed && !synced ? namedProductsMark(entries) : await held.store.getCheckpoint()
      const written = await writeProductEntries(context, entries, mark)
      // The pages, the ratings loader and the injection of this build read this catalog instead of fetching again.
      if (run.integration && options.client === undefined) shared().catalog = catalog
      const { reviews, products } = catalog.calls()
      const reviewCount = entries.reduce((sum, entry) => sum + entry.reviews.length, 0)
      context.logger.info(
        `${plural(entries.length, 'product')} with ${plural(reviewCount, 'review')}: ` +
          `${plural(reviews + products, 'API call')}; ${number.format(written)} entries written`,
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
      const run = loaderRun(context, options.client)
      if (run === undefined) return
      const store = astroReviewStore<BrandReview>(context, (review) => review.shop_key)
      const client = run.client
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
        run.failed('brand reviews not synced', error)
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
   * @default the integration's client; without the integration, one of the loader's own, from the
   * `VERIFIED_REVIEWS_*` variables of the environment and the project's `.env` files
   * @example
   * ```ts
   * productRatingsLoader({ client: createClient({ clientId, clientSecret }) })
   * ```
   */
  client?: ProductRatingsClient
  /**
   * The products (`product_variation_id`) whose ratings to load, or a function that returns them (from
   * your catalogue), sync or async.
   * @default every product of the account, listed with `products.list` (200 per call)
   * @example
   * ```ts
   * productRatingsLoader({ products: ['SKU-1', 'SKU-2'] })
   * ```
   */
  products?: ProductIds
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
 * product summaries. The entries of {@link productReviewsLoader} carry the same rating beside the
 * reviews; this loader is for a collection of ratings alone (a listing's stars). With the integration
 * it reads the build's catalog, which the review loader, the components and the injection share: no
 * call of its own when they fetch the summaries anyway, else 200 products per call, on every build (the
 * API has no "changed since" for ratings). Entries whose digest did not change are not rewritten, and a
 * product missing from an answer keeps its entry. Failures are met as {@link productReviewsLoader}
 * meets them.
 *
 * @example
 * ```ts
 * // src/content.config.ts
 * export const collections = { ratings: defineCollection({ loader: productRatingsLoader() }) }
 * // a listing page
 * const ratings = new Map((await getCollection('ratings')).map(({ id, data }) => [id, data]))
 * ```
 */
export function productRatingsLoader(options: ProductRatingsLoaderOptions = {}): TypedLoader<ProductRating> {
  checkOptions('productRatingsLoader', options, {
    client: { kind: 'object' },
    products: { kind: 'stringsOrFunction' },
  })
  return {
    name: 'verified-reviews-product-ratings',
    schema: productRatingSchema,
    load: async (context) => {
      const { store, meta, logger, parseData, generateDigest } = context
      const run = loaderRun(context, options.client)
      if (run === undefined) return
      const given = await productIdsOf('productRatingsLoader', options.products)
      // The build's catalog: its product summaries carry the ratings, so they cost no call of their own.
      const catalog =
        run.integration && options.client === undefined
          ? sharedCatalog()
          : createReviewsCatalog({ client: run.client, productIds: given })
      const before = catalog.calls().products
      let summaries: Awaited<ReturnType<typeof catalog.summaries>>
      try {
        summaries = await catalog.summaries(given)
      } catch (error) {
        run.failed('product ratings not loaded', error)
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
