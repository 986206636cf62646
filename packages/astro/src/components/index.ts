/**
 * `@verified-reviews/astro/components`: review components that render in the first HTML with no client
 * JavaScript, with the markup, class names and translations of the React components (style them with
 * `@verified-reviews/astro/styles.css`).
 *
 * @module
 */

export type { ReviewData } from '@verified-reviews/core/internal'
export { DEFAULT_MEDIA_WIDTHS, type HeadingLevel, type MediaWidths } from '@verified-reviews/core/internal'
export { default as BrandRating } from './BrandRating.astro'
export { default as BrandReviews } from './BrandReviews.astro'
export { default as ProductReviews } from './ProductReviews.astro'
export { default as RatingSummary } from './RatingSummary.astro'
export { default as ReviewItem } from './ReviewItem.astro'
export { default as ReviewList } from './ReviewList.astro'
export { default as ReviewSummary } from './ReviewSummary.astro'
export { default as ReviewsJsonLd } from './ReviewsJsonLd.astro'
export { default as ShopRating } from './ShopRating.astro'
export { default as StarRating } from './StarRating.astro'
