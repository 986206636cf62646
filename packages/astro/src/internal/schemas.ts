import type { BrandReview, ProductRating, ProductReview } from '@verified-reviews/core'
import { z } from 'astro/zod'

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isReview(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.review_id === 'string' &&
    typeof value.publish_date === 'string' &&
    typeof value.review_rate === 'number'
  )
}

// Custom schemas keep every entry exactly as the API sent it (no member stripped or reordered), which
// the incremental sync relies on to recognise a review it already holds; the types come from core.

/** Schema of a product review entry: the `ProductReview` of `@verified-reviews/core`. */
export const productReviewSchema: z.ZodType<ProductReview> = z.custom<ProductReview>(
  (value) => isReview(value) && typeof value.product_variation_id === 'string',
  'is not a product review of the Published API',
)

/** Schema of a brand review entry: the `BrandReview` of `@verified-reviews/core`. */
export const brandReviewSchema: z.ZodType<BrandReview> = z.custom<BrandReview>(
  (value) => isReview(value) && typeof value.shop_key === 'string',
  'is not a brand review of the Published API',
)

/** Schema of a product rating entry: the `ProductRating` of `@verified-reviews/core`. */
export const productRatingSchema: z.ZodType<ProductRating> = z.custom<ProductRating>(
  (value) =>
    isRecord(value) &&
    typeof value.product_variation_id === 'string' &&
    typeof value.average === 'number' &&
    typeof value.count_total === 'number',
  'is not a product rating of the Published API',
)

/**
 * A product with its rating and its reviews: the data of an entry of `productReviewsLoader` and of
 * `liveProductReviewsLoader`.
 */
export interface ProductReviewsEntry {
  product_variation_id: string
  /** The product's rating; null when it has no reviews. */
  rating: ProductRating | null
  /** Its reviews, newest first. */
  reviews: ProductReview[]
}

/** Schema of a {@link ProductReviewsEntry}: the rating and reviews kept as the API sent them. */
export const productReviewsEntrySchema: z.ZodType<ProductReviewsEntry> = z.custom<ProductReviewsEntry>(
  (value) =>
    isRecord(value) &&
    typeof value.product_variation_id === 'string' &&
    (value.rating === null || productRatingSchema.safeParse(value.rating).success) &&
    Array.isArray(value.reviews) &&
    value.reviews.every((review) => productReviewSchema.safeParse(review).success),
  'is not a product with its rating and reviews',
)
