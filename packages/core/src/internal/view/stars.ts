import type { TextFormatter } from '../i18n/text-formatter.ts'

const MAX = 5
const STEPS_PER_STAR = 10

/**
 * The markup of a star rating: one element, no drawing. `styles.css` draws the stars from its
 * `data-r` attribute (the rating in tenths, one selector per value) with `star.svg` beside it.
 */
export const STAR_RATING = Object.freeze({
  /** Class of the element. */
  className: 'vr-stars',
  /** Attribute holding the rating in tenths, from 0 to 50. */
  attribute: 'data-r',
  /** Largest value of the attribute: five stars. */
  maxTenths: MAX * STEPS_PER_STAR,
})

/**
 * The rating in whole tenths from 0 to 50, as `data-r` gives it: rounded to the nearest tenth (halves up:
 * 4.64 → 46, 4.65 → 47), kept from 0 to 5, and 0 for what is not a number.
 */
export function ratingTenths(value: number): number {
  if (!Number.isFinite(value)) return 0
  // Through the decimal text, so 4.65 (stored as 4.6499…) rounds up as it reads.
  const tenths = Math.round(Number((value * STEPS_PER_STAR).toPrecision(12)))
  return Math.min(STAR_RATING.maxTenths, Math.max(0, tenths))
}

/** What a star rating shows. */
export interface StarRatingView {
  /** The rating rounded to a tenth and kept from 0 to 5 (0 for what is not a number). */
  rating: number
  /** The value of `data-r`: the rating in tenths, from 0 to 50. */
  tenths: number
  /** The accessible name: "4.6 out of 5", with ", 128 reviews" when a count is given. */
  label: string
  /** The element's text, seen where `styles.css` is not loaded (it hides it behind the stars): "4.6/5". */
  text: string
}

/** The rating, name and text of a star rating; the name and the stars say the same tenth. */
export function starRating(value: number, count: number | undefined, text: TextFormatter): StarRatingView {
  const tenths = ratingTenths(value)
  const rating = tenths / STEPS_PER_STAR
  const shown = text.rating(rating)
  const label =
    count === undefined
      ? text.t('ratingOutOfFive', { rating: shown })
      : text.t('ratingLabel', { rating: shown, count })
  return { rating, tenths, label, text: text.t('ratingOutOfFiveShort', { rating: shown }) }
}
