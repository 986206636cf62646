import type {
  ProductRating,
  ProductRatingListParams,
  ProductReview,
  ProductReviewListParams,
} from '@verified-reviews/core'
import type { LiveLoader } from 'astro/loaders'
import { checkOptions } from './internal/check-options.ts'
import type { ProductReviewsEntry } from './internal/schemas.ts'
import { sharedClient } from './internal/shared.ts'

/**
 * A product with its rating and its newest reviews: the data of a live entry, the shape of an entry of
 * `productReviewsLoader` too.
 */
export type LiveProductReviews = ProductReviewsEntry

/** Filter of `getLiveEntry`: the product id, or the id with a number of reviews. */
export interface LiveProductReviewsEntryFilter {
  id: string
  /** Reviews to return, 1 to 200. @default the loader's `reviews` */
  reviews?: number
}

/** Filter of `getLiveCollection`: the products, and how many reviews of each. */
export interface LiveProductReviewsCollectionFilter {
  /** The products (`product_variation_id`); their ratings come in bulk, 200 per call. */
  products: readonly string[]
  /** Reviews of each product, 0 to 200; each product with reviews costs one call. @default 0 */
  reviews?: number
}

/** What {@link liveProductReviewsLoader} needs of a client: `createClient()` satisfies it. */
export interface LiveProductReviewsClient {
  products: {
    ratings: { list(params: ProductRatingListParams): Promise<ProductRating[]> }
    reviews: { list(params: ProductReviewListParams): PromiseLike<{ data: ProductReview[] }> }
  }
}

/** Options of {@link liveProductReviewsLoader}. */
export interface LiveProductReviewsLoaderOptions {
  /**
   * The client. The default one caches answers in memory for five minutes, so a page rendered for
   * every request does not call the API every time.
   * @default the integration's client (credentials from `VERIFIED_REVIEWS_*`)
   */
  client?: LiveProductReviewsClient
  /**
   * Reviews of an entry, 1 to 200.
   * @default 10
   */
  reviews?: number
}

/** Thrown (as the `error` of a live result) when the API could not be read. */
export class LiveReviewsError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'LiveReviewsError'
  }
}

function cacheHint(products: readonly LiveProductReviews[]) {
  const newest = products
    .flatMap((product) => product.reviews.map((review) => review.publish_date))
    .sort()
    .at(-1)
  return {
    tags: products.map((product) => `verified-reviews:product:${product.product_variation_id}`),
    ...(newest === undefined ? {} : { lastModified: new Date(newest) }),
  }
}

function checkCount(name: string, value: unknown, min: number): void {
  checkOptions(
    'liveProductReviewsLoader filter',
    { [name]: value },
    { [name]: { kind: 'integer', min, max: 200 } },
  )
}

/**
 * A live collection loader (server-rendered pages) of products with their rating and newest reviews,
 * fetched at request time.
 *
 * - `getLiveEntry('reviews', 'SKU-1')` (or `{ id, reviews }`): the product's rating and newest reviews, two calls.
 * - `getLiveCollection('reviews', { products: [...] })`: the ratings of many products, one call per 200;
 *   add `reviews: n` for each product's newest reviews, one more call per product.
 *
 * Entries carry cache hints: the tag `verified-reviews:product:<id>` and the newest review's date.
 */
export function liveProductReviewsLoader(
  options: LiveProductReviewsLoaderOptions = {},
): LiveLoader<
  LiveProductReviews,
  LiveProductReviewsEntryFilter,
  LiveProductReviewsCollectionFilter,
  LiveReviewsError
> {
  checkOptions('liveProductReviewsLoader', options, {
    client: { kind: 'object' },
    reviews: { kind: 'integer', min: 1, max: 200 },
  })
  const defaultReviews = options.reviews ?? 10
  const client = () => options.client ?? sharedClient()

  const newestReviews = async (id: string, limit: number): Promise<ProductReview[]> => {
    const page = await client().products.reviews.list({
      product_variation_id: [id],
      limit,
      sort: ['publish_date'],
      desc: ['publish_date'],
    })
    return page.data
  }

  return {
    name: 'verified-reviews-live-product-reviews',
    loadEntry: async ({ filter }) => {
      try {
        const id = filter.id
        const limit = filter.reviews ?? defaultReviews
        checkCount('reviews', limit, 1)
        const [ratings, reviews] = await Promise.all([
          client().products.ratings.list({ type: 'product_variation_id', value: [id] }),
          newestReviews(id, limit),
        ])
        const data: LiveProductReviews = { product_variation_id: id, rating: ratings[0] ?? null, reviews }
        return { id, data, cacheHint: cacheHint([data]) }
      } catch (error) {
        return {
          error: new LiveReviewsError(
            `Could not load the reviews of ${filter.id}: ${(error as Error).message}`,
            { cause: error },
          ),
        }
      }
    },
    loadCollection: async ({ filter }) => {
      try {
        const products = [...new Set(filter?.products ?? [])]
        const perProduct = filter?.reviews ?? 0
        checkCount('reviews', perProduct, 0)
        if (products.length === 0) return { entries: [] }
        const ratings = await client().products.ratings.list({
          type: 'product_variation_id',
          value: products,
        })
        const byId = new Map(ratings.map((rating) => [rating.product_variation_id, rating]))
        const entries = await Promise.all(
          products.map(async (id) => {
            const rating = byId.get(id) ?? null
            // A product without a rating has no reviews: no call for it.
            const reviews = perProduct > 0 && rating !== null ? await newestReviews(id, perProduct) : []
            const data: LiveProductReviews = { product_variation_id: id, rating, reviews }
            return { id, data, cacheHint: cacheHint([data]) }
          }),
        )
        return { entries, cacheHint: cacheHint(entries.map((entry) => entry.data)) }
      } catch (error) {
        return {
          error: new LiveReviewsError(`Could not load product reviews: ${(error as Error).message}`, {
            cause: error,
          }),
        }
      }
    },
  }
}
