export {
  MAX_REVIEWS_LIMIT,
  REVIEW_SORTS,
  type ReviewSort,
  type SearchParamsRecord,
  sortFields as reviewSortParams,
} from '@verified-reviews/core/internal'
export { BrandRating, type BrandRatingProps } from './components/BrandRating.tsx'
export { BrandReviews, type BrandReviewsProps } from './components/BrandReviews.tsx'
export { BrandReviewsView, type BrandReviewsViewProps } from './components/BrandReviewsView.tsx'
export { ProductRating, type ProductRatingProps } from './components/ProductRating.tsx'
export { ProductReviews, type ProductReviewsProps } from './components/ProductReviews.tsx'
export { ProductReviewsView, type ProductReviewsViewProps } from './components/ProductReviewsView.tsx'
export { RatingBadge, type RatingBadgeProps } from './components/RatingBadge.tsx'
export {
  RatingSummary,
  type RatingSummaryData,
  type RatingSummaryProps,
} from './components/RatingSummary.tsx'
export {
  DEFAULT_MEDIA_WIDTHS,
  type MediaWidths,
  type ReviewData,
  ReviewItem,
  type ReviewItemProps,
} from './components/ReviewItem.tsx'
export { ReviewList, type ReviewListProps } from './components/ReviewList.tsx'
export { ReviewSummary, type ReviewSummaryProps } from './components/ReviewSummary.tsx'
export {
  ReviewsJsonLd,
  type ReviewsJsonLdApiProps,
  type ReviewsJsonLdDataProps,
  type ReviewsJsonLdProps,
} from './components/ReviewsJsonLd.tsx'
export { ShopRating, type ShopRatingProps } from './components/ShopRating.tsx'
export { StarRating, type StarRatingProps } from './components/StarRating.tsx'
export type {
  ReviewsErrorContext,
  ReviewsErrorHandler,
  SearchParamsInput,
} from './internal/data.ts'
export type { JsonLdScriptAttributes } from './internal/JsonLdScript.tsx'
export type { HeadingLevel, ReviewPageProps } from './types.ts'
