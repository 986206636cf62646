import type { GenesisProductBody, GenesisRateFilter, GenesisWebsiteParams } from '../../types/genesis.ts'
import type { ReviewRate } from '../../types/published.ts'
import { check } from '../base/validate.ts'
import {
  MAX_LIMIT,
  type MigratedBrandReviewsParams,
  type MigratedBrandsParams,
  type MigratedProductRatingsParams,
  type MigratedProductReviewsParams,
  type MigrationNote,
  type ParamsMigration,
  pageLimit,
  perProductCap,
  skipFor,
} from './result.ts'

/** The Published call that replaces a Genesis `POST /product`, with its parameters. */
export type GenesisProductMigration =
  | (ParamsMigration<MigratedProductReviewsParams> & { operation: 'products.reviews.list' })
  | (ParamsMigration<MigratedProductRatingsParams> & { operation: 'products.ratings.list' })

/** A Genesis call as it was made, authentication included. */
type WithAuthentication<P> = P & { idWebsite?: string; token?: string }

const GENESIS_PAGE = 10

const FROM_CREDENTIALS = 'the Published API derives the website from OAuth client credentials'

const AUTHENTICATION_NOTE: MigrationNote = {
  field: 'idWebsite, token',
  reason: `${FROM_CREDENTIALS}; the daily token is not used`,
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
  const descending = (genesis.order_type ?? 'desc').toLowerCase() === 'desc'
  const matchesNone = orderAndRates(params, genesis.order_by ?? 'date', descending, genesis, dropped)
  if (genesis.format !== undefined)
    dropped.push({ field: 'format', reason: 'the Published API always answers JSON' })
  if (genesis.iso_code !== undefined) dropped.push({ field: 'iso_code', reason: LANGUAGE_NOTE })
  if (genesis.plateforme !== undefined) dropped.push({ field: 'plateforme', reason: LANGUAGE_NOTE })
  const page = genesis.p ?? 1
  check(Number.isInteger(page) && page >= 1, 'p', `must be an integer from 1, got ${String(page)}`)
  const skip = skipFor('p', (page - 1) * range, false, dropped)
  const take = matchesNone ? 0 : range
  return { params, skip, take, perProduct: false, dropped }
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
  const matchesNone = orderAndRates(
    params,
    by === 'rate' ? 'rate' : 'date',
    direction === 'desc',
    genesis,
    dropped,
  )

  const limit = perProductCap(genesis.limit ?? GENESIS_PAGE, 'Genesis', dropped)
  const take = matchesNone ? 0 : limit
  const skip = skipFor('offset', genesis.offset ?? 0, true, dropped)
  return { operation: 'products.reviews.list', params, skip, take, perProduct: true, dropped }
}

/**
 * Sets `sort`, `desc` and `review_rate` from a Genesis order and rate filter. Returns true when no
 * rating passes the filter: `review_rate` cannot say "none", so the caller keeps nothing (`take: 0`).
 */
function orderAndRates(
  params: MigratedBrandReviewsParams | MigratedProductReviewsParams,
  by: 'date' | 'rate',
  descending: boolean,
  filter: GenesisRateFilter,
  dropped: MigrationNote[],
): boolean {
  const sortField = by === 'rate' ? 'review_rate' : 'publish_date'
  params.sort = [sortField]
  if (descending) params.desc = [sortField]
  const reviewRate = rateFilter(filter, dropped)
  if (reviewRate !== undefined && reviewRate.length > 0) params.review_rate = reviewRate
  return reviewRate?.length === 0
}

const COMPARE: Readonly<Record<string, (rate: number, compare: number) => boolean>> = {
  '=': (rate, compare) => rate === compare,
  '!=': (rate, compare) => rate !== compare,
  '<': (rate, compare) => rate < compare,
  '<=': (rate, compare) => rate <= compare,
  '>': (rate, compare) => rate > compare,
  '>=': (rate, compare) => rate >= compare,
}

/** The ratings that pass a Genesis rate filter, or undefined when there is none (or it cannot be read). */
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

/** The Published call that replaces a Genesis static file, and the entries of its answer the file held. */
export interface GenesisStaticFileMigration {
  operation: 'brands.list'
  params: MigratedBrandsParams
  /**
   * `'brand'` for `infosite.txt`: the brand's own entry (`shop_key` empty). `'shops'` for
   * `infoshops.txt`: every other entry, one per shop.
   */
  entries: 'brand' | 'shops'
  /** Old parameters not carried over. */
  dropped: MigrationNote[]
}

const STATIC_FILES = ['infosite.txt', 'infoshops.txt'] as const

/**
 * A Genesis static file as the Published call that replaces it: `brands.list` (`GET /brands`) without
 * a filter, as the spec maps both files, in pages of 200 (one request up to 199 shops); the brand file
 * is the brand's entry of the answer (map it with `fromGenesisBrandFile`), the shop file the shops'
 * entries (`fromGenesisShopLine`; pass `shop_key` to read chosen shops only). Not
 * `linked_to_shop: false`, though the sandbox answers it with the brand's entry alone: the spec
 * defines that filter for brand reviews only, where it leaves out the reviews linked to a shop, so on
 * `GET /brands` it might take the shops' reviews out of the brand's statistics; the spec's mapping
 * relies on nothing it does not state.
 */
export function fromGenesisStaticFile(file: (typeof STATIC_FILES)[number]): GenesisStaticFileMigration {
  const known = (STATIC_FILES as readonly string[]).includes(file)
  check(known, 'file', `must be infosite.txt or infoshops.txt, got ${JSON.stringify(file)}`)
  return {
    operation: 'brands.list',
    params: { limit: MAX_LIMIT },
    entries: file === 'infosite.txt' ? 'brand' : 'shops',
    dropped: [{ field: 'idWebsite', reason: FROM_CREDENTIALS }],
  }
}
