import type { Text } from './text.ts'

const CELL = 24
const MAX = 5
// One star in relative moves from its top point, then five of them in one path: 24×24 cells side by
// side make the 120×24 view box, and the page carries two short paths per rating instead of ten.
const STAR = 'l2.94 5.96 6.58.96-4.76 4.64 1.12 6.55-5.88-3.09-5.88 3.09 1.12-6.55-4.76-4.64 6.58-.96z'
const STARS = Array.from({ length: MAX }, (_, i) => `M${i * CELL + CELL / 2} 2.5${STAR}`).join('')

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(MAX, Math.max(0, value)) : 0
}

/** `StarRating` with its texts given, so the island can draw stars without the message catalogue. */
export function Stars(props: {
  value: number
  count?: number | undefined
  size: number
  text: Text
  className?: string | undefined
}) {
  const { value, count, size, text, className } = props
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
