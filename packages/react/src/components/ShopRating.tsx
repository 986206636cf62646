import type { BrandRating as BrandRatingData } from '@verified-reviews/core'
import { getTextFormatter } from '@verified-reviews/core/i18n'
import type { HeadingLevel } from '@verified-reviews/core/internal'
import { RatingPeriods } from '../internal/RatingPeriods.tsx'

/** Props of {@link ShopRating}. */
export interface ShopRatingProps {
  /** The shop's statistics: the `GET /brands` item of its `shop_key`. */
  rating: BrandRatingData
  /** The shop's name as the site shows it ("Lyon Part-Dieu"); the heading then reads "Rating of Lyon Part-Dieu". */
  name?: string
  /**
   * Level of the heading ("Shop rating"); the period headings are one level below.
   * @default 2
   */
  headingLevel?: HeadingLevel
  /**
   * Language of every text and date, one of bg cs de el en es fr it nl pl pt sk tr; other values
   * are resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-shop-rating`. */
  className?: string
}

/**
 * One shop's rating over the last 12 months and the last 5 years, each as average, stars, count
 * and histogram, with the total since the first review. Renders no structured data: shop stars
 * are self-serving in Google's eyes.
 *
 * Class names: `vr-shop-rating` (`--empty` without reviews), `__heading`, `__total`, `__empty`,
 * `__periods`, and the period classes of {@link BrandRating}.
 */
export function ShopRating({ rating, name, headingLevel = 2, locale, className }: ShopRatingProps) {
  const text = getTextFormatter(locale)
  const shop = name?.trim()
  return (
    <RatingPeriods
      block="vr-shop-rating"
      heading={shop ? text.t('reviewsOf', { name: shop }) : text.t('customerReviews')}
      rating={rating}
      headingLevel={headingLevel}
      text={text}
      className={className}
    />
  )
}
