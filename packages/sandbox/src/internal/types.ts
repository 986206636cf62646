/**
 * The sandbox's data model. Field names follow the API (snake_case) so that a stored record
 * can be answered as it is; everything that a route derives (aggregates, legacy and Genesis
 * shapes, structured data) is computed from these records, so every view agrees.
 */

/** The 13 languages of `translated_review`. */
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
export type Language = (typeof LANGUAGES)[number]

export type Incentivization = 'none' | 'gifted' | 'compensated' | 'spontaneous'
export const INCENTIVIZATIONS: readonly Incentivization[] = ['none', 'gifted', 'compensated', 'spontaneous']

/**
 * Stored as sandbox paths (`/__sandbox/media/…`); routes make them absolute on the origin the
 * client used, so links work whatever host or port the sandbox is reached at.
 */
export interface Media {
  type: 'IMAGE'
  small: string
  medium: string
  large: string
}

export interface Moderation {
  comment: string
  date: string
  origin: string
  origin_type: 'moderator'
  /** Present on product reviews only. */
  translated_comment?: Partial<Record<Language, string>>
}

export type ReviewExtra =
  | { display_name: string; label: string; type: 'I1'; value: number }
  | { display_name: string; label: string; type: 'S'; value: string }

export interface Product {
  product_variation_id: string
  product_ean: string
  product_upc: string
  product_jan: string
  product_sku: string
  product_mpn: string
  product_brand: string
  product_name: string
  /** AI summary; absent for products with fewer than 3 reviews. */
  review_summary?: { content: string; last_updated_at: string }
}

export interface ProductReview {
  review_id: string
  author_firstname: string
  author_lastname: string
  is_personal_data_disclosed: boolean
  locale: string
  review_date: string
  publish_date: string
  order_date: string
  review_content: string
  review_rate: 1 | 2 | 3 | 4 | 5
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
  syndicated_review: boolean
  syndicated_review_source: string
  syndicated_review_source_url: string
  translated_review: Partial<Record<Language, string>>
  moderations: Moderation[]
  extras: Record<string, ReviewExtra>
  /** Not an API field: how many people found the review helpful, shown by the legacy API. */
  helpful_votes?: { helpful: number; helpless: number }
}

export interface BrandReview {
  review_id: string
  order_reference: string
  /** Empty string for a review of the brand that is not linked to a shop. */
  shop_key: string
  review_content: string
  author_firstname: string
  author_lastname: string
  locale: string
  website_id: string
  review_rate: 1 | 2 | 3 | 4 | 5
  incentivization: Incentivization
  is_verified: boolean
  is_personal_data_disclosed: boolean
  order_date: string
  review_date: string
  publish_date: string
  moderations: Omit<Moderation, 'translated_comment'>[]
  extras: Record<string, ReviewExtra>
}

export interface Shop {
  shop_key: string
  name: string
  certificate_url: string
}

/** A purchase event as stored and answered (request fields echoed, plus the generated ones). */
export interface StoredPurchaseEvent {
  id: string
  website_id: string
  purchase_reference: string
  purchase_date: string
  price: number
  purchase_event_status: 'CREATED'
  consumer: Record<string, unknown> & { hide_personal_data: boolean; anonymize_data: boolean }
  products?: unknown[] | null
  sales_channel: Record<string, unknown>
  solicitation_parameters?: Record<string, unknown>
  custom_fields?: unknown[] | null
  /** Not an API field: when the sandbox received it. */
  received_at: string
}
