import type { ProductReviewListParams } from '../../types/params.ts'
import type { ProductReview, ReviewRate } from '../../types/published.ts'
import { ValidationError } from '../base/errors.ts'
import { DEFAULT_LIMIT } from './cursor-limits.ts'
import { base64url, fromBase64url } from './signed-cursor.ts'

// Cannot begin an API cursor in practice, and stays within the cursor shape of the endpoint and the components.
const PREFIX = '~vr1~'
// The API's largest page: a page asked for holds the reviews to skip as well as those to show.
const MAX_LIMIT = 200

/** How a page is asked for when its cursor is one the client made rather than the API's. */
export interface Resumed<Params, Item> {
  /** The parameters to send instead (without a cursor). */
  params: Params
  /** The page, from the items of the answer (`more`: the answer has a next page). */
  cut(data: Item[], more: boolean): { data: Item[]; nextCursor: string | undefined }
}

/**
 * Where a page of reviews ends, so that the next page can be asked of the API without an API cursor: the
 * reviews published up to `before`, newest first, less those already shown at that very date.
 */
export interface Continuation {
  before: string
  skip: string[]
  rates: ReviewRate[]
}

/** A page as a list call answers it, as far as the endpoint and the components read it. */
export interface ReviewsPage {
  data: ProductReview[]
  nextCursor: string | undefined
  previousCursor?: string | undefined
}

function encode(continuation: Continuation): string {
  return PREFIX + base64url(new TextEncoder().encode(JSON.stringify(continuation)))
}

function invalid(): ValidationError {
  return new ValidationError([{ field: 'cursor', message: 'is not a cursor issued for this list' }])
}

/**
 * What a {@link continuationCursor} holds: the date the page ended at, the reviews shown at that date
 * and the rates.
 *
 * @throws ValidationError naming `cursor` when it is malformed.
 */
export function readContinuation(cursor: string): Continuation {
  try {
    const bytes = fromBase64url(cursor.slice(PREFIX.length))
    // Text that is no base64url decodes to nothing, which does not parse.
    const value = JSON.parse(new TextDecoder().decode(bytes)) as unknown
    const { before, skip, rates } = value as Partial<Continuation>
    const valid =
      typeof before === 'string' &&
      !Number.isNaN(Date.parse(before)) &&
      Array.isArray(skip) &&
      skip.length <= MAX_LIMIT &&
      skip.every((id) => typeof id === 'string') &&
      Array.isArray(rates) &&
      rates.every((rate) => [1, 2, 3, 4, 5].includes(rate))
    if (!valid) throw invalid()
    return value as Continuation
  } catch {
    throw invalid()
  }
}

/** Whether a cursor was made by {@link continuationCursor} (and is none of the API's). */
export function isContinuationCursor(cursor: string | undefined): cursor is string {
  return cursor?.startsWith(PREFIX) === true
}

/**
 * The cursor of the page after `shown`, a page of a product's reviews newest first that came from local
 * data (a build-time sync) rather than from the API, so that it has no API cursor. Pass it where an API
 * cursor would go (the island's `nextCursor`, a `vr_cursor` link, the `cursor` of a client's
 * `products.reviews.list`): the reviews endpoint and the client go on from it with the API, page after
 * page. Undefined when `shown` is empty.
 *
 * @param rates The rate filter the page was shown with (empty for every rate).
 */
export function continuationCursor(
  shown: readonly Pick<ProductReview, 'review_id' | 'publish_date'>[],
  rates: readonly ReviewRate[] = [],
): string | undefined {
  const last = shown.at(-1)
  if (last === undefined) return undefined
  const skip = shown
    .filter((review) => review.publish_date === last.publish_date)
    .map((review) => review.review_id)
  return encode({ before: last.publish_date, skip, rates: [...rates].sort((a, b) => a - b) })
}

/**
 * How to go on from `cursor` with the API when it is a {@link continuationCursor}; undefined for any
 * other cursor (an API one). `products.reviews.list` takes continuation cursors through it.
 *
 * @throws ValidationError naming `cursor` for a continuation cursor that is malformed or used with another
 * order or rate filter.
 */
export function resumeReviews(
  params: ProductReviewListParams,
  cursor: string,
): Resumed<ProductReviewListParams, ProductReview> | undefined {
  if (!isContinuationCursor(cursor)) return undefined
  const continuation = readContinuation(cursor)
  // One field or a list of one, as the query checked them: `publish_date` both, and the same rates.
  const newest = String(params.sort) === 'publish_date' && String(params.desc) === 'publish_date'
  const rates = [params.review_rate ?? []].flat().sort((a, b) => a - b)
  if (!newest || rates.join() !== continuation.rates.join() || params.publish_date !== undefined)
    throw invalid()

  const limit = params.limit ?? DEFAULT_LIMIT
  const skip = new Set(continuation.skip.slice(0, MAX_LIMIT - limit))
  const { cursor: _cursor, ...rest } = params
  return {
    params: { ...rest, limit: limit + skip.size, publish_date: { lte: continuation.before } },
    cut(data, more) {
      const kept = data.filter((review) => !skip.has(review.review_id))
      const page = kept.slice(0, limit)
      return {
        data: page,
        nextCursor: kept.length > limit || more ? continuationCursor(page, continuation.rates) : undefined,
      }
    },
  }
}
