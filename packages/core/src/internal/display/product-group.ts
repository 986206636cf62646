import type {
  ProductSummary,
  ProductSummaryExtra,
  ProductSummaryRatings,
  RatingCounts,
} from '../../types/published.ts'
import { NO_RATING, HISTOGRAM_RATES as STARS } from './ratings.ts'

/** A rating of one variation: an average and a count, and the per-star counts when the API gave them. */
export type VariationRating = { average: number; count_total: number } & Partial<RatingCounts>

/** An average rounded to two decimals, as the API gives them. */
function roundedAverage(sum: number, count: number): number {
  return count === 0 ? 0 : Math.round((sum / count) * 100) / 100
}

/**
 * The rating of a product sold in several variations: every review of every variation counted once.
 * The average is computed from the per-star counts when every rating has them (as the API merges
 * variations), else weighted by each variation's count. Variations without a rating (or with no
 * review) add nothing; undefined when none has a review.
 */
export function combineRatings(
  ratings: readonly (VariationRating | undefined)[],
): ProductSummaryRatings | undefined {
  const rated = ratings.filter(
    (rating): rating is VariationRating => rating !== undefined && rating.count_total > 0,
  )
  if (rated.length === 0) return undefined
  const total = rated.reduce((sum, rating) => sum + rating.count_total, 0)
  const counts: RatingCounts = { count_5: 0, count_4: 0, count_3: 0, count_2: 0, count_1: 0 }
  const withCounts = rated.every((rating) =>
    STARS.every((star) => typeof rating[`count_${star}`] === 'number'),
  )
  for (const rating of rated) {
    for (const star of STARS) counts[`count_${star}`] += rating[`count_${star}`] ?? 0
  }
  const sum = withCounts
    ? STARS.reduce((acc, star) => acc + star * counts[`count_${star}`], 0)
    : rated.reduce((acc, rating) => acc + rating.average * rating.count_total, 0)
  return { average: roundedAverage(sum, total), count_total: total, ...counts }
}

/** The criteria of several variations, each averaged over every variation's answers, in first-seen order. */
function combineExtras(lists: readonly (readonly ProductSummaryExtra[])[]): ProductSummaryExtra[] {
  const byLabel = new Map<string, { extra: ProductSummaryExtra; sum: number; count: number }>()
  for (const extras of lists) {
    for (const extra of extras) {
      const found = byLabel.get(extra.label) ?? { extra, sum: 0, count: 0 }
      found.sum += extra.rate.average * extra.rate.count
      found.count += extra.rate.count
      byLabel.set(extra.label, found)
    }
  }
  return [...byLabel.values()].map(({ extra, sum, count }) => ({
    ...extra,
    rate: { average: roundedAverage(sum, count), count },
  }))
}

/** What the review components show of a product's summary. */
export type ProductSummaryView = Pick<ProductSummary, 'ratings' | 'review_summary' | 'extras'>

/**
 * The summary of a product sold in several variations (`summaries` in the order of the group's ids):
 * their ratings and criteria combined, and the AI summary of the first variation that has one, as the
 * structured-datas operation merges variations. Undefined when the API knows none of them.
 */
export function combineProductSummaries(
  summaries: readonly (ProductSummaryView | undefined)[],
): ProductSummaryView | undefined {
  const known = summaries.filter((summary): summary is ProductSummaryView => summary !== undefined)
  if (known.length === 0) return undefined
  if (known.length === 1) return known[0]
  const reviewSummary = known.find((summary) => summary.review_summary !== undefined)?.review_summary
  return {
    ratings: combineRatings(known.map((summary) => summary.ratings)) ?? { ...NO_RATING },
    ...(reviewSummary === undefined ? {} : { review_summary: reviewSummary }),
    extras: combineExtras(known.map((summary) => summary.extras)),
  }
}

/**
 * The newest `limit` reviews of several variations together ({@link newestFirst}), and whether more
 * follow: a first page, from every review of each.
 */
export function newestOf<Review extends { publish_date: string }>(
  lists: readonly (readonly Review[])[],
  limit: number,
): { data: Review[]; more: boolean } {
  const all = newestFirst(lists)
  return { data: all.slice(0, limit), more: all.length > limit }
}

/** Reviews of several variations as one list, newest published first (each list already is). */
export function newestFirst<Review extends { publish_date: string }>(
  lists: readonly (readonly Review[])[],
): Review[] {
  const time = (review: Review) => {
    const value = Date.parse(review.publish_date)
    return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value
  }
  return lists.flat().sort((a, b) => {
    const [timeA, timeB] = [time(a), time(b)]
    return timeA === timeB ? 0 : timeA < timeB ? 1 : -1
  })
}

/** The ids of a product or a group of variations, as a list; each id once, in the order given. */
export function variationIds(productId: string | readonly string[]): string[] {
  return [...new Set(typeof productId === 'string' ? [productId] : productId)]
}
