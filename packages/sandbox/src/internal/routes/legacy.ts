import { ratingsOf } from '../aggregate.ts'
import type { Route, SandboxState } from '../context.ts'
import { indexOf } from '../context.ts'
import { HttpError } from '../http-error.ts'
import { absoluteUrl } from '../media.ts'
import { Query } from '../query.ts'
import type { ProductReview } from '../types.ts'
import { uuidParam } from './purchase-events.ts'

/** A review as the legacy Product Reviews API answers it. */
export interface LegacyReview {
  id: string
  rate: number
  review: string
  order_date: string
  review_date: string
  publish_date: string
  firstname: string
  lastname: string
  language: string
  product_ref: string
  brand: string
  category: string
  product_ids: {
    gtin_ean: string
    gtin_jan: string
    gtin_isbn: string
    gtin_upc: string
    sku: string
    mpn: string
  }
  moderations: { date: string; origin: string; comment: string }[]
  medias: { type: 'image'; data: { type: 'image'; small: string; medium: string; large: string } }[]
  helping_votes: { helpful: number; helpless: number }
  hide_exchange: boolean
  anonymised_data: boolean
  pseudonymised_data: boolean
  compensated_review: boolean
  rewarded_review: boolean
  gifted_review: boolean
  syndicated_review: boolean
  syndicated_review_source: string | null
  syndicated_review_source_url: string | null
}

/** The rating of one product as the legacy API answers it. */
export interface LegacyRating {
  average: number
  nb_total: number
  nb_1: number
  nb_2: number
  nb_3: number
  nb_4: number
  nb_5: number
}

/** Every field of a legacy review, each a valid `sortBy` name. */
export const LEGACY_REVIEW_FIELDS: readonly (keyof LegacyReview)[] = [
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

/** The largest `limit`, and the number of reviews per product when `limit` is absent. */
export const LEGACY_MAX_LIMIT = 1000

// Region used when a locale names only a language, so `language` always reads `xx_YY`.
const DEFAULT_REGION: Record<string, string> = { cs: 'CZ', el: 'GR', en: 'GB' }

const CATEGORIES = ['Home', 'Kitchen', 'Garden', 'Sports', 'Beauty', 'Toys', 'Electronics', 'Fashion']

/** A locale (`fr`, `fr-FR`, `fr_fr`) in the legacy form `fr_FR`. */
export function legacyLanguage(locale: string): string {
  const [language = '', region] = locale.split(/[-_]/)
  const lower = language.toLowerCase()
  if (lower === '') return ''
  // Own members only: a locale named `constructor` (a review's, as added) must not read Object's.
  const fallback = Object.hasOwn(DEFAULT_REGION, lower) ? DEFAULT_REGION[lower] : undefined
  return `${lower}_${(region ?? fallback ?? lower).toUpperCase()}`
}

/**
 * The sandbox's catalogue has no categories; the legacy `category` is derived from the product
 * reference so that it stays the same for every review and every run.
 */
export function legacyCategory(productVariationId: string): string {
  let hash = 0
  for (const char of productVariationId) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  return CATEGORIES[hash % CATEGORIES.length] as string
}

export function toLegacyReview(review: ProductReview, origin: string): LegacyReview {
  return {
    id: review.review_id,
    rate: review.review_rate,
    review: review.review_content,
    order_date: review.order_date,
    review_date: review.review_date,
    publish_date: review.publish_date,
    firstname: review.author_firstname,
    lastname: review.author_lastname,
    language: legacyLanguage(review.locale),
    product_ref: review.product_variation_id,
    brand: review.product_brand,
    category: legacyCategory(review.product_variation_id),
    product_ids: {
      gtin_ean: review.product_ean,
      gtin_jan: review.product_jan,
      gtin_isbn: '',
      gtin_upc: review.product_upc,
      sku: review.product_sku,
      mpn: review.product_mpn,
    },
    moderations: review.moderations.map((m) => ({ date: m.date, origin: m.origin, comment: m.comment })),
    medias: review.medias.map((m) => ({
      type: 'image',
      data: {
        type: 'image',
        small: absoluteUrl(m.small, origin),
        medium: absoluteUrl(m.medium, origin),
        large: absoluteUrl(m.large, origin),
      },
    })),
    helping_votes: {
      helpful: review.helpful_votes?.helpful ?? 0,
      helpless: review.helpful_votes?.helpless ?? 0,
    },
    hide_exchange: false,
    anonymised_data: !review.is_personal_data_disclosed,
    pseudonymised_data: false,
    compensated_review: review.incentivization === 'compensated',
    rewarded_review: false,
    gifted_review: review.incentivization === 'gifted',
    syndicated_review: review.syndicated_review,
    syndicated_review_source: review.syndicated_review_source || null,
    syndicated_review_source_url: review.syndicated_review_source_url || null,
  }
}

/** Counts and average of a product's ratings, the same numbers as the Published API's. */
export function toLegacyRating(reviews: readonly ProductReview[]): LegacyRating {
  const ratings = ratingsOf(reviews)
  return {
    average: ratings.average,
    nb_total: ratings.count_total,
    nb_1: ratings.count_1,
    nb_2: ratings.count_2,
    nb_3: ratings.count_3,
    nb_4: ratings.count_4,
    nb_5: ratings.count_5,
  }
}

/**
 * Orders any two legacy field values: null first, then by type; arrays by length (so `medias`
 * sorts reviews by their number of images), objects member by member.
 */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === null || a === undefined) return -1
  if (b === null || b === undefined) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return a.length - b.length
    for (let i = 0; i < a.length; i++) {
      const order = compareValues(a[i], b[i])
      if (order !== 0) return order
    }
    return 0
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>
    const right = b as Record<string, unknown>
    for (const key of Object.keys(left)) {
      const order = compareValues(left[key], right[key])
      if (order !== 0) return order
    }
    return 0
  }
  return typeof a < typeof b ? -1 : 1
}

export interface LegacyReviewQuery {
  rates: ReadonlySet<number> | undefined
  sortBy: readonly (keyof LegacyReview)[]
  descending: boolean
  offset: number
  limit: number
}

/** One product's reviews after the rate filter, the sort (ties by id ascending), offset and limit. */
export function selectReviews(reviews: readonly LegacyReview[], query: LegacyReviewQuery): LegacyReview[] {
  const sign = query.descending ? -1 : 1
  return reviews
    .filter((r) => query.rates === undefined || query.rates.has(r.rate))
    .sort((a, b) => {
      for (const field of query.sortBy) {
        const order = compareValues(a[field], b[field])
        if (order !== 0) return sign * order
      }
      return compareValues(a.id, b.id)
    })
    .slice(query.offset, query.offset + query.limit)
}

/** The website of a path parameter: 400 when it is no uuid, 404 when it is another website. */
export function knownWebsite(raw: string | undefined, state: SandboxState): string {
  const websiteId = uuidParam(raw, 'website_id')
  if (websiteId.toLowerCase() !== state.settings.websiteId.toLowerCase()) {
    throw new HttpError(404, 'not_found', `no website ${websiteId}`, { field: 'website_id' })
  }
  return websiteId
}

/**
 * The requested references: `ref` is a comma separated list of url-encoded references (so a
 * reference holding a comma arrives as `%2C` inside its item); absent means the whole catalogue.
 */
export function requestedRefs(query: Query, state: SandboxState): string[] {
  const raw = query.string('ref')
  if (raw === undefined) return state.products.map((p) => p.product_variation_id)
  const refs = raw.split(',').map((item) => {
    try {
      return decodeURIComponent(item)
    } catch {
      throw new HttpError(400, 'invalid_parameter', 'ref holds a malformed percent-encoding', {
        field: 'ref',
      })
    }
  })
  if (refs.includes('')) {
    throw new HttpError(
      400,
      'invalid_parameter',
      'ref must be a comma separated list of non-empty references',
      {
        field: 'ref',
      },
    )
  }
  return [...new Set(refs)]
}

/** The reviews of each requested product, keyed in the requested order (an unknown one has none). */
export function reviewsByRef(state: SandboxState, refs: readonly string[]): Map<string, ProductReview[]> {
  const index = indexOf(state)
  return new Map(refs.map((ref) => [ref, [...index.reviewsOf(ref)]]))
}

function parseReviewQuery(query: Query): LegacyReviewQuery {
  const rates = query.list('rate', (item) => /^[1-5]$/.test(item), 'a rating from 1 to 5')
  const sortBy = query.list(
    'sortBy',
    (item) => (LEGACY_REVIEW_FIELDS as readonly string[]).includes(item),
    'a review field',
  ) ?? ['publish_date']
  const direction = (query.string('sortDirection') ?? 'DESC').toUpperCase()
  if (direction !== 'ASC' && direction !== 'DESC') {
    throw new HttpError(400, 'invalid_parameter', 'sortDirection must be ASC or DESC', {
      field: 'sortDirection',
    })
  }
  return {
    rates: rates && new Set(rates.map(Number)),
    sortBy: sortBy as (keyof LegacyReview)[],
    descending: direction === 'DESC',
    offset: query.integer('offset', 0, Number.MAX_SAFE_INTEGER, 0),
    limit: query.integer('limit', 1, LEGACY_MAX_LIMIT, LEGACY_MAX_LIMIT),
  }
}

export const legacyRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/websites\/(?<website_id>[^/]+)\/products\/ratings$/,
    operation: 'legacy.products.ratings',
    rateLimited: false,
    handle(req, state, params) {
      knownWebsite(params.website_id, state)
      const query = new Query(req.url, ['ref'])
      const groups = reviewsByRef(state, requestedRefs(query, state))
      // fromEntries defines own keys, so a reference named __proto__ stays a key like any other.
      const data = Object.fromEntries(
        [...groups].map(([ref, reviews]) => [ref, reviews.length === 0 ? null : toLegacyRating(reviews)]),
      )
      return { status: 200, body: { data } }
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/websites\/(?<website_id>[^/]+)\/products\/reviews$/,
    operation: 'legacy.products.reviews',
    rateLimited: false,
    handle(req, state, params) {
      knownWebsite(params.website_id, state)
      const query = new Query(req.url, ['ref', 'rate', 'sortBy', 'sortDirection', 'limit', 'offset'])
      const refs = requestedRefs(query, state)
      const reviewQuery = parseReviewQuery(query)
      const data = Object.fromEntries(
        [...reviewsByRef(state, refs)].map(([ref, reviews]) => [
          ref,
          reviews.length === 0
            ? null
            : selectReviews(
                reviews.map((r) => toLegacyReview(r, req.origin)),
                reviewQuery,
              ),
        ]),
      )
      return { status: 200, body: { data } }
    },
  },
]
