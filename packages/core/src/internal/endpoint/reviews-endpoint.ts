import type { RequestOptions } from '../../client.ts'
import type { ProductReviewListParams } from '../../resources/products.ts'
import type { ProductReview } from '../../types/published.ts'
import { sortFields } from '../view/review-query.ts'
import { listProductReviews, type ReviewsPage } from './continuation.ts'
import { publicReview } from './public-review.ts'
import { type ReviewsEndpointQuery, readReviewsQuery } from './query.ts'

/** What the endpoint needs of a client: `createClient()` satisfies it. */
export interface ReviewsEndpointClient {
  products: {
    reviews: {
      list(params: ProductReviewListParams, options?: RequestOptions): PromiseLike<ReviewsPage>
    }
  }
}

/** Options of {@link handleReviewsRequest} and {@link createReviewsHandler}. */
export interface ReviewsEndpointOptions {
  /** The client that calls the API, on the server: its credentials never reach the answer. */
  client: ReviewsEndpointClient
  /**
   * Reviews per page when the request gives no `limit`.
   * @default 10
   */
  defaultLimit?: number
  /**
   * Largest `limit` accepted; a larger one is refused with a 400. At most 200 (the API's page size).
   * @default 50
   */
  maxLimit?: number
  /**
   * Seconds a shared cache (CDN) may serve an answer as fresh (`s-maxage`).
   * @default 300
   */
  sMaxAge?: number
  /**
   * Seconds after `sMaxAge` a shared cache may serve an answer while it fetches a new one.
   * @default 86_400
   */
  staleWhileRevalidate?: number
  /**
   * Options of the API call for a request, such as Next.js fetch tags for its product.
   * @default none
   */
  requestOptions?: (query: ReviewsEndpointQuery) => RequestOptions | undefined
  /**
   * Receives failures of the API that the answer does not describe (a 502 or 503 says only that
   * reviews are unavailable).
   * @default console.error
   */
  onError?: (error: unknown) => void
}

/** The answer to a valid request. */
export interface ReviewsEndpointBody {
  /** The page of reviews, trimmed to what the components show (see the package README). */
  data: ProductReview[]
  /** The `cursor` of the next page, or null on the last page. */
  nextCursor: string | null
}

/** The answer to a request the endpoint refuses or cannot serve. */
export interface ReviewsEndpointErrorBody {
  error: {
    message: string
    /** The query parameter at fault, for a 400. */
    field?: string
  }
}

/** An answer, independent of any framework: status, headers and a JSON body. */
export interface ReviewsEndpointResult {
  status: number
  headers: Record<string, string>
  body: ReviewsEndpointBody | ReviewsEndpointErrorBody
}

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'x-content-type-options': 'nosniff',
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${name} must be an integer ≥ 0, not ${value}`)
  return value
}

function refused(
  status: number,
  message: string,
  field?: string,
  extra?: Record<string, string>,
): ReviewsEndpointResult {
  return {
    status,
    headers: { ...JSON_HEADERS, 'cache-control': 'no-store', ...extra },
    body: { error: field === undefined ? { message } : { message, field } },
  }
}

function errorField(error: unknown, key: 'field' | 'code' | 'name'): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const value = (error as Record<string, unknown>)[key]
  return typeof value === 'string' ? value : undefined
}

function statusOf(error: unknown): number | undefined {
  const status =
    typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined
  return typeof status === 'number' ? status : undefined
}

/**
 * Answers one request of the "more reviews" island: `product_variation_id`, `limit` (1 to `maxLimit`),
 * `cursor`, `sort` (`newest`, `oldest`, `highest`, `lowest`), `rate` (comma list of 1 to 5) and `locale`.
 * Bad input is a 400 naming the parameter, before any API call; so is a cursor the API refuses.
 * Errors are checked by name and status rather than by class, so a client from another copy of this
 * package (a second bundle) is understood too.
 */
export async function handleReviewsRequest(
  params: URLSearchParams,
  options: ReviewsEndpointOptions,
): Promise<ReviewsEndpointResult> {
  const maxLimit = options.maxLimit ?? 50
  if (!Number.isInteger(maxLimit) || maxLimit < 1 || maxLimit > 200) {
    throw new RangeError(`maxLimit must be an integer from 1 to 200, not ${maxLimit}`)
  }
  const defaultLimit = Math.min(options.defaultLimit ?? 10, maxLimit)
  const sMaxAge = nonNegativeInteger('sMaxAge', options.sMaxAge ?? 300)
  const staleWhileRevalidate = nonNegativeInteger(
    'staleWhileRevalidate',
    options.staleWhileRevalidate ?? 86_400,
  )

  const read = readReviewsQuery(params, { defaultLimit, maxLimit })
  if ('problem' in read) return refused(400, read.problem.message, read.problem.field)
  const { query } = read

  let page: ReviewsPage
  try {
    page = await listProductReviews(
      (params, requestOptions) => options.client.products.reviews.list(params, requestOptions),
      {
        product_variation_id: [query.productId],
        limit: query.limit,
        // The API binds a cursor to its sort: sorted as the server's first page, the island goes on from it.
        ...sortFields(query.sort),
        ...(query.rate.length > 0 ? { review_rate: query.rate } : {}),
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      },
      options.requestOptions?.(query),
    )
  } catch (error) {
    return failure(error, options.onError ?? console.error)
  }

  const body: ReviewsEndpointBody = {
    data: page.data.map((review) => publicReview(review, query.locale)),
    nextCursor: page.nextCursor ?? null,
  }
  return {
    status: 200,
    headers: {
      ...JSON_HEADERS,
      'cache-control': `public, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}`,
    },
    body,
  }
}

function failure(error: unknown, onError: (error: unknown) => void): ReviewsEndpointResult {
  const status = statusOf(error)
  const field = errorField(error, 'field')
  if (errorField(error, 'name') === 'ValidationError') {
    // The client refused before sending: a cursor it saw issued with another limit, for one.
    return refused(400, `${field ?? 'the request'} is not valid here`, field)
  }
  if (status === 400) {
    const cursor = field === 'cursor' || errorField(error, 'code') === 'invalid_cursor'
    return cursor
      ? refused(400, 'cursor is not valid for this product, limit, sort and rate', 'cursor')
      : refused(400, `the reviews service refused ${field ?? 'the request'}`, field)
  }
  onError(error)
  if (status === 429) {
    const retryAfter = (error as { retryAfter?: unknown }).retryAfter
    return refused(
      503,
      'reviews are unavailable right now',
      undefined,
      typeof retryAfter === 'number' ? { 'retry-after': String(Math.ceil(retryAfter)) } : {},
    )
  }
  return refused(502, 'reviews are unavailable right now')
}

/** A web `Response` for an endpoint answer; a HEAD request gets the headers alone. */
export function toResponse(result: ReviewsEndpointResult, method = 'GET'): Response {
  return new Response(method === 'HEAD' ? null : JSON.stringify(result.body), {
    status: result.status,
    headers: result.headers,
  })
}

/**
 * A handler of web `Request`s (Next.js route handlers, Astro endpoints, any fetch-style server): GET
 * and HEAD answer as {@link handleReviewsRequest}; other methods get a 405.
 */
export function createReviewsHandler(
  options: ReviewsEndpointOptions,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return toResponse(refused(405, `${request.method} is not allowed`, undefined, { allow: 'GET, HEAD' }))
    }
    const result = await handleReviewsRequest(new URL(request.url).searchParams, options)
    return toResponse(result, request.method)
  }
}
