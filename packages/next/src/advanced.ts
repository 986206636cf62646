/**
 * `@verified-reviews/next/advanced`: what a page does not need but a site may: the build's review data
 * (`getBuildData`, `prefetchedProductReviews`, `isBuildPhase`), the clients the components call
 * (`reviewsClient`, `freshReviewsClient`, `revalidateSeconds`, `shareClientState` for several servers),
 * `seedFromBuild`, `serverReplica` (the site's replica, for `createReviewsRoute({ replica })`), and the presentational components of `@verified-reviews/react` for pages that render
 * review data of their own. Server-only, like the main entry.
 *
 * @module
 */
import 'server-only'

export {
  BrandRating,
  type BrandRatingProps,
  DEFAULT_MEDIA_WIDTHS,
  type HeadingLevel,
  type MediaWidths,
  ProductReviewsView,
  type ProductReviewsViewProps,
  RatingBadge,
  type RatingBadgeProps,
  RatingSummary,
  type RatingSummaryData,
  type RatingSummaryProps,
  type ReviewData,
  ReviewItem,
  type ReviewItemProps,
  ReviewList,
  type ReviewListProps,
  ReviewSummary,
  type ReviewSummaryProps,
  type ReviewsErrorHandler,
  ShopRating,
  type ShopRatingProps,
  StarRating,
  type StarRatingProps,
} from '@verified-reviews/react'
export {
  type BuildData,
  getBuildData,
  isBuildPhase,
  type PrefetchedProduct,
  prefetchedProductReviews,
} from './build-data.ts'
export {
  DEFAULT_REVALIDATE,
  freshReviewsClient,
  revalidateSeconds,
  reviewsClient,
  type SharedClientState,
  shareClientState,
} from './clients.ts'
export { replicaFor as serverReplica } from './internal/replica.ts'
export { type SeedFromBuildOptions, seedFromBuild } from './seed-from-build.ts'
