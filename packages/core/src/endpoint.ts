/**
 * `@verified-reviews/core/endpoint`: the server side of the "more reviews" island, independent of any
 * framework. It checks the query, calls the API with the server's client and answers JSON with cache
 * headers; Next.js and Astro routes are thin adapters over it.
 *
 * @module
 */

export {
  continuationCursor,
  isContinuationCursor,
  listProductReviews,
  type ReviewsPage,
} from './internal/endpoint/continuation.ts'
export { publicReview } from './internal/endpoint/public-review.ts'
export {
  type QueryProblem,
  REVIEWS_ENDPOINT_SORTS,
  type ReviewsEndpointQuery,
  type ReviewsEndpointSort,
  readReviewsQuery,
} from './internal/endpoint/query.ts'
export {
  createReviewsHandler,
  handleReviewsRequest,
  type ReviewsEndpointBody,
  type ReviewsEndpointClient,
  type ReviewsEndpointErrorBody,
  type ReviewsEndpointOptions,
  type ReviewsEndpointResult,
  toResponse,
} from './internal/endpoint/reviews-endpoint.ts'
