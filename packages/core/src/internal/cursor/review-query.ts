import type { ReviewRate } from '../../types/published.ts'

// One page-URL contract for the React and Astro components and the island, so links, fetches and the
// address bar agree.

/** The orders a reader can choose; `newest` when the page says nothing. */
export const REVIEW_SORTS = ['newest', 'oldest', 'highest', 'lowest'] as const

/** A sort order of the reviews, as the page URL and the island's endpoint name it. */
export type ReviewSort = (typeof REVIEW_SORTS)[number]

/** The order shown when the page URL names none. */
export const DEFAULT_SORT: ReviewSort = 'newest'

/** Names of the page URL's search params; prefixed so they never clash with the site's own. */
export const PARAM = { cursor: 'vr_cursor', sort: 'vr_sort', rate: 'vr_rate' } as const
const OWN_PARAMS: readonly string[] = Object.values(PARAM)

const RATES: readonly ReviewRate[] = [1, 2, 3, 4, 5]

/** What the reader chose: an order, the rates kept (none: every rate) and where the page starts. */
export interface ReviewView {
  sort: ReviewSort
  rates: readonly ReviewRate[]
  cursor?: string | undefined
}

/** A page's search params as frameworks give them: Next.js passes a record, others a `URLSearchParams`. */
export type SearchParamsRecord = Readonly<Record<string, string | readonly string[] | undefined>>

/** The fields the orders sort on, sortable in product and brand reviews alike. */
export type SortField = 'publish_date' | 'review_rate'

/** The `sort` and `desc` of the API for a sort order (`publish_date` or `review_rate`), ready to spread. */
export function sortFields(sort: ReviewSort): {
  sort: SortField[]
  desc?: SortField[]
} {
  const field: SortField = sort === 'newest' || sort === 'oldest' ? 'publish_date' : 'review_rate'
  return sort === 'newest' || sort === 'highest' ? { sort: [field], desc: [field] } : { sort: [field] }
}

/** True for a name of {@link REVIEW_SORTS}. */
export function isReviewSort(value: unknown): value is ReviewSort {
  return typeof value === 'string' && (REVIEW_SORTS as readonly string[]).includes(value)
}

/**
 * Rates of a comma list ("5,4"), in ascending order without repeats; items that are not 1 to 5 are
 * ignored, so a hand-edited URL still shows reviews.
 */
export function parseRates(value: string | undefined): ReviewRate[] {
  if (value === undefined) return []
  const kept = new Set(value.split(',').map((item) => item.trim()))
  return RATES.filter((rate) => kept.has(String(rate)))
}

/**
 * What a cursor may be: API cursors are opaque, so this keeps out only what none is made of (blanks,
 * controls, non-ASCII) and lengths none reaches.
 */
export const CURSOR_SHAPE = /^[\x21-\x7e]{1,1024}$/
const MARKUP = /[<>"'`\\]/

/** The cursor of a search param (no quotes or markup either), or `undefined` when it cannot be one. */
export function parseCursor(value: string | undefined): string | undefined {
  return value !== undefined && CURSOR_SHAPE.test(value) && !MARKUP.test(value) ? value : undefined
}

function first(value: string | readonly string[] | null | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0]
}

function read(params: URLSearchParams | SearchParamsRecord | undefined, name: string): string | undefined {
  if (params === undefined) return undefined
  if (params instanceof URLSearchParams) return first(params.get(name))
  // Own params only: a name the record's prototype carries is none of the page's.
  return Object.hasOwn(params, name) ? first(params[name]) : undefined
}

/** The reader's choice from the search params (`vr_cursor`, `vr_sort`, `vr_rate`); bad values are ignored. */
export function parseReviewView(params: URLSearchParams | SearchParamsRecord | undefined): ReviewView {
  const sort = read(params, PARAM.sort)
  return {
    sort: isReviewSort(sort) ? sort : DEFAULT_SORT,
    rates: parseRates(read(params, PARAM.rate)),
    cursor: parseCursor(read(params, PARAM.cursor)),
  }
}

/**
 * Bounds of the page's own search params carried into the links of the reviews: a visitor's junk
 * parameter must not be copied into every sort, rate and page link.
 */
const OTHER_PARAMS = { count: 8, name: 64, value: 256, total: 512 } as const

/**
 * The page's own search params without ours, as a query string, to carry into every link: at most 8,
 * each name at most 64 characters and each value 256, 512 characters in all; longer ones are left out.
 */
export function otherParams(params: URLSearchParams | SearchParamsRecord | undefined): string {
  const kept = new URLSearchParams()
  if (params === undefined) return ''
  const entries: Iterable<[string, string | readonly string[] | undefined]> =
    params instanceof URLSearchParams ? params.entries() : Object.entries(params)
  let count = 0
  let total = 0
  for (const [name, value] of entries) {
    if (OWN_PARAMS.includes(name) || name.length > OTHER_PARAMS.name) continue
    // A record not made from a URL (parsed JSON, say) may hold other values: only text is a param.
    const items: readonly unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : []
    for (const item of items) {
      if (typeof item !== 'string' || item.length > OTHER_PARAMS.value) continue
      total += name.length + item.length + 2
      if (count === OTHER_PARAMS.count || total > OTHER_PARAMS.total) return kept.toString()
      kept.append(name, item)
      count++
    }
  }
  return kept.toString()
}

/** The query string of a view: the page's other params, then ours (defaults left out). */
export function viewQuery(other: string, view: ReviewView): string {
  const params = new URLSearchParams(other)
  for (const name of Object.values(PARAM)) params.delete(name)
  if (view.cursor !== undefined) params.set(PARAM.cursor, view.cursor)
  if (view.sort !== DEFAULT_SORT) params.set(PARAM.sort, view.sort)
  if (view.rates.length > 0) params.set(PARAM.rate, view.rates.join(','))
  // Commas are safe in a query; left readable (`vr_rate=4,5`).
  return params.toString().replaceAll('%2C', ',')
}

/** A link to a view of this page: relative, so it keeps the page's path. */
export function viewHref(other: string, view: ReviewView): string {
  return `?${viewQuery(other, view)}`
}

/** True when both lists hold the same rates in the same order. */
export function sameRates(a: readonly ReviewRate[], b: readonly ReviewRate[]): boolean {
  return a.length === b.length && a.every((rate, i) => rate === b[i])
}

/** The hrefs of the pages before and after the one shown, when there are such pages. */
export function pageHrefs(
  query: string,
  view: ReviewView,
  cursors: { previousCursor?: string | null | undefined; nextCursor?: string | null | undefined },
): { previousHref: string | undefined; nextHref: string | undefined } {
  const href = (cursor: string | null | undefined) =>
    cursor ? viewHref(query, { ...view, cursor }) : undefined
  return { previousHref: href(cursors.previousCursor), nextHref: href(cursors.nextCursor) }
}

/**
 * The histogram's links of a view: each to the first page of one rate in the same order, and the rate
 * filtered on now, when exactly one is.
 */
export function rateLinks(
  query: string,
  view: ReviewView,
): { rateHref: (rate: ReviewRate) => string; currentRate: ReviewRate | undefined } {
  return {
    rateHref: (rate) => viewHref(query, { sort: view.sort, rates: [rate] }),
    currentRate: view.rates.length === 1 ? view.rates[0] : undefined,
  }
}

/** What the island asks its endpoint for. */
export interface EndpointRequest {
  productId: string
  limit: number
  cursor?: string | undefined
  sort: ReviewSort
  rates: readonly ReviewRate[]
  locale: string
}

/**
 * The endpoint's address for one page: `product_variation_id`, `limit`, `cursor`, `sort`, `rate` and
 * `locale`, the contract the framework packages serve.
 */
export function endpointUrl(endpoint: string, request: EndpointRequest): string {
  const params = new URLSearchParams({
    product_variation_id: request.productId,
    limit: String(request.limit),
  })
  if (request.cursor !== undefined) params.set('cursor', request.cursor)
  params.set('sort', request.sort)
  if (request.rates.length > 0) params.set('rate', request.rates.join(','))
  params.set('locale', request.locale)
  return `${endpoint}${endpoint.includes('?') ? '&' : '?'}${params.toString().replaceAll('%2C', ',')}`
}

/** Reviews per page when none is given. */
export const DEFAULT_REVIEWS_LIMIT = 10

/** Most reviews per page the island's endpoint serves. */
export const MAX_REVIEWS_LIMIT = 50

/**
 * Checks a page size that the island's endpoint can serve too.
 * @param component Named at the start of the error message.
 * @throws RangeError when `limit` is not a whole number from 1 to {@link MAX_REVIEWS_LIMIT}.
 */
export function checkLimit(limit: number, component?: string): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_REVIEWS_LIMIT) {
    const message = `limit must be a whole number from 1 to ${MAX_REVIEWS_LIMIT}, got ${String(limit)}`
    throw new RangeError(component === undefined ? message : `${component}: ${message}`)
  }
}
