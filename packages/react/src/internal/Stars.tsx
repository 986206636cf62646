import type { TextFormatter } from '@verified-reviews/core/i18n'
import { STARS_SVG, starRating } from '@verified-reviews/core/internal'

/** `StarRating` with its texts given, so the island can draw stars without the message catalogue. */
export function Stars(props: {
  value: number
  count?: number | undefined
  size: number
  text: TextFormatter
  className?: string | undefined
}) {
  const { value, count, size, text, className } = props
  const { rating, label, filledWidth } = starRating(value, count, text)
  return (
    <span
      className={className ? `vr-star-rating ${className}` : 'vr-star-rating'}
      role="img"
      aria-label={label}
      data-rating={rating}
    >
      <svg
        className="vr-star-rating__stars"
        viewBox={STARS_SVG.viewBox}
        width={size * STARS_SVG.stars}
        height={size}
        aria-hidden="true"
        focusable="false"
      >
        <path className="vr-star-rating__empty" d={STARS_SVG.path} fill="currentColor" fillOpacity="0.2" />
        <svg
          className="vr-star-rating__filled"
          width={filledWidth}
          height={STARS_SVG.height}
          fill="currentColor"
          aria-hidden="true"
        >
          <path d={STARS_SVG.path} />
        </svg>
      </svg>
    </span>
  )
}
