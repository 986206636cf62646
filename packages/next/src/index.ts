/**
 * `@verified-reviews/next`: Verified Reviews in a Next.js App Router site, on the server: what a page
 * needs. The review components that fetch their data (with Next.js caching and tags), `reviewTags`,
 * the route of the "more reviews" island, the revalidate route a scheduler calls, the dynamic twin of a
 * static page for plain links, and purchase events from Server Actions (with an outbox and its drain
 * route, so that none is lost). The config is `@verified-reviews/next/config`; the build data, the
 * clients and the presentational components are `@verified-reviews/next/advanced`. Server-only: it
 * holds the API credentials.
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
export { reviewTags } from './tags.ts'
