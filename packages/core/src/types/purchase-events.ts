/**
 * Purchase events (`{purchase_events_base_url}`): what a merchant submits so that consumers are
 * later invited to review their purchase. Field names as the API takes them (snake_case).
 */

/** A free-form field attached to an event, a consumer or a product. */
export interface CustomField {
  label: string
  value: string
  category: string
}

/** The consumer who made the purchase. The spec does not say which members are required. */
export interface Consumer {
  first_name?: string
  last_name?: string
  /** `YYYY-MM-DD`. */
  birth_date?: string
  email?: string
  phone?: string
  courtesy_title?: string
  custom_fields?: CustomField[]
  language?: string
  country?: string
}

/** Identifiers of a purchased product; any subset may be given. */
export interface ProductReference {
  ean?: string
  sku?: string
  upc?: string
  isbn?: string
  jan?: string
  mpn?: string
  reference?: string
}

/** One product of a purchase (the spec's "Product" of a purchase event). */
export interface PurchasedProduct {
  product_ref?: ProductReference
  name?: string
  brand?: string
  price?: number
  /** Marks a product that the consumer did not receive. */
  not_received?: boolean
  custom_fields?: CustomField[]
  category?: string
}

/** Where the purchase was made. */
export interface SalesChannel {
  /** `online` or `offline` are the values seen. */
  channel: 'online' | 'offline' | (string & {})
  /** `home_delivery` (online purchases) is the value seen. */
  delivery_type?: 'home_delivery' | (string & {})
  /** The website (uuid). */
  website_id?: string
  /** The shop, with `channel: 'offline'`. */
  shop_id?: string
}

/** Setup of the review request that will be sent to the consumer. */
export interface SolicitationParameters {
  /** Delay before the brand review request (unit not stated by the spec). */
  delay?: number
  /** Delay before the product review request (unit not stated by the spec). */
  delay_product?: number
  /** `BRAND_AND_PRODUCT` is the value seen. */
  purchase_event_type?: 'BRAND_AND_PRODUCT' | (string & {})
}

/** One purchase event as submitted (an element of the request array). */
export interface PurchaseEventInput {
  /**
   * 1 to 50 characters; identifies the event. A retried submission relies on the service keeping one
   * event per reference (the sandbox does; the spec does not say): see `retry` of `purchaseEvents.submit`.
   */
  purchase_reference: string
  /**
   * When the purchase was made: an ISO 8601 date-time with at least the minutes
   * (`2026-03-01T10:00:00+02:00`, `2026-03-01T10:00Z`, `2026-03-01T10:00:00,5+0200`,
   * `2026-03-01T10:00`), or a `Date`. Sent as an RFC 3339 date-time, `YYYY-MM-DDTHH:MM:SS`
   * (with `.sss` when a fraction was given) then the offset given, written `±HH:MM`, or `Z`: a string
   * without an offset is taken as UTC, a `Date` is sent in UTC. Anything else (a plain date, hours
   * alone, the basic format `20260301T1000Z`, an invalid `Date`) is refused before sending with a
   * `ValidationError` on `events[i].purchase_date`.
   */
  purchase_date: string | Date
  /**
   * Amount of the purchase.
   * @default 0
   */
  price?: number
  consumer: Consumer
  products?: PurchasedProduct[] | null
  sales_channel: SalesChannel
  solicitation_parameters?: SolicitationParameters
  custom_fields?: CustomField[] | null
}

/** Status of a submitted event; `CREATED` is the only state the spec shows. */
export type PurchaseEventStatus = 'CREATED' | (string & {})

/** A purchase event as the service returns it: the submitted fields echoed plus generated ones. */
export interface PurchaseEvent extends Omit<PurchaseEventInput, 'purchase_date' | 'price' | 'consumer'> {
  /** Generated identifier (uuid). */
  id: string
  website_id: string
  purchase_date: string
  price: number
  purchase_event_status: PurchaseEventStatus
  consumer: Consumer & { hide_personal_data: boolean; anonymize_data: boolean }
}
