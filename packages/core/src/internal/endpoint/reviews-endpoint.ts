import type { ProductReviewListParams } from '../../types/params.ts'
import type { ProductReview, ReviewRate } from '../../types/published.ts'
import type { RequestOptions } from '../../types/request-options.ts'
import { rememberSecret } from '../base/redact.ts'
import { remembered } from '../base/remembered.ts'
import { type SingleFlight, singleFlight } from '../base/single-flight.ts'
import { membersOf } from '../base/validate.ts'
import type { ReviewsPage } from '../cursor/continuation.ts'
import { CURSOR_SHAPE, isReviewSort, parseRates, REVIEW_SORTS, sortFields } from '../cursor/review-query.ts'
import { type CursorScope, type CursorSigner, cursorSigner } from '../cursor/signed-cursor.ts'
import { type Locale, resolveLocale, SUPPORTED_LOCALES } from '../i18n/locale.ts'
import { type ProductReplica, replicaSource } from '../view/product-view.ts'
import { CallSlots } from './call-slots.ts'
import { type PublicReview, publicReview } from './public-review.ts'

/** The orders the endpoint offers, those of the page URL and the island's sort menu. */
export const REVIEWS_ENDPOINT_SORTS = REVIEW_SORTS

/** One of {@link REVIEWS_ENDPOINT_SORTS}. */
export type ReviewsEndpointSort = (typeof REVIEWS_ENDPOINT_SORTS)[number]

/** The parameters of one request to the reviews endpoint, checked. */
export interface ReviewsEndpointQuery {
  productId: string
  limit: number
  cursor: string | undefined
  sort: ReviewsEndpointSort
  /** Ratings kept, ascending without repeats; empty for every rating. */
  rate: ReviewRate[]
  locale: Locale
}

/** A parameter the endpoint refuses, named as the query string names it. */
export interface QueryProblem {
  field: string
  message: string
}

const PARAMETERS = new Set(['product_variation_id', 'limit', 'cursor', 'sort', 'rate', 'locale'])
const MAX_PRODUCT_ID_LENGTH = 255
const LOCALE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/

/** A refusal of the parameter `field`, whose message starts with its name. */
function problem(field: string, message: string): { problem: QueryProblem } {
  return { problem: { field, message: `${field} ${message}` } }
}

/**
 * Reads the query of a reviews endpoint request: every parameter known, given once, and valid.
 * `cursor` and `rate` may be empty (a form's "all ratings" option), which means absent.
 */
export function readReviewsQuery(
  params: URLSearchParams,
  limits: { defaultLimit: number; maxLimit: number },
): { query: ReviewsEndpointQuery } | { problem: QueryProblem } {
  const seen = new Set<string>()
  for (const name of params.keys()) {
    if (!PARAMETERS.has(name)) return problem(name, 'is not a parameter of this endpoint')
    if (seen.has(name)) return problem(name, 'is given more than once')
    seen.add(name)
  }

  const productId = params.get('product_variation_id')
  if (productId === null || productId === '') return problem('product_variation_id', 'is required')
  if (productId.length > MAX_PRODUCT_ID_LENGTH || /[\s,]/.test(productId)) {
    return problem(
      'product_variation_id',
      `must be one identifier of at most ${MAX_PRODUCT_ID_LENGTH} characters, without spaces or commas`,
    )
  }

  const limitText = params.get('limit')
  let limit = limits.defaultLimit
  if (limitText !== null) {
    limit = /^[0-9]{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN
    if (!(limit >= 1 && limit <= limits.maxLimit)) {
      return problem('limit', `must be an integer from 1 to ${limits.maxLimit}`)
    }
  }

  const cursor = params.get('cursor') || undefined
  if (cursor !== undefined && !CURSOR_SHAPE.test(cursor))
    return problem('cursor', 'is not a cursor of this endpoint')

  const sort = params.get('sort') ?? 'newest'
  if (!isReviewSort(sort)) return problem('sort', `must be one of ${REVIEWS_ENDPOINT_SORTS.join(', ')}`)

  // Kept as the page URL's are: ascending, without repeats.
  const rateText = params.get('rate') ?? ''
  if (!/^(?:[1-5](?:,[1-5])*)?$/.test(rateText)) {
    return problem('rate', 'must be ratings from 1 to 5, separated by commas')
  }

  const localeText = params.get('locale')
  const locale = localeText === null ? resolveLocale(undefined) : readLocale(localeText)
  if (locale === undefined) return problem('locale', `must be one of ${SUPPORTED_LOCALES.join(', ')}`)

  return { query: { productId, limit, cursor, sort, rate: parseRates(rateText), locale } }
}

/** A supported language from a BCP 47 tag (`fr`, `fr-CA`, `pt_BR`); undefined for any other language. */
function readLocale(text: string): Locale | undefined {
  if (!LOCALE_TAG.test(text)) return undefined
  const language = text.slice(0, text.search(/[-_]|$/)).toLowerCase()
  const resolved = resolveLocale(text)
  return resolved === language ? resolved : undefined
}

/**
 * What the endpoint needs of a client: `createClient()` satisfies it. Its `list` is given the cursors
 * the site hands out, continuation cursors included, which a client's `products.reviews.list` takes.
 */
export interface ReviewsEndpointClient {
  products: {
    reviews: {
      list(params: ProductReviewListParams, options?: RequestOptions): PromiseLike<ReviewsPage>
    }
  }
}

/** Options of {@link handleReviewsRequest} and {@link createReviewsHandler}. */
export interface ReviewsEndpointOptions {
  /**
   * The client that calls the API, on the server: its credentials never reach the answer. With a client
   * made by `createClient`, the endpoint signs and checks cursors with the key that client derives from
   * its secret (the one the review components use), and keeps a share of its rate budget for pages.
   */
  client: ReviewsEndpointClient
  /**
   * The site's replica of the account, when it holds the product asked for: the page is read from it,
   * with no API call (no concurrency slot, no share of the rate budget). A cursor the replica does not
   * read (one issued while the API served) goes on through the API.
   * @default undefined (every page from the API)
   */
  replica?: ((productIds: readonly string[]) => PromiseLike<ProductReplica | undefined>) | undefined
  /**
   * Secret of the key that signs the cursors. Only for a `client` not made by `createClient`, which has
   * no key of its own; it must then be the `cursorSecret` of the client the review components render
   * with (give that client one: a key it derives from its client secret is not derived from a string
   * alone), or the cursors they hand out are refused.
   * @default the key of `client` (its `cursorSecret` option, else derived from its client secret)
   */
  cursorSecret?: string
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
   * Most API calls the endpoint has under way at once (for one client); a request beyond them waits
   * for one to end (`maxWait`). Identical requests under way share one call and count once.
   * @default 4
   */
  maxConcurrency?: number
  /**
   * Milliseconds a request beyond `maxConcurrency` waits, first come first served, for a call under way
   * to end before it is answered 503 with `Retry-After: 1`; 0 answers it at once. A call the client
   * answers from a cache (Next.js's data cache) ends in milliseconds, so that a burst of such requests
   * is served rather than refused, while an API that is slow to answer still gets at most
   * `maxConcurrency` calls.
   * @default 1000
   */
  maxWait?: number
  /**
   * Most requests that wait at once (for one client) for a call under way to end; one more is answered
   * 503 with `Retry-After: 1` at once, as with `maxWait` 0. About as many as calls answered from a cache
   * (milliseconds each) serve within `maxWait`: a request beyond them would most likely wait in vain, and
   * a flood holds no more than this many requests open.
   * @default 1000
   */
  maxWaiting?: number
  /**
   * Share of the API's rate budget kept for page rendering, from 0 to 0.9: the endpoint's calls are
   * visitor-driven requests (the `visitor` request option, with `visitorShare` `1 - reservedRateShare`),
   * which take at most the rest of each rate window, and only while the rate-limit headers say more than
   * this share of the current window is left. Beyond that the client refuses the call at once
   * (`RateShareError`) and the endpoint answers 503 with `Retry-After`. Needs a client made by
   * `createClient`; 0 turns the reserve off (the calls then wait their turn as the site's own).
   * @default 0.5
   */
  reservedRateShare?: number
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
   * Options of the API call for a request, such as Next.js fetch tags for its product. `maxRetries` is
   * always 0: a public request never retries.
   * @default none
   */
  requestOptions?: (query: ReviewsEndpointQuery) => RequestOptions | undefined
  /**
   * Receives failures of the API that the answer does not describe (a 502 or 503 says only that
   * reviews are unavailable), and a missing cursor key (a 500).
   * @default console.error
   */
  onError?: (error: unknown) => void
}

/** The answer to a valid request. */
export interface ReviewsEndpointBody {
  /** The page of reviews, each trimmed to the fields the components draw (see the package README). */
  data: PublicReview[]
  /** The signed `cursor` of the next page, or null on the last page. */
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

/** `value` when it is an integer from `min` to `max` (no bound above when undefined); a RangeError naming `name` else. */
function integerOption(name: string, value: number, min: number, max?: number): number {
  if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`
    throw new RangeError(`${name} must be an integer ${range}, not ${value}`)
  }
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

/** The page an API call gave, its next cursor signed; or the answer its failure makes. */
type Flight = { page: ProductReview[]; nextCursor: string | null } | { failed: ReviewsEndpointResult }

/** What the endpoint keeps between requests, per client: its calls under way and its cursor signer. */
interface EndpointState {
  slots: CallSlots
  flights: SingleFlight<string, Flight>
  signer: { secret: string | undefined; signer: CursorSigner } | undefined
}

const states = new WeakMap<object, EndpointState>()

const UNAVAILABLE = 'reviews are unavailable right now'

/** A 503, with `Retry-After` in whole seconds (1 at least) when `seconds` is known. */
function unavailable(seconds: number | undefined): ReviewsEndpointResult {
  const retry: Record<string, string> =
    seconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(seconds))) }
  return refused(503, UNAVAILABLE, undefined, retry)
}

/**
 * Answers one request of the "more reviews" island: `product_variation_id`, `limit` (1 to `maxLimit`),
 * `cursor`, `sort` (`newest`, `oldest`, `highest`, `lowest`), `rate` (comma list of 1 to 5) and `locale`.
 *
 * Bad input is a 400 naming the parameter, before any API call; so is a cursor this endpoint (or the
 * review components, with the same key) did not sign for this product, limit, sort and rate, and a
 * cursor the API refuses. The endpoint has a budget of its own: one API call per request and no retry,
 * at most `maxConcurrency` calls under way (identical requests share one; a request beyond them waits
 * up to `maxWait` ms for one to end, behind at most `maxWaiting` others), and none beyond the share of
 * the client's rate budget that `reservedRateShare` leaves it: such requests get a 503 with `Retry-After`.
 * Errors are checked by name and status rather than by class, so a client from another copy of this
 * package (a second bundle) is understood too.
 */
export async function handleReviewsRequest(
  params: URLSearchParams,
  options: ReviewsEndpointOptions,
): Promise<ReviewsEndpointResult> {
  const maxLimit = integerOption('maxLimit', options.maxLimit ?? 50, 1, 200)
  const defaultLimit = Math.min(options.defaultLimit ?? 10, maxLimit)
  const sMaxAge = integerOption('sMaxAge', options.sMaxAge ?? 300, 0)
  const staleWhileRevalidate = integerOption(
    'staleWhileRevalidate',
    options.staleWhileRevalidate ?? 86_400,
    0,
  )
  const maxConcurrency = integerOption('maxConcurrency', options.maxConcurrency ?? 4, 1, 64)
  const maxWait = integerOption('maxWait', options.maxWait ?? 1000, 0)
  const maxWaiting = integerOption('maxWaiting', options.maxWaiting ?? 1000, 0)
  const reserved = options.reservedRateShare ?? 0.5
  if (typeof reserved !== 'number' || !(reserved >= 0 && reserved <= 0.9)) {
    throw new RangeError(`reservedRateShare must be a number from 0 to 0.9, not ${reserved}`)
  }
  const onError = options.onError ?? console.error

  const read = readReviewsQuery(params, { defaultLimit, maxLimit })
  if ('problem' in read) return refused(400, read.problem.message, read.problem.field)
  const { query } = read

  const state = remembered(states, options.client, () => ({
    slots: new CallSlots(),
    flights: singleFlight<string, Flight>(),
    signer: undefined,
  }))
  const scope: CursorScope = {
    kind: 'product',
    id: query.productId,
    sort: query.sort,
    rates: query.rate,
    limit: query.limit,
  }
  let signer: CursorSigner
  let cursor: string | undefined
  try {
    if (state.signer === undefined || state.signer.secret !== options.cursorSecret) {
      rememberSecret(options.cursorSecret)
      state.signer = {
        secret: options.cursorSecret,
        signer: cursorSigner(options.client, options.cursorSecret),
      }
    }
    signer = state.signer.signer
    cursor = await signer.open(scope, query.cursor)
  } catch (error) {
    // No key to check or sign cursors with: a configuration error, never the visitor's.
    onError(error)
    return refused(500, UNAVAILABLE)
  }
  if (query.cursor !== undefined && cursor === undefined) {
    return refused(
      400,
      'cursor is not a cursor issued by this site for this product, limit, sort and rate',
      'cursor',
    )
  }

  const replica = await options.replica?.([query.productId])
  if (replica !== undefined) {
    const view = { sort: query.sort, rates: query.rate, cursor: query.cursor }
    const page = await replicaSource(replica).page([query.productId], view, scope, signer)
    // The replica read the cursor, or there was none: its page. Else the API goes on from the cursor.
    if (page.cursor !== undefined || query.cursor === undefined) {
      return answer(page.data, page.nextCursor ?? null)
    }
  }

  /** The one API call of a request (shared by identical requests under way), without retry. */
  const fetchPage = async (): Promise<Flight> => {
    let page: ReviewsPage
    try {
      // The cursor may be the API's or a continuation cursor (a first page shown from build data): the
      // client's list takes both.
      page = await options.client.products.reviews.list(
        {
          product_variation_id: [query.productId],
          limit: query.limit,
          // The API binds a cursor to its sort: sorted as the server's first page, the island goes on.
          ...sortFields(query.sort),
          ...(query.rate.length > 0 ? { review_rate: query.rate } : {}),
          ...(cursor === undefined ? {} : { cursor }),
        },
        {
          ...options.requestOptions?.(query),
          maxRetries: 0,
          ...(reserved > 0 ? { visitor: true, visitorShare: 1 - reserved } : {}),
        },
      )
    } catch (error) {
      return { failed: failure(error, onError) }
    }
    try {
      return { page: page.data, nextCursor: (await signer.sign(scope, page.nextCursor)) ?? null }
    } catch (error) {
      onError(error)
      return { failed: refused(500, UNAVAILABLE) }
    }
  }

  const key = JSON.stringify([query.productId, query.limit, query.sort, query.rate, cursor ?? null])
  let flight = state.flights.get(key)
  if (flight === undefined) {
    if (!(await state.slots.acquire({ maxConcurrency, maxWait, maxWaiting }))) {
      return unavailable(1)
    }
    // While this request waited, an identical one may have started the call: it shares that one.
    flight = state.flights.get(key)
    if (flight !== undefined) state.slots.release()
  }
  if (flight === undefined) {
    flight = state.flights.run(key, () => fetchPage().finally(() => state.slots.release()))
  }

  const outcome = await flight
  if ('failed' in outcome) return outcome.failed
  return answer(outcome.page, outcome.nextCursor)

  function answer(reviews: readonly ProductReview[], nextCursor: string | null): ReviewsEndpointResult {
    return {
      status: 200,
      headers: {
        ...JSON_HEADERS,
        'cache-control': `public, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}`,
      },
      body: { data: reviews.map((review) => publicReview(review, query.locale)), nextCursor },
    }
  }
}

/** The answer a failed API call makes, its error read by members: another copy's classes differ. */
function failure(error: unknown, onError: (error: unknown) => void): ReviewsEndpointResult {
  const { status, name, code, retryAfter, field: member } = membersOf(error)
  const field = typeof member === 'string' ? member : undefined
  // The client kept the rest of its rate budget for pages: the reserve at work, not a failure to report.
  if (name === 'RateShareError') return unavailable(typeof retryAfter === 'number' ? retryAfter : undefined)
  if (name === 'ValidationError') {
    // The client refused before sending: a cursor it saw issued with another limit, for one.
    return refused(400, `${field ?? 'the request'} is not valid here`, field)
  }
  if (status === 400) {
    return field === 'cursor' || code === 'invalid_cursor'
      ? refused(400, 'cursor is not valid for this product, limit, sort and rate', 'cursor')
      : refused(400, `the reviews service refused ${field ?? 'the request'}`, field)
  }
  onError(error)
  if (status === 429) return unavailable(typeof retryAfter === 'number' ? retryAfter : undefined)
  return refused(502, UNAVAILABLE)
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
