import type { BrandReview, Moderation, ProductReview } from '@verified-reviews/core'

/**
 * The fields of a review that `ReviewItem` shows: a product review and a brand review both fit as they
 * are; the fields only product reviews carry are optional (the React `ReviewData`).
 */
export type ReviewData = Pick<
  BrandReview,
  | 'review_id'
  | 'author_firstname'
  | 'author_lastname'
  | 'is_personal_data_disclosed'
  | 'locale'
  | 'review_date'
  | 'review_content'
  | 'review_rate'
  | 'is_verified'
  | 'incentivization'
> &
  Partial<Pick<BrandReview, 'extras'>> &
  Partial<
    Pick<
      ProductReview,
      | 'medias'
      | 'syndicated_review'
      | 'syndicated_review_source'
      | 'syndicated_review_source_url'
      | 'translated_review'
    >
  > & {
    /** Merchant replies; those of product reviews carry `translated_comment`. */
    moderations?: ReadonlyArray<Moderation>
  }

/** Pixel widths assumed for the `small`, `medium` and `large` variants of review images (`srcset`). */
export interface MediaWidths {
  small: number
  medium: number
  large: number
}

/** Widths assumed when none are given: the API does not state the variants' sizes. */
export const DEFAULT_MEDIA_WIDTHS: Readonly<MediaWidths> = Object.freeze({
  small: 200,
  medium: 600,
  large: 1200,
})
