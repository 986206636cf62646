import { absoluteUrl } from './media.ts'
import type { BrandReview, ProductReview } from './types.ts'

/** A product review as the Published API answers it: API fields only, media URLs absolute. */
export function toPublishedProductReview(
  r: ProductReview,
  origin: string,
): Omit<ProductReview, 'helpful_votes'> {
  return {
    review_id: r.review_id,
    author_firstname: r.author_firstname,
    author_lastname: r.author_lastname,
    is_personal_data_disclosed: r.is_personal_data_disclosed,
    locale: r.locale,
    review_date: r.review_date,
    publish_date: r.publish_date,
    order_date: r.order_date,
    review_content: r.review_content,
    review_rate: r.review_rate,
    order_reference: r.order_reference,
    order_id: r.order_id,
    product_variation_id: r.product_variation_id,
    product_ean: r.product_ean,
    product_upc: r.product_upc,
    product_jan: r.product_jan,
    product_sku: r.product_sku,
    product_mpn: r.product_mpn,
    product_brand: r.product_brand,
    product_name: r.product_name,
    is_verified: r.is_verified,
    medias: r.medias.map((m) => ({
      type: m.type,
      small: absoluteUrl(m.small, origin),
      medium: absoluteUrl(m.medium, origin),
      large: absoluteUrl(m.large, origin),
    })),
    incentivization: r.incentivization,
    syndicated_review: r.syndicated_review,
    syndicated_review_source: r.syndicated_review_source,
    syndicated_review_source_url: r.syndicated_review_source_url,
    translated_review: r.translated_review,
    moderations: r.moderations,
    extras: r.extras,
  }
}

/** A brand review as the Published API answers it. */
export function toPublishedBrandReview(r: BrandReview): BrandReview {
  return {
    review_id: r.review_id,
    order_reference: r.order_reference,
    shop_key: r.shop_key,
    review_content: r.review_content,
    author_firstname: r.author_firstname,
    author_lastname: r.author_lastname,
    locale: r.locale,
    website_id: r.website_id,
    review_rate: r.review_rate,
    incentivization: r.incentivization,
    is_verified: r.is_verified,
    is_personal_data_disclosed: r.is_personal_data_disclosed,
    order_date: r.order_date,
    review_date: r.review_date,
    publish_date: r.publish_date,
    moderations: r.moderations,
    extras: r.extras,
  }
}

/** Serialized views, per record and origin: records never change once stored, so neither do these. */
const serialized = new WeakMap<ProductReview, Map<string, Buffer>>()
const OPEN = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']')

/**
 * The UTF-8 JSON array of product reviews as the Published API answers them. Serializing and
 * encoding a 200-review page is most of the cost of a request, so each review's bytes are kept and
 * pages are concatenated from them.
 */
export function publishedProductReviewsBody(reviews: readonly ProductReview[], origin: string): Buffer {
  const parts: Buffer[] = [OPEN]
  reviews.forEach((review, index) => {
    let byOrigin = serialized.get(review)
    if (!byOrigin) {
      byOrigin = new Map()
      serialized.set(review, byOrigin)
    }
    let bytes = byOrigin.get(origin)
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(toPublishedProductReview(review, origin)), 'utf8')
      byOrigin.set(origin, bytes)
    }
    if (index > 0) parts.push(COMMA)
    parts.push(bytes)
  })
  parts.push(CLOSE)
  return Buffer.concat(parts)
}
