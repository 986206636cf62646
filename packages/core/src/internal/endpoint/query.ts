import type { ReviewRate } from '../../types/published.ts'
import { type Locale, resolveLocale, SUPPORTED_LOCALES } from '../i18n/locale.ts'
import { CURSOR_SHAPE, isReviewSort, parseRates, REVIEW_SORTS } from '../view/review-query.ts'

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

  const cursorText = params.get('cursor')
  const cursor = cursorText === null || cursorText === '' ? undefined : cursorText
  if (cursor !== undefined && !CURSOR_SHAPE.test(cursor))
    return problem('cursor', 'is not a cursor of this endpoint')

  const sort = params.get('sort') ?? 'newest'
  if (!isReviewSort(sort)) return problem('sort', `must be one of ${REVIEWS_ENDPOINT_SORTS.join(', ')}`)

  const rate = readRates(params.get('rate'))
  if (rate === undefined) return problem('rate', 'must be ratings from 1 to 5, separated by commas')

  const localeText = params.get('locale')
  const locale = localeText === null ? resolveLocale(undefined) : readLocale(localeText)
  if (locale === undefined) return problem('locale', `must be one of ${SUPPORTED_LOCALES.join(', ')}`)

  return { query: { productId, limit, cursor, sort, rate, locale } }
}

/** The rates of a strict comma list (`4,5`), as the page URL's are kept: ascending, without repeats. */
function readRates(text: string | null): ReviewRate[] | undefined {
  if (text === null || text === '') return []
  return text.split(',').every((item) => /^[1-5]$/.test(item)) ? parseRates(text) : undefined
}

/** A supported language from a BCP 47 tag (`fr`, `fr-CA`, `pt_BR`); undefined for any other language. */
function readLocale(text: string): Locale | undefined {
  if (!LOCALE_TAG.test(text)) return undefined
  const language = text.slice(0, text.search(/[-_]|$/)).toLowerCase()
  const resolved = resolveLocale(text)
  return resolved === language ? resolved : undefined
}
