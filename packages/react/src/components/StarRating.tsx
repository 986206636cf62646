import { getTextFormatter } from '@verified-reviews/core/i18n'
import { Stars } from '../internal/Stars.tsx'

/** Props of {@link StarRating}. */
export interface StarRatingProps {
  /** The rating, from 0 to 5; fractions fill a star partially. Values outside the range are clamped. */
  value: number
  /** Number of reviews behind the rating, added to the accessible name ("4.6 out of 5, 128 reviews"). */
  count?: number
  /**
   * Height of one star in CSS pixels; the element is five stars wide. Fixed dimensions keep the
   * layout from shifting.
   * @default 20
   */
  size?: number
  /**
   * Language of the accessible name, one of bg cs de el en es fr it nl pl pt sk tr; other values
   * are resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-star-rating`. */
  className?: string
}

/**
 * Fractional stars as one inline SVG, with an accessible name such as "4.6 out of 5, 128 reviews".
 * The filled stars sit in a nested `<svg>` whose width is the rating, so no script, no id and no
 * inline style is needed (it works under a strict Content Security Policy).
 *
 * Class names: `vr-star-rating`, `vr-star-rating__stars`, `vr-star-rating__empty`, `vr-star-rating__filled`.
 */
export function StarRating({ value, count, size = 20, locale, className }: StarRatingProps) {
  return (
    <Stars value={value} count={count} size={size} text={getTextFormatter(locale)} className={className} />
  )
}
