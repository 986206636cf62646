import type { ReviewRate } from '@verified-reviews/core'

// The page-URL contract of the React components (`vr_cursor`, `vr_sort`, `vr_rate`), so that links of
// both packages, and the island's endpoint, read the same views.

/** The orders a reader can choose; `newest` when the page says nothing. */
export const REVIEW_SORTS = ['newest', 'oldest', 'highest', 'lowest'] as const

/** A sort order of the reviews. */
export type ReviewSort = (typeof REVIEW_SORTS)[number]

const DEFAULT_SORT: ReviewSort = 'newest'

/** Names of the page URL's search params; prefixed so they never clash with the site's own. */
export const PARAM = { cursor: 'vr_cursor', sort: 'vr_sort', rate: 'vr_rate' } as const

const RATES: readonly ReviewRate[] = [1, 2, 3, 4, 5]

/** What the reader chose: an order, the rates kept (none: every rate) and where the page starts. */
export interface ReviewView {
  sort: ReviewSort
  rates: readonly ReviewRate[]
  cursor?: string | undefined
}

/** The fields the orders sort on. */
export type SortField = 'publish_date' | 'review_rate'

/** The `sort` and `desc` of the API for a sort order. */
export function sortFields(sort: ReviewSort): { sort: SortField[]; desc?: SortField[] } {
  const field: SortField = sort === 'newest' || sort === 'oldest' ? 'publish_date' : 'review_rate'
  return sort === 'newest' || sort === 'highest' ? { sort: [field], desc: [field] } : { sort: [field] }
}

function isReviewSort(value: unknown): value is ReviewSort {
  return typeof value === 'string' && (REVIEW_SORTS as readonly string[]).includes(value)
}

// Cursors are opaque; this only keeps out what no API issues: blanks, controls, quotes, markup, huge values.
const CURSOR = /^[\x21-\x7e]{1,1024}$/
const MARKUP = /[<>"'`\\]/

/** The reader's choice from the page's search params; bad values are ignored. */
export function parseReviewView(params: URLSearchParams): ReviewView {
  const sort = params.get(PARAM.sort) ?? undefined
  const rate = params.get(PARAM.rate)
  const kept = new Set((rate ?? '').split(',').map((item) => item.trim()))
  const cursor = params.get(PARAM.cursor) ?? undefined
  return {
    sort: isReviewSort(sort) ? sort : DEFAULT_SORT,
    rates: rate === null ? [] : RATES.filter((value) => kept.has(String(value))),
    cursor: cursor !== undefined && CURSOR.test(cursor) && !MARKUP.test(cursor) ? cursor : undefined,
  }
}

/** The page's own search params without ours, as a query string, to carry into every link. */
export function otherParams(params: URLSearchParams): string {
  const kept = new URLSearchParams()
  for (const [name, value] of params) {
    if (name !== PARAM.cursor && name !== PARAM.sort && name !== PARAM.rate) kept.append(name, value)
  }
  return kept.toString()
}

/** A link to a view of this page: relative, so it keeps the page's path; defaults left out. */
export function viewHref(other: string, view: ReviewView): string {
  const params = new URLSearchParams(other)
  if (view.cursor !== undefined) params.set(PARAM.cursor, view.cursor)
  if (view.sort !== DEFAULT_SORT) params.set(PARAM.sort, view.sort)
  if (view.rates.length > 0) params.set(PARAM.rate, view.rates.join(','))
  // Commas are safe in a query; left readable (`vr_rate=4,5`).
  return `?${params.toString().replaceAll('%2C', ',')}`
}

/** True when both lists hold the same rates in the same order. */
export function sameRates(a: readonly ReviewRate[], b: readonly ReviewRate[]): boolean {
  return a.length === b.length && a.every((rate, i) => rate === b[i])
}

/** The hrefs of the pages before and after the one shown, when there are such pages. */
export function pageHrefs(
  query: string,
  view: ReviewView,
  cursors: { previousCursor?: string | undefined; nextCursor?: string | undefined },
): { previousHref: string | undefined; nextHref: string | undefined } {
  const { previousCursor, nextCursor } = cursors
  return {
    previousHref: previousCursor ? viewHref(query, { ...view, cursor: previousCursor }) : undefined,
    nextHref: nextCursor ? viewHref(query, { ...view, cursor: nextCursor }) : undefined,
  }
}

/** Reviews per page when none is given. */
export const DEFAULT_REVIEWS_LIMIT = 10

/** Checks a page size, as the React components and the island's endpoint do (1 to 50). */
export function checkLimit(component: string, limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) {
    throw new RangeError(`${component}: limit must be a whole number from 1 to 50, got ${String(limit)}`)
  }
}
