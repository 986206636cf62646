/**
 * `@verified-reviews/astro/loaders`: content-layer loaders of product reviews, brand reviews and
 * product ratings, and a live loader for server-rendered pages.
 *
 * @module
 */
export {
  type LiveProductReviews,
  type LiveProductReviewsClient,
  type LiveProductReviewsCollectionFilter,
  type LiveProductReviewsEntryFilter,
  type LiveProductReviewsLoaderOptions,
  LiveReviewsError,
  liveProductReviewsLoader,
} from './live-loader.ts'
export {
  type BrandReviewsLoaderOptions,
  brandReviewsLoader,
  type ProductIds,
  type ProductRatingsClient,
  type ProductRatingsLoaderOptions,
  type ProductReviewsEntry,
  type ProductReviewsLoaderOptions,
  productRatingsLoader,
  productReviewsLoader,
  type ReviewsLoaderOptions,
  type TypedLoader,
} from './loaders.ts'
