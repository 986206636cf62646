import {
  handleReviewsRequest,
  type ReviewsEndpointClient,
  type ReviewsEndpointOptions,
  toResponse,
} from '@verified-reviews/core/endpoint'
import { reviewsClient } from './clients.ts'

/** Options of {@link createReviewsRoute}. */
export interface ReviewsRouteOptions extends Omit<ReviewsEndpointOptions, 'client'> {
  /**
   * The client that calls the API.
   * @default the environment's client, its reads cached by Next.js and tagged with `reviewTags.product(id)`
   */
  client?: ReviewsEndpointClient
}

/** The handlers of the reviews route: export them from an `app/…/route.ts`. */
export interface ReviewsRoute {
  GET(request: Request): Promise<Response>
}

/**
 * The route that serves the "more reviews" island, for `app/api/reviews/route.ts`:
 *
 * ```ts
 * export const { GET } = createReviewsRoute()
 * ```
 *
 * `GET ?product_variation_id=SKU-001&limit=10&cursor=…&sort=newest&rate=4,5&locale=fr` answers
 * `{ data, nextCursor }` with `Cache-Control: public, s-maxage=300, stale-while-revalidate=86400`, or a
 * 400 `{ error: { message, field } }` for a parameter it does not know or accept (a `limit` above 50, an
 * unknown `sort`, a cursor that is malformed or that the API refuses). The API calls go through the
 * Next.js data cache, tagged by product, so `revalidateTag(reviewTags.product(id))` refreshes them.
 * The credentials stay on the server.
 */
export function createReviewsRoute(options: ReviewsRouteOptions = {}): ReviewsRoute {
  return {
    async GET(request) {
      const client = options.client ?? reviewsClient()
      const result = await handleReviewsRequest(new URL(request.url).searchParams, { ...options, client })
      return toResponse(result, request.method)
    },
  }
}
