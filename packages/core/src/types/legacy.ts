/**
 * The legacy Product Reviews API (`{legacy_base_url}`, no authentication), kept so that an
 * integration can switch to the Published API one call at a time. Field names as the API sends them.
 */
import type { ReviewRate } from './published.ts'

/** Aggregated rating of one product reference in the legacy API. */
export interface LegacyProductRating {
  average: number
  nb_total: number
  nb_1: number
  nb_2: number
  nb_3: number
  nb_4: number
  nb_5: number
}

/** Product identifiers of a legacy review. */
export interface LegacyProductIds {
  gtin_ean: string
  gtin_jan: string
  gtin_isbn: string
  gtin_upc: string
  sku: string
  mpn: string
}

/** A reply to a legacy review. */
export interface LegacyModeration {
  /** ISO 8601 date-time. */
  date: string
  origin: string
  comment: string
}

/** A media of a legacy review; the spec shows `data.type` only, the other members vary. */
export interface LegacyMedia {
  type: string
  data: { type: string; [member: string]: unknown }
}

/** A review in the legacy API. */
export interface LegacyProductReview {
  id: string
  rate: ReviewRate
  review: string
  /** ISO 8601 date-time. */
  order_date: string
  /** ISO 8601 date-time. */
  review_date: string
  /** ISO 8601 date-time. */
  publish_date: string
  firstname: string
  lastname: string
  /** Locale such as `fr_FR` (language and region joined by an underscore). */
  language: string
  product_ref: string
  brand: string
  category: string
  product_ids: LegacyProductIds
  moderations: LegacyModeration[]
  medias: LegacyMedia[]
  helping_votes: { helpful: number; helpless: number }
  hide_exchange: boolean
  anonymised_data: boolean
  pseudonymised_data: boolean
  compensated_review: boolean
  rewarded_review: boolean
  gifted_review: boolean
  syndicated_review: boolean
  syndicated_review_source: string | null
  syndicated_review_source_url: string | null
}

/** Answer of `GET /websites/{website_id}/products/ratings`: `null` for a reference without reviews. */
export interface LegacyProductRatingsResponse {
  data: Record<string, LegacyProductRating | null>
}

/** Answer of `GET /websites/{website_id}/products/reviews`: `null` for a reference without reviews. */
export interface LegacyProductReviewsResponse {
  data: Record<string, LegacyProductReview[] | null>
}

/** Parameters of `GET /websites/{website_id}/products/ratings`. */
export interface LegacyProductRatingsParams {
  /** The website (uuid), a path parameter. */
  websiteId: string
  /** Product references; absent means every product. Sorted alphabetically when sent, which helps caching. */
  ref?: readonly string[]
}

/** Parameters of `GET /websites/{website_id}/products/reviews`. Filters apply to each reference's list. */
export interface LegacyProductReviewsParams extends LegacyProductRatingsParams {
  /** Ratings to keep. */
  rate?: readonly ReviewRate[]
  /** Review field names to sort by. */
  sortBy?: readonly string[]
  sortDirection?: 'ASC' | 'DESC'
  /** Maximum reviews returned per product reference. */
  limit?: number
  /** Reviews skipped per product reference. */
  offset?: number
}
