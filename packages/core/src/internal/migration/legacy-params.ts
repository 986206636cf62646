import type { LegacyRatingsGetParams, LegacyReviewsGetParams } from '../../types/params.ts'
import type { ProductReviewSortField } from '../../types/published.ts'
import {
  MAX_LIMIT,
  type MigratedProductReviewsParams,
  type MigrationNote,
  type ParamsMigration,
  pageLimit,
  perProductCap,
  type RatingsMigration,
  rates,
  skipFor,
} from './result.ts'

/** Legacy review fields that have a sortable Published counterpart. */
const LEGACY_SORT_FIELDS: Readonly<Record<string, ProductReviewSortField>> = {
  id: 'review_id',
  rate: 'review_rate',
  publish_date: 'publish_date',
  review_date: 'review_date',
  order_date: 'order_date',
  product_ref: 'product_variation_id',
}

const WEBSITE_NOTE: MigrationNote = {
  field: 'websiteId',
  reason: 'the Published API derives the website from the credentials',
}

/**
 * Parameters of the legacy `GET /websites/{website_id}/products/reviews` as parameters of
 * `products.reviews.list` (`GET /products/reviews`).
 *
 * - `ref` becomes `product_variation_id`, `rate` becomes `review_rate`.
 * - `sortBy` becomes `sort` with the fields renamed (`id`, `rate`, `product_ref`, the three dates);
 *   other fields cannot be sorted on and are dropped. `sortDirection: 'DESC'` names every sort field in
 *   `desc`. Without `sortBy` the legacy order (newest publication first) is kept.
 * - `limit` capped reviews per product reference; the Published `limit` is the page size over all
 *   products. The page size becomes `min(limit, 200)` and `take` (per product) keeps the old cap.
 *   Without `limit` the legacy API answered everything at once; the page size becomes 200.
 * - `offset` skipped reviews per product reference; a cursor cannot express that, so it becomes
 *   `skip` (per product), to apply with `skipItems` while walking.
 * - `websiteId` is dropped: the credentials carry the website.
 */
export function fromLegacyReviewsParams(
  legacy: LegacyReviewsGetParams,
): ParamsMigration<MigratedProductReviewsParams> {
  const dropped: MigrationNote[] = [WEBSITE_NOTE]
  const params: MigratedProductReviewsParams = {}
  if (legacy.ref !== undefined && legacy.ref.length > 0) params.product_variation_id = [...legacy.ref]
  if (legacy.rate !== undefined && legacy.rate.length > 0) params.review_rate = rates(legacy.rate)

  const descending = (legacy.sortDirection ?? 'DESC') === 'DESC'
  const sortBy = legacy.sortBy ?? ['publish_date']
  const sort: ProductReviewSortField[] = []
  for (const field of sortBy) {
    const mapped = Object.hasOwn(LEGACY_SORT_FIELDS, field) ? LEGACY_SORT_FIELDS[field] : undefined
    if (mapped === undefined) {
      dropped.push({ field: 'sortBy', reason: `${field} has no sortable Published counterpart` })
    } else if (!sort.includes(mapped)) {
      sort.push(mapped)
    }
  }
  if (sort.length > 0) {
    params.sort = sort
    if (descending) params.desc = [...sort]
  } else if (legacy.sortDirection !== undefined) {
    dropped.push({ field: 'sortDirection', reason: 'no sort field was carried over for it to apply to' })
  }

  let take: number | undefined
  if (legacy.limit === undefined) {
    params.limit = MAX_LIMIT
  } else {
    params.limit = pageLimit('limit', legacy.limit, dropped)
    take = perProductCap(legacy.limit, 'the legacy API', dropped)
  }
  const skip = skipFor('offset', legacy.offset ?? 0, true, dropped)
  return take === undefined
    ? { params, skip, perProduct: true, dropped }
    : { params, skip, take, perProduct: true, dropped }
}

/**
 * Parameters of the legacy `GET /websites/{website_id}/products/ratings` as the Published call that
 * replaces it: `products.ratings.list` by `product_variation_id` when references are given (any
 * number; the client sends them 200 at a time), else `products.list`, which covers every product
 * (products without reviews included, with zero counts, where the legacy API answered `null`).
 */
export function fromLegacyRatingsParams(legacy: LegacyRatingsGetParams): RatingsMigration {
  const dropped: MigrationNote[] = [WEBSITE_NOTE]
  if (legacy.ref !== undefined && legacy.ref.length > 0) {
    return {
      operation: 'products.ratings.list',
      params: { type: 'product_variation_id', value: [...legacy.ref] },
      skip: 0,
      perProduct: false,
      dropped,
    }
  }
  dropped.push({
    field: 'ref',
    reason:
      'absent: every product was meant; products.list walks them all (products without reviews have zero counts instead of null)',
  })
  return { operation: 'products.list', params: { limit: MAX_LIMIT }, skip: 0, perProduct: false, dropped }
}
