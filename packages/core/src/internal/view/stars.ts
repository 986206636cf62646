import type { TextFormatter } from '../i18n/text-formatter.ts'

const CELL = 24
const MAX = 5
// One star in relative moves from its top point, then five of them in one path: 24×24 cells side by side
// make the 120×24 view box, and the page carries two short paths per rating instead of ten.
const STAR = 'l2.94 5.96 6.58.96-4.76 4.64 1.12 6.55-5.88-3.09-5.88 3.09 1.12-6.55-4.76-4.64 6.58-.96z'

/** The SVG of a star rating: a path of five stars drawn twice, empty, then filled up to the rating. */
export const STARS_SVG = Object.freeze({
  /** Stars drawn: the outer `<svg>` is this many times its height wide. */
  stars: MAX,
  /** `viewBox` of the outer `<svg>`, five stars wide. */
  viewBox: `0 0 ${CELL * MAX} ${CELL}`,
  /** Height of the inner `<svg>` that clips the filled stars. */
  height: CELL,
  /** The five stars, as one path. */
  path: Array.from({ length: MAX }, (_, i) => `M${i * CELL + CELL / 2} 2.5${STAR}`).join(''),
})

/** What a star rating shows. */
export interface StarRatingView {
  /** The rating kept from 0 to 5 (0 for what is not a number). */
  rating: number
  /** The accessible name: "4.6 out of 5", with ", 128 reviews" when a count is given. */
  label: string
  /** Width of the filled stars in view box units. */
  filledWidth: number
}

/** The rating, name and filled width of a star rating. */
export function starRating(value: number, count: number | undefined, text: TextFormatter): StarRatingView {
  const rating = Number.isFinite(value) ? Math.min(MAX, Math.max(0, value)) : 0
  const label =
    count === undefined
      ? text.t('ratingOutOfFive', { rating: text.rating(rating) })
      : text.t('ratingLabel', { rating: text.rating(rating), count })
  return { rating, label, filledWidth: Math.round((rating / MAX) * CELL * MAX * 100) / 100 }
}
