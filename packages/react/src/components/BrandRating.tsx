import type { BrandRating as BrandRatingData } from '@verified-reviews/core'
import { getTextFormatter } from '@verified-reviews/core/i18n'
import type { HeadingLevel } from '@verified-reviews/core/internal'
import { RatingPeriods } from '../internal/RatingPeriods.tsx'

/** Props of {@link BrandRating}. */
export interface BrandRatingProps {
  /** The brand's statistics: the `GET /brands` item whose `shop_key` is empty. */
  rating: BrandRatingData
  /**
   * Level of the heading ("Brand rating"); the period headings are one level below.
   * @default 2
   */
  headingLevel?: HeadingLevel
  /**
   * Language of every text and date, one of bg cs de el en es fr it nl pl pt sk tr; other values
   * are resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-brand-rating`. */
  className?: string
}

/**
 * The brand's rating over the last 12 months and the last 5 years, each as average, stars, count
 * and histogram, with the total since the first review. Renders no structured data: brand stars
 * are self-serving in Google's eyes.
 *
 * Class names: `vr-brand-rating` (`--empty` without reviews), `__heading`, `__total`, `__empty`,
 * `__periods`; each period: `vr-rating-period` (`--one-year`, `--five-year`), `__heading`,
 * `__overview`, `__average`, `__stars`, `__count`, `__empty`, and the `vr-histogram` classes.
 */
export function BrandRating({ rating, headingLevel = 2, locale, className }: BrandRatingProps) {
  const text = getTextFormatter(locale)
  return (
    <RatingPeriods
      block="vr-brand-rating"
      heading={text.t('customerReviews')}
      rating={rating}
      headingLevel={headingLevel}
      text={text}
      className={className}
    />
  )
}
