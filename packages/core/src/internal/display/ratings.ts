import type {
  BrandRating,
  ProductRatingExtra,
  ProductSummaryExtra,
  RatingCounts,
  RatingStatistics,
  ReviewRate,
} from '../../types/published.ts'
import type { TextFormatter } from '../i18n/text-formatter.ts'
import { pageHref } from './url.ts'

/** Rates from 5 down to 1, the order of a histogram. */
export const HISTOGRAM_RATES: readonly ReviewRate[] = [5, 4, 3, 2, 1]

/** A count from the API, 0 when it is left out, negative or not a number. */
export function countOrZero(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0
}

/** Number of reviews of one rate, 0 when the API left it out or sent nonsense. */
export function countOf(counts: RatingCounts, rate: ReviewRate): number {
  return countOrZero(counts[`count_${rate}`])
}

/** Sum of the five per-rate counts. */
export function totalOf(counts: RatingCounts): number {
  return HISTOGRAM_RATES.reduce((sum, rate) => sum + countOf(counts, rate), 0)
}

/** One row of a rating histogram. */
export interface HistogramRow {
  rate: ReviewRate
  /** Reviews of this rate. */
  count: number
  /** Their share of all reviews, from 0 to 1. */
  share: number
  /** The row's label, "5 stars". */
  label: string
  /** The share as the row's bar (a `<meter>`) shows it: from 0 to 1, with three decimals. */
  bar: number
  /** Link that filters the reviews by this rate, when the page gives one that is relative or `http(s)`. */
  href: string | undefined
}

/** The rows of a histogram, 5 stars first. */
export function histogramRows(
  counts: RatingCounts,
  text: TextFormatter,
  rateHref?: ((rate: ReviewRate) => string) | undefined,
): HistogramRow[] {
  const total = totalOf(counts)
  return HISTOGRAM_RATES.map((rate) => {
    const count = countOf(counts, rate)
    const share = total > 0 ? count / total : 0
    return {
      rate,
      count,
      share,
      label: text.t('starCount', { count: rate }),
      bar: Math.round(share * 1000) / 1000,
      href: rateHref ? pageHref(rateHref(rate)) : undefined,
    }
  })
}

/** A quality criterion of a product summary or rating, as the rating summary shows it. */
export interface RatingCriterion {
  name: string
  average: number
  count: number
}

function criterionOf(extra: ProductSummaryExtra | ProductRatingExtra): RatingCriterion {
  if ('rate' in extra && extra.rate) {
    return { name: extra.display_name || extra.label, average: extra.rate.average, count: extra.rate.count }
  }
  const flat = extra as ProductRatingExtra
  return { name: flat.label, average: flat.average, count: flat.count }
}

/** The criteria a rating summary shows: those with a name and an average, in the API's order. */
export function ratingCriteria(
  criteria: ReadonlyArray<ProductSummaryExtra | ProductRatingExtra> | undefined,
): RatingCriterion[] {
  return (criteria ?? []).map(criterionOf).filter((c) => c.name !== '' && Number.isFinite(c.average))
}

/** One period of a brand or shop rating. */
export interface RatingPeriod {
  key: 'one-year' | 'five-year'
  /** "Last 12 months", "Last 5 years". */
  label: string
  stats: RatingStatistics | undefined
  /** Reviews in the period. */
  count: number
}

/** The periods of a brand or shop rating: the last 12 months, then the last 5 years. */
export function ratingPeriods(rating: BrandRating, text: TextFormatter): RatingPeriod[] {
  const periods = [
    { key: 'one-year', label: text.t('lastTwelveMonths'), stats: rating.one_year },
    { key: 'five-year', label: text.t('lastFiveYears'), stats: rating.five_year },
  ] as const
  return periods.map((period) => ({ ...period, count: period.stats ? totalOf(period.stats) : 0 }))
}

/** The rating a product without any shows: no reviews. */
export const NO_RATING: Readonly<RatingCounts & { average: number; count_total: number }> = Object.freeze({
  average: 0,
  count_total: 0,
  count_1: 0,
  count_2: 0,
  count_3: 0,
  count_4: 0,
  count_5: 0,
})

const { count_total: _, ...NO_STATISTICS } = NO_RATING

/** The statistics a brand (`shopKey` undefined) or shop without any shows: no reviews. */
export function emptyBrandRating(shopKey: string | undefined): BrandRating {
  return {
    shop_key: shopKey ?? '',
    website_id: '',
    count_total_since_creation: 0,
    oldest_review_publish_date: null,
    one_year: { ...NO_STATISTICS },
    five_year: { ...NO_STATISTICS },
  }
}
