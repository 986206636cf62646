import { getText } from '../internal/i18n.ts'

const CELL = 24
const MAX = 5
// One star in relative moves from its top point, then five of them in one path: 24×24 cells side by
// side make the 120×24 view box, and the page carries two short paths per rating instead of ten.
const STAR = 'l2.94 5.96 6.58.96-4.76 4.64 1.12 6.55-5.88-3.09-5.88 3.09 1.12-6.55-4.76-4.64 6.58-.96z'
const STARS = Array.from({ length: MAX }, (_, i) => `M${i * CELL + CELL / 2} 2.5${STAR}`).join('')

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

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(MAX, Math.max(0, value)) : 0
}

/**
 * Fractional stars as one inline SVG, with an accessible name such as "4.6 out of 5, 128 reviews".
 * The filled stars sit in a nested `<svg>` whose width is the rating, so no script, no id and no
 * inline style is needed (it works under a strict Content Security Policy).
 *
 * Class names: `vr-star-rating`, `vr-star-rating__stars`, `vr-star-rating__empty`, `vr-star-rating__filled`.
 */
export function StarRating({ value, count, size = 20, locale, className }: StarRatingProps) {
  const text = getText(locale)
  const rating = clamp(value)
  const label =
    count === undefined
      ? text.t('ratingOutOfFive', { rating: text.rating(rating) })
      : text.t('ratingLabel', { rating: text.rating(rating), count })
  const filledWidth = Math.round((rating / MAX) * CELL * MAX * 100) / 100
  return (
    <span
      className={className ? `vr-star-rating ${className}` : 'vr-star-rating'}
      role="img"
      aria-label={label}
      data-rating={rating}
    >
      <svg
        className="vr-star-rating__stars"
        viewBox={`0 0 ${CELL * MAX} ${CELL}`}
        width={size * MAX}
        height={size}
        aria-hidden="true"
        focusable="false"
      >
        <path className="vr-star-rating__empty" d={STARS} fill="currentColor" fillOpacity="0.2" />
        <svg
          className="vr-star-rating__filled"
          width={filledWidth}
          height={CELL}
          fill="currentColor"
          aria-hidden="true"
        >
          <path d={STARS} />
        </svg>
      </svg>
    </span>
  )
}
