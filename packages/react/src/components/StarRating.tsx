import { getTextFormatter } from '@verified-reviews/core/i18n'
import { Stars } from '../internal/Stars.tsx'

/** Props of {@link StarRating}. */
export interface StarRatingProps {
  /**
   * The rating, from 0 to 5, shown to the nearest tenth (halves up); values outside the range are
   * clamped, and one that is not a number reads as 0.
   */
  value: number
  /** Number of reviews behind the rating, added to the accessible name ("4.6 out of 5, 128 reviews"). */
  count?: number
  /**
   * Language of the accessible name, one of bg cs de el en es fr it nl pl pt sk tr; other values
   * are resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-stars`: set `font-size` on one to size the stars. */
  className?: string
}

/**
 * A star rating as one element with an accessible name ("4.6 out of 5, 128 reviews") and the rating in
 * tenths in `data-r`, about 100 bytes of HTML:
 * `<span class="vr-stars" role="img" aria-label="4.6 out of 5" data-r="46">4.6/5</span>`.
 *
 * `styles.css` draws the stars (a mask of `star.svg`, the file beside it, over a fill quantised to
 * tenths by one selector per `data-r` value), so there is no SVG, no script and no inline style in the
 * page. A star is `1em` high and the element five stars wide: its `font-size` sizes it (by default
 * `1.25em`, 20 px in 16 px text). Without `styles.css` the element reads as its text, "4.6/5".
 *
 * Class name: `vr-stars` (attribute `data-r`, 0 to 50).
 */
export function StarRating({ value, count, locale, className }: StarRatingProps) {
  return <Stars value={value} count={count} text={getTextFormatter(locale)} className={className} />
}
