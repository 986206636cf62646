import type {
  ProductRatingExtra,
  ProductSummaryExtra,
  RatingCounts,
  ReviewRate,
} from '@verified-reviews/core'

/** Rates from 5 down to 1, the order of a histogram. */
export const RATES: readonly ReviewRate[] = [5, 4, 3, 2, 1]

/** Number of reviews of one rate, 0 when the API left it out or sent nonsense. */
export function countOf(counts: RatingCounts, rate: ReviewRate): number {
  const value = counts[`count_${rate}`]
  return Number.isFinite(value) && value > 0 ? value : 0
}

/** Sum of the five per-rate counts. */
export function totalOf(counts: RatingCounts): number {
  return RATES.reduce((sum, rate) => sum + countOf(counts, rate), 0)
}

/** A quality criterion of a product summary or rating, as the rating summary shows it. */
export function criterionOf(extra: ProductSummaryExtra | ProductRatingExtra): {
  name: string
  average: number
  count: number
} {
  if ('rate' in extra && extra.rate) {
    return { name: extra.display_name || extra.label, average: extra.rate.average, count: extra.rate.count }
  }
  const flat = extra as ProductRatingExtra
  return { name: flat.label, average: flat.average, count: flat.count }
}
