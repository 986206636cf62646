/**
 * `@verified-reviews/next`: Verified Reviews in a Next.js App Router site, on the server. Review
 * components with Next.js caching and tags, the route of the "more reviews" island, the revalidate
 * route a scheduler calls, the build prefetch, and purchase events from Server Actions (with an outbox
 * and its drain route, so that none is lost). Server-only:
 * it holds the API credentials.
 *
 * @module
 */
import 'server-only'

// The checkout form reader of the core, for the Server Actions that call submitPurchaseEvent.
export {
  PURCHASE_EVENT_FORM_FIELDS,
  type PurchaseEventFormField,
  type PurchaseEventFormOptions,
  type PurchaseEventFormReading,
  type PurchaseEventFormValues,
  purchaseEventFromForm,
  SHOPPER_FORM_FIELDS,
} from '@verified-reviews/core'
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
export {
  BrandReviews,
  type BrandReviewsProps,
  ProductRating,
  type ProductRatingProps,
  ProductReviews,
  type ProductReviewsProps,
  ReviewsJsonLd,
  type ReviewsJsonLdProps,
} from './components.tsx'
export {
  createOutboxDrainRoute,
  type OutboxDrainRoute,
  type OutboxDrainRouteBody,
  type OutboxDrainRouteOptions,
} from './outbox-route.ts'
export {
  type PurchaseEventSubmission,
  type PurchaseEventsClient,
  type SubmitPurchaseEventOptions,
  submitPurchaseEvent,
} from './purchase-events.ts'
export {
  createRevalidateRoute,
  type RevalidateProfile,
  type RevalidateRoute,
  type RevalidateRouteBody,
  type RevalidateRouteOptions,
  type RevalidateSyncSummary,
  type ReviewStoreOption,
} from './revalidate-route.ts'
export {
  brandReviewView,
  productReviewView,
  type ReviewViewOptions,
  type ReviewViewParams,
} from './review-view.ts'
export { createReviewsRoute, type ReviewsRoute, type ReviewsRouteOptions } from './reviews-route.ts'
export { type SeedFromBuildOptions, seedFromBuild } from './seed-from-build.ts'
export { reviewTags } from './tags.ts'
