/**
 * `@verified-reviews/core/endpoint`: the server side of the "more reviews" island, independent of any
 * framework. It checks the query and the signed cursor, calls the API with the server's client within a
 * budget of its own and answers JSON (an allowlist of review fields) with cache headers; Next.js and
 * Astro routes are thin adapters over it. `cursorSigner` signs the cursors the review components hand
 * out with the same key.
 *
 * @module
 */

export {
  continuationCursor,
  isContinuationCursor,
  type ReviewsPage,
} from './internal/cursor/continuation.ts'
export { type CursorScope, type CursorSigner, cursorSigner } from './internal/cursor/signed-cursor.ts'
export { type PublicReply, type PublicReview, publicReview } from './internal/endpoint/public-review.ts'
export {
  createReviewsHandler,
  handleReviewsRequest,
  type QueryProblem,
  REVIEWS_ENDPOINT_SORTS,
  type ReviewsEndpointBody,
  type ReviewsEndpointClient,
  type ReviewsEndpointErrorBody,
  type ReviewsEndpointOptions,
  type ReviewsEndpointQuery,
  type ReviewsEndpointResult,
  type ReviewsEndpointSort,
  readReviewsQuery,
  toResponse,
} from './internal/endpoint/reviews-endpoint.ts'
