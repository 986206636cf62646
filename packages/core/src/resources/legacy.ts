import { Issues, isIntegerIn, isObject, isReferenceList } from '../internal/base/validate.ts'
import type { ClientContext } from '../internal/context/client-context.ts'
import { optionsFor } from '../internal/context/operation-options.ts'
import { joinUrl } from '../internal/settings/addresses.ts'
import { send } from '../internal/transport/http.ts'
import { invalidAnswer, jsonOf } from '../internal/transport/json-body.ts'
import type { LegacyProductRatingsResponse, LegacyProductReviewsResponse } from '../types/legacy.ts'
import type { LegacyRatingsGetParams, LegacyReviewsGetParams } from '../types/params.ts'
import type { RequestOptions } from '../types/request-options.ts'
import { Resource } from './resource.ts'

// Fields of a legacy review, the ones sortBy accepts.
const LEGACY_REVIEW_FIELDS = [
  'id',
  'rate',
  'review',
  'order_date',
  'review_date',
  'publish_date',
  'firstname',
  'lastname',
  'language',
  'product_ref',
  'brand',
  'category',
  'product_ids',
  'moderations',
  'medias',
  'helping_votes',
  'hide_exchange',
  'anonymised_data',
  'pseudonymised_data',
  'compensated_review',
  'rewarded_review',
  'gifted_review',
  'syndicated_review',
  'syndicated_review_source',
  'syndicated_review_source_url',
]

const RATING_MEMBERS = ['websiteId', 'ref']
const REVIEW_MEMBERS = [...RATING_MEMBERS, 'rate', 'sortBy', 'sortDirection', 'limit', 'offset']

/** Checks the parameters and writes the query; `ref` items are url-encoded, joined by commas, sorted. */
function legacyQuery(
  context: ClientContext,
  params: Record<string, unknown>,
  members: readonly string[],
  issues: Issues,
): { websiteId: string; query: URLSearchParams } {
  const query = new URLSearchParams()
  issues.unknownMembers(params, members)
  const websiteId = issues.websiteId(params.websiteId, context.websiteId)
  const { ref, rate, sortBy, sortDirection, limit, offset } = params
  if (ref !== undefined) {
    if (!isReferenceList(ref)) {
      issues.add('ref', 'must be a non-empty array of non-empty product references')
    } else {
      // Alphabetical order and no repeats: the same set of references always makes the same address.
      const refs = [...new Set(ref)].sort()
      query.set('ref', refs.map(encodeURIComponent).join(','))
    }
  }
  if (rate !== undefined) {
    if (!Array.isArray(rate) || rate.length === 0 || !rate.every((item) => isIntegerIn(item, 1, 5))) {
      issues.add('rate', 'must be a non-empty array of integers from 1 to 5')
    } else query.set('rate', rate.join(','))
  }
  if (sortBy !== undefined) {
    if (!Array.isArray(sortBy) || sortBy.length === 0)
      issues.add('sortBy', 'must be a non-empty array of review fields')
    else {
      const unknown = sortBy.filter((field) => !LEGACY_REVIEW_FIELDS.includes(field))
      if (unknown.length > 0) issues.add('sortBy', `cannot sort by ${unknown.join(', ')}`)
      else query.set('sortBy', sortBy.join(','))
    }
  }
  if (sortDirection !== undefined) {
    if (sortDirection !== 'ASC' && sortDirection !== 'DESC')
      issues.add('sortDirection', "must be 'ASC' or 'DESC'")
    else query.set('sortDirection', sortDirection)
  }
  for (const [name, value, min] of [
    ['limit', limit, 1],
    ['offset', offset, 0],
  ] as const) {
    if (value === undefined) continue
    if (!isIntegerIn(value, min, Number.MAX_SAFE_INTEGER))
      issues.add(name, `must be an integer, ${min} or more`)
    else query.set(name, String(value))
  }
  return { websiteId, query }
}

async function getLegacy<T>(
  context: ClientContext,
  path: 'ratings' | 'reviews',
  params: Record<string, unknown> | undefined,
  callOptions: RequestOptions | undefined,
): Promise<T> {
  const issues = new Issues()
  if (params !== undefined && !isObject(params)) issues.add('params', 'must be an object')
  const { websiteId, query } = legacyQuery(
    context,
    params ?? {},
    path === 'ratings' ? RATING_MEMBERS : REVIEW_MEMBERS,
    issues,
  )
  issues.throwIfAny()
  const options = optionsFor(context, `legacy.products.${path}.get`, (params ?? {}) as never, callOptions)
  const base = joinUrl(
    context.addresses.legacyUrl,
    `websites/${encodeURIComponent(websiteId)}/products/${path}`,
  )
  const search = query.toString()
  const url = search === '' ? base : `${base}?${search}`
  const answer = await send(context.settings, { service: context.legacy, method: 'GET', url }, options)
  const body = jsonOf(answer, 'legacy')
  if (!isObject(body) || !isObject(body.data))
    throw invalidAnswer(answer, 'legacy', 'The answer has no data object.')
  return body as T
}

/** Ratings per product reference of the legacy API. */
export class LegacyProductRatings extends Resource {
  /**
   * `GET /websites/{website_id}/products/ratings`: `data` keyed by every requested reference,
   * `null` for one without reviews. Replaced by `products.ratings.list` or `products.list`.
   */
  get(params?: LegacyRatingsGetParams, options?: RequestOptions): Promise<LegacyProductRatingsResponse> {
    return getLegacy(this.context, 'ratings', params as Record<string, unknown> | undefined, options)
  }
}

/** Reviews per product reference of the legacy API. */
export class LegacyProductReviews extends Resource {
  /**
   * `GET /websites/{website_id}/products/reviews`: `data` keyed by every requested reference, the
   * filters applied to each reference's list. Replaced by `products.reviews.list`.
   */
  get(params?: LegacyReviewsGetParams, options?: RequestOptions): Promise<LegacyProductReviewsResponse> {
    return getLegacy(this.context, 'reviews', params as Record<string, unknown> | undefined, options)
  }
}

/** Products of the legacy API. */
export class LegacyProducts {
  readonly ratings: LegacyProductRatings
  readonly reviews: LegacyProductReviews

  /** @internal */
  constructor(context: ClientContext) {
    this.ratings = new LegacyProductRatings(context)
    this.reviews = new LegacyProductReviews(context)
  }
}

/** The legacy Product Reviews API (no authentication; `websiteId` in the path). */
export class Legacy {
  readonly products: LegacyProducts

  /** @internal */
  constructor(context: ClientContext) {
    this.products = new LegacyProducts(context)
  }
}
