/**
 * Resources of the Published API (`{published_base_url}`), field for field as the API sends them
 * (snake_case). Where the spec lists only the values seen so far, the union stays open
 * (`| (string & {})`) so that a value added upstream does not become a type error.
 */

/** Every {@link Language}, in alphabetical order. */
export const LANGUAGES = [
  'bg',
  'cs',
  'de',
  'el',
  'en',
  'es',
  'fr',
  'it',
  'nl',
  'pl',
  'pt',
  'sk',
  'tr',
] as const

/** The 13 language codes of `translated_review` and `translated_comment`. */
export type Language = (typeof LANGUAGES)[number]

/** A review's star rating. */
export type ReviewRate = 1 | 2 | 3 | 4 | 5

/**
 * How the review came about: `gifted` (the product was given in exchange for a review),
 * `compensated` (the product was bought and the review compensated with monetary value),
 * `spontaneous`, or `none`.
 */
export type Incentivization = 'none' | 'gifted' | 'compensated' | 'spontaneous'

/** A review text or comment per language, as far as it was translated. */
export type Translations = Partial<Record<Language, string>>

/** An image attached to a product review, as URLs of its size variants. */
export interface Media {
  /** `IMAGE` is the only value seen. */
  type: 'IMAGE' | (string & {})
  small: string
  medium: string
  large: string
}

/** A reply to a review, usually by the merchant. */
export interface Moderation {
  comment: string
  /** ISO 8601 date-time. */
  date: string
  origin: string
  /** `moderator` is the only value seen. */
  origin_type: 'moderator' | (string & {})
  /** Present on product reviews only. */
  translated_comment?: Translations
}

/** A moderation of a brand review: product reviews alone carry `translated_comment`. */
export type BrandModeration = Omit<Moderation, 'translated_comment'>

/** A criterion rated as a score (`type: 'I1'`). */
export interface ReviewScoreExtra {
  display_name: string
  label: string
  type: 'I1'
  value: number
}

/** A criterion answered as text (`type: 'S'`). */
export interface ReviewTextExtra {
  display_name: string
  label: string
  type: 'S'
  value: string
}

/**
 * One extra criterion of a review, keyed by criterion code in `extras`. `I1` and `S` are the
 * only types the spec shows; render other types defensively.
 */
export type ReviewExtra = ReviewScoreExtra | ReviewTextExtra

/** Number of reviews per star. */
export interface RatingCounts {
  count_5: number
  count_4: number
  count_3: number
  count_2: number
  count_1: number
}

/** Average and per-star counts of a product (`ProductSummary.ratings`). */
export interface ProductSummaryRatings extends RatingCounts {
  average: number
  count_total: number
}

/** AI-generated summary of a product's reviews. */
export interface ReviewSummary {
  content: string
  /** ISO 8601 date-time. */
  last_updated_at: string
}

/** Aggregate of one quality criterion of a product. */
export interface ProductSummaryExtra {
  /** `rate` is the only value seen. */
  type: 'rate' | (string & {})
  display_name: string
  label: string
  rate: { average: number; count: number }
}

/** A product summary (`GET /products`). */
export interface ProductSummary {
  ratings: ProductSummaryRatings
  /** Absent when no summary was generated. */
  review_summary?: ReviewSummary
  product_variation_id: string
  website_id: string
  extras: ProductSummaryExtra[]
}

/** A product review (`GET /products/reviews`). */
export interface ProductReview {
  review_id: string
  author_firstname: string
  author_lastname: string
  /** Whether the author agreed to share personal data. */
  is_personal_data_disclosed: boolean
  locale: string
  /** ISO 8601 date-time: when the consumer wrote the review. */
  review_date: string
  /** ISO 8601 date-time: when the review was published. */
  publish_date: string
  /** ISO 8601 date-time of the purchase order. */
  order_date: string
  review_content: string
  review_rate: ReviewRate
  order_reference: string
  order_id: string
  product_variation_id: string
  product_ean: string
  product_upc: string
  product_jan: string
  product_sku: string
  product_mpn: string
  product_brand: string
  product_name: string
  is_verified: boolean
  medias: Media[]
  incentivization: Incentivization
  /** True for a review left on the same product on another account. */
  syndicated_review: boolean
  syndicated_review_source: string
  syndicated_review_source_url: string
  translated_review: Translations
  moderations: Moderation[]
  /** Extra criteria keyed by criterion code. */
  extras: Record<string, ReviewExtra>
}

/** Aggregate of one quality criterion in a bulk product rating. */
export interface ProductRatingExtra {
  count: number
  average: number
  label: string
}

/** Aggregated rating of one product (`GET /products/ratings`). */
export interface ProductRating extends RatingCounts {
  product_variation_id: string
  product_ean: string
  average: number
  count_total: number
  extras: ProductRatingExtra[]
}

/** A review of the brand or of one of its shops (`GET /brands/reviews`). */
export interface BrandReview {
  review_id: string
  order_reference: string
  /** The shop the review is about; empty for a review of the brand itself. */
  shop_key: string
  review_content: string
  author_firstname: string
  author_lastname: string
  locale: string
  website_id: string
  review_rate: ReviewRate
  incentivization: Incentivization
  is_verified: boolean
  is_personal_data_disclosed: boolean
  /** ISO 8601 date-time. */
  order_date: string
  /** ISO 8601 date-time. */
  review_date: string
  /** ISO 8601 date-time. */
  publish_date: string
  moderations: BrandModeration[]
  extras: Record<string, ReviewExtra>
}

/** Average and per-star counts over one period of a brand or shop. */
export interface RatingStatistics extends RatingCounts {
  average: number
}

/** Rating statistics of the brand or of one shop (`GET /brands`). */
export interface BrandRating {
  /** The shop; empty for the brand itself. */
  shop_key: string
  website_id: string
  count_total_since_creation: number
  /** ISO 8601 date-time; `null` for a shop without reviews. */
  oldest_review_publish_date: string | null
  one_year: RatingStatistics
  five_year: RatingStatistics
}

/** `itemReviewed` of a structured data block: the page's own Product node, by `@id` (the canonical URL). */
export interface ItemReviewedReference {
  '@id': string
}

/** The `aggregateRating` block of {@link StructuredData}. */
export interface AggregateRatingNode {
  '@type': 'AggregateRating'
  ratingValue: number
  reviewCount: number
  bestRating: number
  worstRating: number
  itemReviewed: ItemReviewedReference
}

/** The rating of one review in {@link ReviewNode}. */
export interface RatingNode {
  '@type': 'Rating'
  ratingValue: number
  bestRating: number
  worstRating: number
}

/** One consumer review in the `reviews` block of {@link StructuredData}. */
export interface ReviewNode {
  '@type': 'Review'
  reviewBody: string
  /** ISO 8601 date-time. */
  datePublished: string
  reviewRating: RatingNode
  author: { '@type': 'Person'; name: string }
  itemReviewed?: ItemReviewedReference
}

/** The AI review summary in the `reviewSummary` block of {@link StructuredData}, authored by the organization. */
export interface ReviewSummaryNode {
  '@type': 'Review'
  reviewBody: string
  /** ISO 8601 date-time. */
  datePublished: string
  author: { '@type': 'Organization'; name: string }
  itemReviewed?: ItemReviewedReference
}

/**
 * JSON-LD of one product (`GET /products/structured-datas` with `Accept: application/ld+json`).
 * Each block is a standalone JSON-LD document; a block with nothing to say is left out.
 */
export interface StructuredData {
  ratings?: { '@context': string; aggregateRating: AggregateRatingNode }
  reviews?: { '@context': string; review: ReviewNode[] }
  reviewSummary?: { '@context': string; review: ReviewSummaryNode }
}

/** Blocks that `filters` of `GET /products/structured-datas` can select. */
export type StructuredDataFilter = 'aggregate_rating' | 'reviews' | 'review_summary'

/** How `GET /products/ratings` looks products up: by GTIN or by product variation. */
export type ProductRatingsLookupType = 'product_ean' | 'product_variation_id'

/** Fields `sort`/`desc` accept on `GET /products/reviews`. */
export type ProductReviewSortField = (typeof SORT_FIELDS.productReviews)[number]

/** Fields `sort`/`desc` accept on `GET /brands/reviews`. */
export type BrandReviewSortField = (typeof SORT_FIELDS.brandReviews)[number]

/** Fields `sort`/`desc` accept on `GET /products`. */
export type ProductSortField = (typeof SORT_FIELDS.products)[number]

/** Fields `sort`/`desc` accept on `GET /brands`. */
export type BrandSortField = (typeof SORT_FIELDS.brands)[number]

/** Fields `sort`/`desc` accept on `GET /products/ratings`. */
export type ProductRatingSortField = (typeof SORT_FIELDS.productRatings)[number]

/** The sort fields product and brand reviews share. */
const REVIEW_SORT_FIELDS = ['review_id', 'review_date', 'publish_date', 'order_date', 'review_rate'] as const

/**
 * The sort fields the client knows for each sortable operation (the sandbox's; the spec gives no full
 * list). Another field is sent as given, with a warning in development.
 */
export const SORT_FIELDS = {
  productReviews: [...REVIEW_SORT_FIELDS, 'product_variation_id'],
  brandReviews: [...REVIEW_SORT_FIELDS, 'shop_key'],
  products: ['product_variation_id', 'average', 'count_total'],
  brands: ['shop_key', 'count_total_since_creation', 'oldest_review_publish_date'],
  productRatings: ['product_variation_id', 'product_ean', 'average', 'count_total'],
} as const
