/**
 * The Genesis API, the oldest of the APIs the Published API replaces: brand reviews at
 * `{genesis_base_url}/website` (GET), product reviews and averages at `{genesis_base_url}/product`
 * (POST with a JSON body), and two static files. Numbers inside review data arrive as strings, as
 * that API sends them. `idWebsite` and the daily `token` are not part of these parameter types: the
 * client adds them.
 */
import type { LegacyModeration } from './legacy.ts'

/** Comparison of a Genesis rate filter (`field: 'rate'`, `sign`, `compare`). */
export type GenesisSign = '=' | '!=' | '<' | '<=' | '>' | '>='

/** A rate filter: keeps reviews whose rate compares to `compare` through `sign`. */
export interface GenesisRateFilter {
  /** `rate` is the only field Genesis filters on. */
  field?: 'rate'
  sign?: GenesisSign
  /** A rating 1 to 5. */
  compare?: number | string
}

/** Query of `GET /website` (brand and shop reviews). */
export interface GenesisWebsiteParams extends GenesisRateFilter {
  /**
   * Answer format.
   * @default 'json'
   */
  format?: 'json'
  /**
   * Reviews per page, 1 to 200.
   * @default 10
   */
  range?: number
  /**
   * Page number, from 1.
   * @default 1
   */
  p?: number
  /**
   * `date` (publication date) or `rate`.
   * @default 'date'
   */
  order_by?: 'date' | 'rate'
  /**
   * Direction of `order_by`.
   * @default 'desc'
   */
  order_type?: 'asc' | 'desc' | 'ASC' | 'DESC'
  /** Language filter; ignored, every language is returned. */
  iso_code?: string
  /** Platform (language site) filter; ignored, every language is returned. */
  plateforme?: string
}

/** Order of `POST /product` with `query: 'reviews'`. */
export type GenesisProductOrder = 'date_desc' | 'date_asc' | 'rate_desc' | 'rate_asc'

/** Body of `POST /product`. */
export interface GenesisProductBody extends GenesisRateFilter {
  /** `reviews` for individual reviews, `average` for one aggregate per product. */
  query: 'reviews' | 'average'
  /** Product references, 1 to 200. */
  product: readonly string[]
  /** Platform (language site) filter; ignored, every language is returned. */
  plateforme?: string
  /**
   * Reviews per product, 1 to 200 (`query: 'reviews'` only).
   * @default 10
   */
  limit?: number
  /**
   * Reviews skipped per product (`query: 'reviews'` only).
   * @default 0
   */
  offset?: number
  /**
   * Order of each product's reviews (`query: 'reviews'` only).
   * @default 'date_desc'
   */
  order?: GenesisProductOrder
}

/** A reply to a Genesis review: the shape of the legacy API's. */
export type GenesisModeration = LegacyModeration

/** What brand and product reviews of Genesis share. */
export interface GenesisReview {
  id_review: string
  /** Rating 1 to 5, as a string. */
  rate: string
  review: string
  firstname: string
  lastname: string
  order_ref: string
  /** ISO 8601 date-time. */
  review_date: string
  /** ISO 8601 date-time. */
  publish_date: string
  /** ISO 8601 date-time. */
  order_date: string
  /** Locale such as `fr_FR`. */
  language: string
  moderation: GenesisModeration[]
}

/** A brand or shop review of `GET /website`. */
export interface GenesisBrandReview extends GenesisReview {
  /** The shop the review is about; empty for the brand itself. */
  id_shop: string
}

/** A product review of `POST /product` with `query: 'reviews'`. */
export interface GenesisProductReview extends GenesisReview {
  id_product: string
}

/** Aggregate of one product of `POST /product` with `query: 'average'`. */
export interface GenesisProductAverage {
  /** Average rating with two decimals, as a string. */
  rate: string
  /** Number of reviews, as a string. */
  count: string
}

/** Answer of `GET /website`. */
export interface GenesisWebsiteResponse {
  /** Reviews the filter keeps, over all pages, as a string. */
  count: string
  /** Their average with two decimals, as a string. */
  average: string
  page: number
  range: number
  reviews: GenesisBrandReview[]
}

/** Answer of `POST /product` with `query: 'reviews'`: each requested product's reviews (`[]` when none). */
export type GenesisProductReviewsResponse = Record<string, GenesisProductReview[]>

/** Answer of `POST /product` with `query: 'average'`: one aggregate per product, `[]` when it has no reviews. */
export type GenesisProductAveragesResponse = Record<string, GenesisProductAverage[]>

/** The brand static file (`infosite.txt`, one line `count;average`), parsed. */
export interface GenesisBrandFile {
  review_count: number
  average: number
}

/** One line of the shop static file (`infoshops.txt`), parsed. */
export interface GenesisShopLine {
  id_shop: string
  name_shop: string
  review_number: number
  rating: number
  certificate_url: string
}
