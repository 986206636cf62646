import type { TextFormatter } from '@verified-reviews/core/i18n'
import { STAR_RATING, starRating } from '@verified-reviews/core/internal'

/** `StarRating` with its texts given, so the island can draw stars without the message catalogue. */
export function Stars(props: {
  value: number
  count?: number | undefined
  text: TextFormatter
  className?: string | undefined
}) {
  const { value, count, text, className } = props
  const view = starRating(value, count, text)
  return (
    <span
      className={className ? `${STAR_RATING.className} ${className}` : STAR_RATING.className}
      role="img"
      aria-label={view.label}
      data-r={view.tenths}
    >
      {view.text}
    </span>
  )
}
