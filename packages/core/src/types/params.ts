// The parameters of every operation, in the types layer below the resources that run them, so that the
// client's operation map (operations.ts) and the layers under the resources can name them.
import type { GenesisProductBody, GenesisRateFilter, GenesisWebsiteParams } from './genesis.ts'
import type { LegacyProductRatingsParams, LegacyProductReviewsParams } from './legacy.ts'
import type {
  BrandReviewSortField,
  BrandSortField,
  Incentivization,
  ProductRatingSortField,
  ProductRatingsLookupType,
  ProductReviewSortField,
  ProductSortField,
  ReviewRate,
  StructuredDataFilter,
} from './published.ts'
import type { PurchaseEventInput } from './purchase-events.ts'

/**
 * One identifier, several in an array, or several in one comma-separated string. Whitespace is part
 * of an identifier; a comma cannot be (the API reads it as a separator).
 */
export type Values = string | readonly string[]

/** Parameters shared by every paged list operation. */
export interface ListParams<SortField extends string> {
  /**
   * Where to start: a cursor from `page.nextCursor`/`page.previousCursor`. It must be sent with
   * the limit it was issued with; the client checks that for cursors it has seen.
   * @default undefined (the first page)
   */
  cursor?: string
  /**
   * Items per page, 1 to 200. A full walk is fastest with 200.
   * @default 10 (the API's default)
   */
  limit?: number
  /**
   * Fields to sort by, ascending unless also named in `desc`. The type names the fields the client
   * knows; the spec gives no full list, so another name (cast) is sent as given, with a warning in
   * development; the API decides (the sandbox answers 400 with its list).
   * @default the API's order (`publish_date` for reviews)
   */
  sort?: SortField | readonly SortField[]
  /**
   * Fields sorted descending. With `sort`, each must also be in `sort`; without it, the list is sorted
   * by these fields, descending (sent as `sort=F&desc=F`).
   * @default undefined
   */
  desc?: SortField | readonly SortField[]
}

/**
 * A date range filter: ISO 8601 dates or date-times (or `Date`s), combined with AND.
 * `{ gte: '2026-01-01', lt: '2026-02-01' }` is sent as `name.gte=…&name.lt=…`.
 */
export interface DateFilter {
  gte?: string | Date
  gt?: string | Date
  lte?: string | Date
  lt?: string | Date
}

/** Parameters of `products.list` (`GET /products`). */
export interface ProductListParams extends ListParams<ProductSortField> {
  /** Products to return, any number (sent in one request); all products when absent. */
  product_variation_id?: Values
}

/**
 * Parameters of `products.reviews.list` (`GET /products/reviews`). Identifier filters take any number
 * of values, sent in one request; whitespace is part of an identifier, a comma cannot be.
 */
export interface ProductReviewListParams extends ListParams<ProductReviewSortField> {
  /** Product variations. */
  product_variation_id?: Values
  product_ean?: Values
  product_mpn?: Values
  product_jan?: Values
  product_upc?: Values
  product_sku?: Values
  order_reference?: Values
  /** Star ratings to keep. */
  review_rate?: ReviewRate | readonly ReviewRate[]
  /** Publication date range. */
  publish_date?: DateFilter
  /** Range of the date the consumer wrote the review. */
  review_date?: DateFilter
  /** Range of the purchase order date. */
  order_date?: DateFilter
  /** Case-insensitive text searched in review content and moderation text. */
  search?: string
  incentivization?: Incentivization
  /** `true` for reviews left on the same product on another account. */
  syndicated_review?: boolean
  is_verified?: boolean
}

/** Parameters of `products.ratings.list` (`GET /products/ratings`). */
export interface ProductRatingListParams {
  /** Look products up by GTIN (`product_ean`) or by `product_variation_id`. */
  type: ProductRatingsLookupType
  /**
   * Identifiers, any number: the client sends them 200 per request, a few requests at a time, and
   * merges the answers in input order. Duplicates are sent once.
   */
  value: Values
  /** Sort the merged result instead of keeping input order. */
  sort?: ProductRatingSortField | readonly ProductRatingSortField[]
  /** Fields sorted descending; without `sort`, the result is sorted by these, descending. */
  desc?: ProductRatingSortField | readonly ProductRatingSortField[]
}

/** Parameters of `products.structuredData.get` (`GET /products/structured-datas`). */
export interface StructuredDataParams {
  /** The product; several variations are merged into one product. No whitespace (the spec forbids it here). */
  product_variation_id: Values
  /** The page's canonical URL: `itemReviewed.@id` of every block, equal to the `@id` of the page's Product. */
  canonical_url: string
  /** Blocks to return. @default every block */
  filters?: StructuredDataFilter | readonly StructuredDataFilter[]
  /** Most reviews in the `reviews` block, 1 to 100. @default 5 */
  reviews_limit?: number
  /**
   * What to ask the API for: `json` (`application/ld+json`) or `script` (`text/javascript`, script
   * tags). Both are parsed and checked, and both give the same {@link StructuredData}.
   * @default 'json'
   */
  format?: 'json' | 'script'
}

/** Parameters of `brands.list` (`GET /brands`). */
export interface BrandListParams extends ListParams<BrandSortField> {
  /** Shops to return, any number (sent in one request); the brand and every shop when absent. */
  shop_key?: Values
  /** `false` keeps only the brand's own entry; `true` only the shops. */
  linked_to_shop?: boolean
}

/** Parameters of `brands.reviews.list` (`GET /brands/reviews`). */
export interface BrandReviewListParams extends ListParams<BrandReviewSortField> {
  /** Case-insensitive text searched in review content and moderation text. */
  search?: string
  is_verified?: boolean
  /** Whether the author agreed to share personal data. */
  is_personal_data_disclosed?: boolean
  /** Shops whose reviews to return, any number (sent in one request). */
  shop_key?: Values
  /** Star ratings to keep. */
  review_rate?: ReviewRate | readonly ReviewRate[]
  /** `false` keeps only reviews of the brand that are linked to no shop. */
  linked_to_shop?: boolean
  /**
   * Publication date range. Not in the spec's table for this operation; the sandbox serves it, and
   * `syncBrandReviews` uses `gte` for its incremental runs (see the README).
   */
  publish_date?: DateFilter
  /** Range of the date the consumer wrote the review (as `publish_date`, outside the spec's table). */
  review_date?: DateFilter
  /** Range of the purchase order date (as `publish_date`, outside the spec's table). */
  order_date?: DateFilter
}

/** Parameters of `purchaseEvents.submit`. */
export interface SubmitPurchaseEventsParams {
  /**
   * The website (uuid) the events belong to.
   * @default the client's `websiteId`
   */
  websiteId?: string
  /** The events, any number; each `purchase_reference` identifies its event. */
  events: readonly PurchaseEventInput[]
  /**
   * Whether a batch that failed (a 5xx, a 429, a timeout, a failed connection, an answer cut short)
   * is sent again, as the client's `maxRetries` allows. A batch whose answer was lost may have been
   * stored: sending it again creates no second event only if the service keeps one event per
   * `purchase_reference`, which the spec does not promise (the sandbox does so, and so the client
   * assumes). `false` sends each batch once: a failure is thrown, and what became of that batch is
   * then unknown, never doubled. A 401 still gets one more try with a new token (the service refused
   * that request, so it stored nothing).
   * @default true
   */
  retry?: boolean
}

/** Parameters of `legacy.products.ratings.get`; `websiteId` defaults to the client's. */
export type LegacyRatingsGetParams = Omit<LegacyProductRatingsParams, 'websiteId'> & { websiteId?: string }

/** Parameters of `legacy.products.reviews.get`; `websiteId` defaults to the client's. */
export type LegacyReviewsGetParams = Omit<LegacyProductReviewsParams, 'websiteId'> & { websiteId?: string }

/** Which website to ask about. */
export interface GenesisWebsiteChoice {
  /**
   * The website (`idWebsite`).
   * @default the client's `websiteId`
   */
  websiteId?: string
}

/** Parameters of `genesis.website.get`. */
export type GenesisWebsiteGetParams = GenesisWebsiteParams & GenesisWebsiteChoice

/** Parameters of `genesis.product.reviews`. */
export type GenesisProductReviewsParams = Omit<GenesisProductBody, 'query'> & GenesisWebsiteChoice

/** Parameters of `genesis.product.average`. */
export type GenesisProductAverageParams = Pick<GenesisProductBody, 'product' | 'plateforme'> &
  GenesisRateFilter &
  GenesisWebsiteChoice
