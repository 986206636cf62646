import type {
  BrandReviewSortField,
  ProductRatingsLookupType,
  ProductReviewSortField,
  ReviewRate,
} from '../../types/published.ts'
import { check } from '../base/validate.ts'

/** Something an old call expressed that the new one does not carry over, or carries with another meaning. */
export interface MigrationNote {
  /** The old parameter or field. */
  field: string
  /** What happened to it and what to do instead. */
  reason: string
}

/** Parameters of `products.reviews.list` that a migration produces. */
export interface MigratedProductReviewsParams {
  product_variation_id?: string[]
  review_rate?: ReviewRate[]
  limit?: number
  sort?: ProductReviewSortField[]
  desc?: ProductReviewSortField[]
}

/** Parameters of `brands.reviews.list` that a migration produces. */
export interface MigratedBrandReviewsParams {
  review_rate?: ReviewRate[]
  limit?: number
  sort?: BrandReviewSortField[]
  desc?: BrandReviewSortField[]
}

/** Parameters of `brands.list` that a migration produces. */
export interface MigratedBrandsParams {
  limit?: number
}

/** Parameters of `products.ratings.list` that a migration produces. */
export interface MigratedProductRatingsParams {
  type: ProductRatingsLookupType
  value: string[]
}

/** Parameters of `products.list` that a migration produces. */
export interface MigratedProductsParams {
  product_variation_id?: string[]
  limit?: number
}

/**
 * Old parameters turned into Published ones. An old offset or page has no cursor equivalent (a cursor
 * comes only from the previous page's `Link` header), so it becomes `skip`: items to pass over while
 * walking, with {@link skipItems}. An old cap on the result (not on the page) becomes `take`, with
 * {@link takeItems}.
 */
export interface ParamsMigration<P> {
  params: P
  /** Items of the walk to skip; 0 when the old call skipped none. */
  skip: number
  /** Items to keep at most, when the old call capped its result; absent when it did not. */
  take?: number
  /** Whether `skip` and `take` count per product, as legacy filters did, rather than over the whole walk. */
  perProduct: boolean
  /** Old parameters not carried over, or carried with another meaning. */
  dropped: MigrationNote[]
}

/** The Published call that replaces an old one, with its parameters. */
export type RatingsMigration =
  | (ParamsMigration<MigratedProductRatingsParams> & { operation: 'products.ratings.list' })
  | (ParamsMigration<MigratedProductsParams> & { operation: 'products.list' })

/** The largest page of the Published API. */
export const MAX_LIMIT = 200

function checkPositive(field: string, value: number): void {
  check(Number.isInteger(value) && value >= 1, field, `must be a positive integer, got ${String(value)}`)
}

/** A limit for the Published API: the old value capped at 200, with a note when capped. */
export function pageLimit(field: string, limit: number, dropped: MigrationNote[]): number {
  checkPositive(field, limit)
  if (limit <= MAX_LIMIT) return limit
  dropped.push({
    field,
    reason: `${limit} is above the Published maximum of ${MAX_LIMIT}; capped at ${MAX_LIMIT}`,
  })
  return MAX_LIMIT
}

/** Distinct ratings in ascending order. */
export function rates(values: Iterable<number>): ReviewRate[] {
  return [...new Set(values)]
    .filter((r): r is ReviewRate => [1, 2, 3, 4, 5].includes(r))
    .sort((a, b) => a - b)
}

/**
 * An old offset as items to skip while walking: a cursor comes only from the page before, so an
 * offset cannot be sent. Notes it when it skips anything.
 */
export function skipFor(field: string, count: number, perProduct: boolean, dropped: MigrationNote[]): number {
  const fits = Number.isInteger(count) && count >= 0
  check(fits, field, `must lead to an integer count of items, 0 or more; got ${String(count)}`)
  if (count > 0) {
    dropped.push({
      field,
      reason:
        `a cursor comes only from the page before, so ${field} cannot be sent; it is kept as skip` +
        `${perProduct ? ' (per product)' : ''} for skipItems, which still fetches the pages it passes over`,
    })
  }
  return count
}

/** An old cap on each product's reviews as `take` per product, with a note on what limit now means. */
export function perProductCap(limit: number, api: string, dropped: MigrationNote[]): number {
  checkPositive('limit', limit)
  dropped.push({
    field: 'limit',
    reason:
      `${api} answered at most ${limit} reviews per product; the Published limit is the page size over all ` +
      `products, so ${limit} is kept as take (per product) for takeItems`,
  })
  return limit
}
