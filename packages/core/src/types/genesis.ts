/**
 * The Genesis API, the oldest of the APIs the Published API replaces: brand reviews at
 * `{genesis_base_url}/website` (GET), product reviews and averages at `{genesis_base_url}/product`
 * (POST with a JSON body), and two static files. Numbers arrive as strings, as that API sends them.
 */

/** Query of `GET /website` (brand reviews), without `idWebsite` and `token`, which the client adds. */
export interface GenesisWebsiteParams {
  /** Answer format; the Published API always answers JSON. */
  format?: 'json' | (string & {})
  /** Reviews per page. */
  range?: number
  /** Page number. */
  p?: number
  /** Review field to sort by. */
  order_by?: string
  order_type?: 'ASC' | 'DESC'
  /** Language filter; the Published API returns every language. */
  iso_code?: string
  /** Platform (language site) filter; the Published API returns every language. */
  plateforme?: string
  /** Review field compared with `compare` through `sign`, e.g. `rate` `>=` `4`. */
  field?: string
  sign?: GenesisSign
  compare?: string | number
}

/** Comparison operator of a Genesis `field`/`sign`/`compare` filter. */
export type GenesisSign = '=' | '!=' | '<' | '<=' | '>' | '>=' | (string & {})

/** Body of `POST /product`, without `idWebsite`, which the client adds. */
export interface GenesisProductBody {
  /** `reviews` for individual reviews, `average` for aggregates. */
  query: 'reviews' | 'average'
  /** Product references. */
  product: readonly string[]
  /** Platform (language site) filter; the Published API returns every language. */
  plateforme?: string
  limit?: number
  offset?: number
  /** Sort order such as `date_desc`, `date_asc`, `rate_desc`, `rate_asc`. */
  order?: string
  field?: string
  sign?: GenesisSign
  compare?: string | number
}

/** A reply to a Genesis review. */
export interface GenesisModeration {
  comment: string
  date: string
  origin: string
}

/** A brand review of `GET /website`. */
export interface GenesisBrandReview {
  id_review: string
  /** Rating 1 to 5, as a string. */
  rate: string
  review: string
  firstname: string
  lastname: string
  order_ref: string
  review_date: string
  publish_date: string
  order_date: string
  /** Shop the review is about; empty for the brand itself. */
  id_shop: string
  moderation: GenesisModeration[]
}

/** A product review of `POST /product` with `query: 'reviews'`. */
export interface GenesisProductReview {
  id_review: string
  id_product: string
  rate: string
  review: string
  firstname: string
  lastname: string
  order_ref: string
  review_date: string
  publish_date: string
  order_date: string
  moderation: GenesisModeration[]
}

/** Aggregate of one product of `POST /product` with `query: 'average'`. */
export interface GenesisProductAverage {
  /** Average rating, as a string. */
  rate: string
  /** Number of reviews, as a string. */
  count: string
}

/** Answer of `GET /website`. */
export interface GenesisWebsiteResponse {
  reviews: GenesisBrandReview[]
}

/** Answer of `POST /product` with `query: 'reviews'`, keyed by product reference. */
export type GenesisProductReviewsResponse = Record<string, GenesisProductReview[]>

/** Answer of `POST /product` with `query: 'average'`, keyed by product reference. */
export type GenesisProductAveragesResponse = Record<string, GenesisProductAverage[]>

/** The brand static file (`infosite.txt`), parsed: one line `count;average`. */
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
