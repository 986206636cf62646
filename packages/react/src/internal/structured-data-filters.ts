import type { StructuredDataFilter } from '@verified-reviews/core'

/**
 * The blocks of the structured-datas operation worth asking for: the AI summary only when
 * `reviewSummaryAuthor` opts in to marking it up.
 */
export function structuredDataFilters(reviewSummaryAuthor: string | undefined): StructuredDataFilter[] {
  return reviewSummaryAuthor === undefined
    ? ['aggregate_rating', 'reviews']
    : ['aggregate_rating', 'reviews', 'review_summary']
}
