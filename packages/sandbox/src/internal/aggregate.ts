import type { BrandReview, ProductReview } from './types.ts'

/**
 * Aggregates computed from the review records on every request, so that every view (Published,
 * legacy, Genesis, structured data) agrees with the reviews it summarizes.
 */

export interface RatingCounts {
  count_5: number
  count_4: number
  count_3: number
  count_2: number
  count_1: number
}

export interface Ratings extends RatingCounts {
  average: number
  count_total: number
}

/** An average rounded to two decimals; 0 when there is nothing to average. */
export function roundedAverage(sum: number, count: number): number {
  return count === 0 ? 0 : Math.round((sum / count) * 100) / 100
}

export function ratingsOf(reviews: readonly { review_rate: number }[]): Ratings {
  const counts = [0, 0, 0, 0, 0, 0]
  let sum = 0
  for (const r of reviews) {
    counts[r.review_rate] = (counts[r.review_rate] as number) + 1
    sum += r.review_rate
  }
  return {
    average: roundedAverage(sum, reviews.length),
    count_total: reviews.length,
    count_5: counts[5] as number,
    count_4: counts[4] as number,
    count_3: counts[3] as number,
    count_2: counts[2] as number,
    count_1: counts[1] as number,
  }
}

export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const key = keyOf(item)
    const group = groups.get(key)
    if (group) group.push(item)
    else groups.set(key, [item])
  }
  return groups
}

export interface Criterion {
  code: string
  display_name: string
  label: string
  average: number
  count: number
}

/** The numeric (I1) criteria of some reviews, averaged, in criterion code order. */
export function criteriaOf(reviews: readonly ProductReview[]): Criterion[] {
  const totals = new Map<string, { display_name: string; label: string; sum: number; count: number }>()
  for (const review of reviews) {
    for (const [code, extra] of Object.entries(review.extras)) {
      if (extra.type !== 'I1') continue
      const total = totals.get(code) ?? {
        display_name: extra.display_name,
        label: extra.label,
        sum: 0,
        count: 0,
      }
      total.sum += extra.value
      total.count++
      totals.set(code, total)
    }
  }
  return [...totals]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, t]) => ({
      code,
      display_name: t.display_name,
      label: t.label,
      average: roundedAverage(t.sum, t.count),
      count: t.count,
    }))
}

export interface PeriodStats extends RatingCounts {
  average: number
}

export interface BrandStats {
  shop_key: string
  website_id: string
  count_total_since_creation: number
  oldest_review_publish_date: string | null
  one_year: PeriodStats
  five_year: PeriodStats
}

function periodStats(reviews: readonly BrandReview[], since: number): PeriodStats {
  const { average, count_5, count_4, count_3, count_2, count_1 } = ratingsOf(
    reviews.filter((r) => Date.parse(r.publish_date) > since),
  )
  return { average, count_5, count_4, count_3, count_2, count_1 }
}

function yearsBefore(ms: number, years: number): number {
  const date = new Date(ms)
  date.setUTCFullYear(date.getUTCFullYear() - years)
  return date.getTime()
}

/**
 * The time `one_year` and `five_year` count back from: the latest brand review publication, so
 * that the statistics of seeded data do not change with the wall clock.
 */
export function brandReferenceTime(reviews: readonly BrandReview[], now: number): number {
  let latest = Number.NEGATIVE_INFINITY
  for (const r of reviews) latest = Math.max(latest, Date.parse(r.publish_date))
  return Number.isFinite(latest) ? latest : now
}

/** Statistics of a set of brand reviews: the brand's (every review) or one shop's. */
export function brandStatsOf(
  shopKey: string,
  websiteId: string,
  reviews: readonly BrandReview[],
  reference: number,
): BrandStats {
  let oldest: string | null = null
  for (const r of reviews) if (oldest === null || r.publish_date < oldest) oldest = r.publish_date
  return {
    shop_key: shopKey,
    website_id: websiteId,
    count_total_since_creation: reviews.length,
    oldest_review_publish_date: oldest,
    one_year: periodStats(reviews, yearsBefore(reference, 1)),
    five_year: periodStats(reviews, yearsBefore(reference, 5)),
  }
}
