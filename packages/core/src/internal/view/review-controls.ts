import type { ReviewRate } from '../../types/published.ts'
import { REVIEW_SORTS, type ReviewSort, type ReviewView, sameRates } from '../cursor/review-query.ts'
import type { TextFormatter } from '../i18n/text-formatter.ts'

const SORT_LABELS = {
  newest: 'sortNewest',
  oldest: 'sortOldest',
  highest: 'sortHighestRating',
  lowest: 'sortLowestRating',
} as const satisfies Record<ReviewSort, string>

const RATE_CHOICES: ReadonlyArray<readonly ReviewRate[]> = [[], [5], [4], [3], [2], [1]]

/** One link of the sort and rate controls. */
export interface ReviewControlOption {
  /** Stable among its group's options. */
  key: string
  label: string
  /** The view it leads to: the first page of that order and those rates. */
  view: ReviewView
  /** Whether it is the view shown now (`aria-current`). */
  current: boolean
}

/** The sort links or the rate links, under their label. */
export interface ReviewControlGroup {
  /** `vr-review-controls__sort` or `__filter`. */
  block: 'sort' | 'filter'
  label: string
  options: ReviewControlOption[]
}

/** The links that sort the reviews and filter them by rate, from the view shown now. */
export function reviewControls(view: ReviewView, text: TextFormatter): ReviewControlGroup[] {
  return [
    {
      block: 'sort',
      label: text.t('sortBy'),
      options: REVIEW_SORTS.map((sort) => ({
        key: sort,
        label: text.t(SORT_LABELS[sort]),
        view: { sort, rates: view.rates },
        current: sort === view.sort,
      })),
    },
    {
      block: 'filter',
      label: text.t('filterByRating'),
      options: RATE_CHOICES.map((rates) => ({
        key: rates.join(',') || 'all',
        label: rates[0] === undefined ? text.t('allRatings') : text.t('starCount', { count: rates[0] }),
        view: { sort: view.sort, rates },
        current: sameRates(rates, view.rates),
      })),
    },
  ]
}
