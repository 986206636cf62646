import type { GenesisProductBody, GenesisRateFilter, GenesisWebsiteParams } from '../../types/genesis.ts'
import type { ReviewRate } from '../../types/published.ts'
import {
  MAX_LIMIT,
  type MigratedBrandReviewsParams,
  type MigratedProductRatingsParams,
  type MigratedProductReviewsParams,
  type MigrationNote,
  type ParamsMigration,
  pageLimit,
} from './result.ts'

/** The Published call that replaces a Genesis `POST /product`, with its parameters. */
export type GenesisProductMigration =
  | (ParamsMigration<MigratedProductReviewsParams> & { operation: 'products.reviews.list' })
  | (ParamsMigration<MigratedProductRatingsParams> & { operation: 'products.ratings.list' })

/** A Genesis call as it was made, authentication included. */
type WithAuthentication<P> = P & { idWebsite?: string; token?: string }

const GENESIS_PAGE = 10

const AUTHENTICATION_NOTE: MigrationNote = {
  field: 'idWebsite, token',
  reason: 'the Published API derives the website from OAuth client credentials; the daily token is not used',
}

const LANGUAGE_NOTE = 'the Published API returns every language; keep the wanted ones by their locale'

/**
 * Parameters of Genesis `GET /website` (brand and shop reviews) as parameters of
 * `brands.reviews.list` (`GET /brands/reviews`).
 *
 * - `range` becomes `limit` (at most 200).
 * - `p` cannot become a cursor (a cursor comes only from the page before); it becomes `skip`
 *   (`(p - 1) × range`), and `take` (`range`) keeps the single page the old call answered.
 * - `order_by` (`date`, `rate`) and `order_type` become `sort` and `desc` (`publish_date`, `review_rate`);
 *   the Genesis default, newest first, is kept.
 * - `field`/`sign`/`compare` become the `review_rate` values that pass the comparison.
 * - `idWebsite`, `token`, `format`, `iso_code` and `plateforme` are dropped with a note.
 * - The answer's `count` and `average` come from `brands.list` instead.
 */
export function fromGenesisWebsiteParams(
  genesis: WithAuthentication<GenesisWebsiteParams>,
): ParamsMigration<MigratedBrandReviewsParams> {
  const dropped: MigrationNote[] = [AUTHENTICATION_NOTE]
  const params: MigratedBrandReviewsParams = {}
  const range = genesis.range ?? GENESIS_PAGE
  if (genesis.range !== undefined) params.limit = pageLimit('range', genesis.range, dropped)
  const sortField = genesis.order_by === 'rate' ? 'review_rate' : 'publish_date'
  params.sort = [sortField]
  if ((genesis.order_type ?? 'desc').toLowerCase() === 'desc') params.desc = [sortField]
  const reviewRate = rateFilter(genesis, dropped)
  if (reviewRate !== undefined && reviewRate.length > 0) params.review_rate = reviewRate
  if (genesis.format !== undefined)
    dropped.push({ field: 'format', reason: 'the Published API always answers JSON' })
  if (genesis.iso_code !== undefined) dropped.push({ field: 'iso_code', reason: LANGUAGE_NOTE })
  if (genesis.plateforme !== undefined) dropped.push({ field: 'plateforme', reason: LANGUAGE_NOTE })
  const page = genesis.p ?? 1
  if (!Number.isInteger(page) || page < 1)
    throw new RangeError(`p must be an integer from 1, got ${String(page)}`)
  if (page > 1) {
    dropped.push({
      field: 'p',
      reason:
        'a cursor comes only from the page before, so a page number cannot be sent; it is kept as skip for ' +
        'skipItems (the earlier pages are still fetched), or follow the cursors of the pages instead',
    })
  }
  const take = reviewRate?.length === 0 ? 0 : range
  return { params, skip: (page - 1) * range, take, perProduct: false, dropped }
}

/**
 * A Genesis `POST /product` body as the Published call that replaces it.
 *
 * With `query: 'reviews'`: `products.reviews.list` with `product` as `product_variation_id`. Genesis
 * applied `limit` (default 10) and `offset` to each product's reviews, so they become `take` and `skip`
 * per product, while the page size is 200 (the largest, as the whole walk is read anyway). `order`
 * becomes `sort`/`desc`; `field`/`sign`/`compare` becomes `review_rate`.
 *
 * With `query: 'average'`: `products.ratings.list` by `product_variation_id`. A rate filter cannot be
 * carried over (Published aggregates count every review) and is dropped with a note.
 *
 * `idWebsite`, `token` and `plateforme` are dropped with a note.
 */
export function fromGenesisProductBody(
  genesis: WithAuthentication<GenesisProductBody>,
): GenesisProductMigration {
  const dropped: MigrationNote[] = [AUTHENTICATION_NOTE]
  if (genesis.plateforme !== undefined) dropped.push({ field: 'plateforme', reason: LANGUAGE_NOTE })
  const product = [...genesis.product]
  if (genesis.query === 'average') {
    if (genesis.field !== undefined || genesis.sign !== undefined || genesis.compare !== undefined) {
      dropped.push({
        field: 'field, sign, compare',
        reason: 'Published ratings aggregate every review of a product; a rate filter cannot narrow them',
      })
    }
    return {
      operation: 'products.ratings.list',
      params: { type: 'product_variation_id', value: product },
      skip: 0,
      perProduct: false,
      dropped,
    }
  }

  const params: MigratedProductReviewsParams = { product_variation_id: product, limit: MAX_LIMIT }
  const [by, direction] = (genesis.order ?? 'date_desc').split('_')
  const sortField = by === 'rate' ? 'review_rate' : 'publish_date'
  params.sort = [sortField]
  if (direction === 'desc') params.desc = [sortField]
  const reviewRate = rateFilter(genesis, dropped)
  if (reviewRate !== undefined && reviewRate.length > 0) params.review_rate = reviewRate

  const limit = genesis.limit ?? GENESIS_PAGE
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`limit must be a positive integer, got ${String(limit)}`)
  }
  const take = reviewRate?.length === 0 ? 0 : limit
  dropped.push({
    field: 'limit',
    reason: `Genesis answered at most ${limit} reviews per product; the Published limit is the page size over all products, so ${limit} is kept as take (per product) for takeItems`,
  })
  const skip = genesis.offset ?? 0
  if (!Number.isInteger(skip) || skip < 0)
    throw new RangeError(`offset must be an integer from 0, got ${String(skip)}`)
  if (skip > 0) {
    dropped.push({
      field: 'offset',
      reason:
        'a cursor comes only from the page before, so an offset cannot be sent; it is kept as skip (per ' +
        'product) for skipItems',
    })
  }
  return { operation: 'products.reviews.list', params, skip, take, perProduct: true, dropped }
}

const COMPARE: Readonly<Record<string, (rate: number, compare: number) => boolean>> = {
  '=': (rate, compare) => rate === compare,
  '!=': (rate, compare) => rate !== compare,
  '<': (rate, compare) => rate < compare,
  '<=': (rate, compare) => rate <= compare,
  '>': (rate, compare) => rate > compare,
  '>=': (rate, compare) => rate >= compare,
}

/**
 * The ratings that pass a Genesis rate filter, or undefined when there is none (or it cannot be read).
 * No rating passing (`rate < 1`) cannot be sent as `review_rate`: the callers keep nothing (`take: 0`).
 */
function rateFilter(filter: GenesisRateFilter, dropped: MigrationNote[]): ReviewRate[] | undefined {
  const { field, sign, compare } = filter
  if (field === undefined && sign === undefined && compare === undefined) return undefined
  const test = sign === undefined ? undefined : COMPARE[sign]
  const value = Number(compare)
  if (field !== 'rate' || test === undefined || !Number.isInteger(value) || value < 1 || value > 5) {
    dropped.push({
      field: 'field, sign, compare',
      reason: 'only a complete rate filter (field rate, a comparison, a rating 1 to 5) maps onto review_rate',
    })
    return undefined
  }
  const rates = ([1, 2, 3, 4, 5] as const).filter((rate) => test(rate, value))
  if (rates.length === 0) {
    dropped.push({
      field: 'field, sign, compare',
      reason: 'no rating passes the filter, so the old call answered no reviews: take is 0',
    })
  }
  return rates
}
