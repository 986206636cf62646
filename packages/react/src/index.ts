export { BrandRating, type BrandRatingProps } from './components/BrandRating.tsx'
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
export { ShopRating, type ShopRatingProps } from './components/ShopRating.tsx'
export { StarRating, type StarRatingProps } from './components/StarRating.tsx'
export type { HeadingLevel } from './types.ts'
