import { getTextFormatter } from '@verified-reviews/core/i18n'
import type { ReviewData } from '@verified-reviews/core/internal'
import {
  DEFAULT_MEDIA_WIDTHS,
  DEFAULT_THUMBNAIL_SIZE,
  type HeadingLevel,
  type MediaWidths,
} from '@verified-reviews/core/internal'
import { Review } from '../internal/Review.tsx'

export { DEFAULT_MEDIA_WIDTHS, type MediaWidths, type ReviewData }

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
 * Class names: `vr-review` (its first child is the author's heading, then come `.vr-stars` and `time`),
 * `__verified` (the explanation is the text after its `<summary>`), `__disclosure` (`--gifted`,
 * `--compensated`), `__translation-note`, `__content`, `__original` (the original text is its `<p>`),
 * `__criteria` (a `<dl>` of `<dt>` and `<dd>`, a score in words: "5.0 out of 5"), `__medias`, `__source`;
 * replies: `vr-reply`, `__heading` (the date is its `<time>`), `__translation-note`, `__content`,
 * `__original`.
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
      text={getTextFormatter(locale)}
      className={className}
    />
  )
}
