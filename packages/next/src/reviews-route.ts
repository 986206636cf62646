import { missingCredentials, readEnvironment } from '@verified-reviews/core'
import {
  handleReviewsRequest,
  type ReviewsEndpointClient,
  type ReviewsEndpointOptions,
  toResponse,
} from '@verified-reviews/core/endpoint'
import { reviewsClient } from './clients.ts'
import { jsonAnswer } from './internal/json-answer.ts'
import { LOG_PREFIX } from './internal/log-prefix.ts'
import { isBuildPhase } from './internal/phase.ts'

/** Options of {@link createReviewsRoute}. */
export interface ReviewsRouteOptions extends Omit<ReviewsEndpointOptions, 'client'> {
  /**
   * The client that calls the API.
   * @default the environment's client, its reads cached by Next.js and tagged with `reviewTags.product(id)`
   */
  client?: ReviewsEndpointClient
  /**
   * The site's replica, for the products it holds: their pages are read from it, with no API call.
   * On the Node.js runtime, pass `serverReplica` of `@verified-reviews/next/advanced` (the server's
   * replica, or the one given to `shareClientState`); an edge route has none, and reads the API.
   * @default undefined (every page from the API)
   */
  replica?: ReviewsEndpointOptions['replica']
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
 * unknown `sort`, a cursor that is malformed or that the API refuses). Without credentials on the
 * server (and no `client` option) it answers 503 and logs once which variable is missing. The API calls go through the
 * Next.js data cache, tagged by product, so `revalidateTag(reviewTags.product(id))` refreshes them.
 * The credentials stay on the server.
 */
export function createReviewsRoute(options: ReviewsRouteOptions = {}): ReviewsRoute {
  let told = false
  return {
    async GET(request) {
      if (options.client === undefined) {
        // A server without credentials is the server's problem: the visitor gets a 503, the log the cause.
        const missing = missingCredentials(readEnvironment(process.env))
        if (missing.length > 0) {
          // `next build` calls the route to prerender it; the build's own check has said that the
          // credentials are missing, and this is no server yet.
          if (!told && !isBuildPhase()) {
            told = true
            console.error(
              `${LOG_PREFIX} the reviews route answers 503 until ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} set on this server.`,
            )
          }
          return jsonAnswer(
            503,
            { error: { message: 'reviews are not available at the moment' } },
            { 'retry-after': '60' },
          )
        }
      }
      const client = options.client ?? reviewsClient()
      const result = await handleReviewsRequest(new URL(request.url).searchParams, { ...options, client })
      return toResponse(result, request.method)
    },
  }
}
