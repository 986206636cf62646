import { type CursorScope, cursorSigner } from '@verified-reviews/core/endpoint'
import {
  DEFAULT_REVIEWS_LIMIT,
  parseReviewView,
  type SearchParamsRecord,
  variationIds,
  viewQuery,
} from '@verified-reviews/core/internal'
import { reviewsClient } from './clients.ts'

/**
 * The view of a list of reviews that a page's search params name, reduced to what chooses the reviews:
 * the order (`vr_sort`), the rates kept (`vr_rate`) and a cursor (`vr_cursor`) that this site signed for
 * this very list. Defaults are left out, so every URL of the first page gives `{}`. Plain, short values:
 * made to be an argument of a `'use cache'` function, that is a cache key, and the `searchParams` of
 * `ProductReviews` or `BrandReviews` inside it.
 */
// A type, not an interface, so that it is a search params record as the components take one.
export type ReviewViewParams = {
  vr_sort?: string
  vr_rate?: string
  vr_cursor?: string
}

/** Options of {@link productReviewView} and {@link brandReviewView}. */
export interface ReviewViewOptions {
  /**
   * The `limit` the component is given: a cursor is signed for one page size.
   * @default 10
   */
  limit?: number
}

type SearchParams = URLSearchParams | SearchParamsRecord | undefined

async function checkedView(
  searchParams: SearchParams | Promise<SearchParams>,
  kind: CursorScope['kind'],
  id: string,
  options: ReviewViewOptions,
): Promise<ReviewViewParams> {
  const view = parseReviewView(await searchParams)
  let cursor: string | undefined
  if (view.cursor !== undefined) {
    const scope = {
      kind,
      id,
      sort: view.sort,
      rates: view.rates,
      limit: options.limit ?? DEFAULT_REVIEWS_LIMIT,
    }
    // A cursor this site did not sign for this list is dropped here, before any cache or API call.
    const opened = await cursorSigner(reviewsClient())
      .open(scope, view.cursor)
      .catch(() => undefined)
    if (opened !== undefined) cursor = view.cursor
  }
  // The view's query as the components' links write it (defaults left out), as a record.
  return Object.fromEntries(new URLSearchParams(viewQuery('', { ...view, cursor }))) as ReviewViewParams
}

/**
 * Parses and checks the view of a product's reviews that the page's search params name, before the cache
 * boundary: call it in the page, and give what it returns to the `'use cache'` function that renders
 * `ProductReviews`. Junk parameters and cursors this site did not sign then all give the key of the first
 * page: they cost no API call and no new cache entry, and no link of the page carries them.
 *
 * @example
 * // app/products/[id]/reviews/page.tsx
 * const view = await productReviewView(id, props.searchParams)
 * return <CachedReviews id={id} view={view} />   // 'use cache' inside: <ProductReviews searchParams={view} … />
 */
export function productReviewView(
  productId: string,
  searchParams: SearchParams | Promise<SearchParams>,
  options: ReviewViewOptions = {},
): Promise<ReviewViewParams> {
  return checkedView(searchParams, 'product', variationIds(productId).join(','), options)
}

/**
 * {@link productReviewView} for `BrandReviews`: the brand's reviews (`shopKey` undefined) or one shop's.
 */
export function brandReviewView(
  shopKey: string | undefined,
  searchParams: SearchParams | Promise<SearchParams>,
  options: ReviewViewOptions = {},
): Promise<ReviewViewParams> {
  return checkedView(searchParams, 'brand', shopKey ?? '', options)
}
