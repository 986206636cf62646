import type { BrandReview, Moderation, ProductReview } from '@verified-reviews/core'
import type { HeadingLevel } from '../internal/Heading.tsx'
import { getText } from '../internal/i18n.ts'
import { DEFAULT_MEDIA_WIDTHS, DEFAULT_THUMBNAIL_SIZE, type MediaWidths } from '../internal/media-widths.ts'
import { Review } from '../internal/Review.tsx'

export { DEFAULT_MEDIA_WIDTHS, type MediaWidths }

/**
 * The fields of a review that {@link ReviewItem} shows. A product review (`GET /products/reviews`)
 * and a brand review (`GET /brands/reviews`) both fit as they are; the fields only product reviews
 * carry are optional.
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

/** Props of {@link ReviewItem}. */
export interface ReviewItemProps {
  /** The review as the API sends it. */
  review: ReviewData
  /**
   * Level of the heading holding the author's name.
   * @default 3
   */
  headingLevel?: HeadingLevel
  /**
   * Widths of the image variants, for `srcset`.
   * @default { small: 200, medium: 600, large: 1200 }
   */
  mediaWidths?: MediaWidths
  /**
   * Edge of the square image thumbnails in CSS pixels (`width`/`height` of each `<img>`).
   * @default 96
   */
  thumbnailSize?: number
  /**
   * Language of every text and date, one of bg cs de el en es fr it nl pl pt sk tr; other values
   * are resolved to the closest supported language. A review written in another language is shown
   * in this one when the API has a translation.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-review`. */
  className?: string
}

/**
 * One review: author (as the API allows), stars, date, text (translated for the page when the
 * API has it, with the original in `<details>`), verified badge, incentive disclosure, criteria,
 * images, syndication source and merchant replies. Renders on the server with no client JavaScript.
 *
 * Class names: `vr-review`, `__header`, `__author`, `__rate`, `__date`, `__badges`, `__verified`,
 * `__verified-explanation`, `__disclosure` (`--gifted`, `--compensated`), `__translation-note`,
 * `__content` (`--original`), `__original`, `__criteria`, `__criterion` (`--rate`, `--text`),
 * `__criterion-name`, `__criterion-value`, `__medias`, `__media`, `__media-link`, `__media-image`,
 * `__source`, `__source-link`, `__replies`; replies: `vr-reply`, `__heading`, `__author`, `__date`,
 * `__translation-note`, `__content`, `__original`.
 */
export function ReviewItem({
  review,
  headingLevel = 3,
  mediaWidths = DEFAULT_MEDIA_WIDTHS,
  thumbnailSize = DEFAULT_THUMBNAIL_SIZE,
  locale,
  className,
}: ReviewItemProps) {
  return (
    <Review
      review={review}
      headingLevel={headingLevel}
      mediaWidths={mediaWidths}
      thumbnailSize={thumbnailSize}
      text={getText(locale)}
      className={className}
    />
  )
}
