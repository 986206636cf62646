import type { ReviewRate } from '@verified-reviews/core'
import type { MouseEvent } from 'react'
import { REVIEW_SORTS, type ReviewSort, type ReviewView, sameRates } from './review-query.ts'
import type { Text } from './text.ts'

const SORT_LABELS = {
  newest: 'sortNewest',
  oldest: 'sortOldest',
  highest: 'sortHighestRating',
  lowest: 'sortLowestRating',
} as const satisfies Record<ReviewSort, string>

const RATE_CHOICES: ReadonlyArray<readonly ReviewRate[]> = [[], [5], [4], [3], [2], [1]]

/** Props of {@link ReviewControls}. */
export interface ReviewControlsProps {
  text: Text
  /** The order and rates shown now; their links are marked `aria-current`. */
  view: ReviewView
  /** The href of another view of the page (first page, so no cursor). */
  href: (view: ReviewView) => string
  /** Click on a link; the island takes over from the plain link here. */
  onChoose?: ((event: MouseEvent<HTMLAnchorElement>, view: ReviewView) => void) | undefined
}

function Choices(props: {
  block: 'sort' | 'filter'
  label: string
  options: Array<{ key: string; label: string; view: ReviewView; current: boolean }>
  href: ReviewControlsProps['href']
  onChoose: ReviewControlsProps['onChoose']
}) {
  const { block, label, options, href, onChoose } = props
  return (
    <nav className={`vr-review-controls__${block}`} aria-label={label}>
      <span className="vr-review-controls__label" aria-hidden="true">
        {label}
      </span>
      <ul className="vr-review-controls__options">
        {options.map((option) => (
          <li key={option.key}>
            <a
              className="vr-review-controls__option"
              href={href(option.view)}
              aria-current={option.current ? 'true' : undefined}
              onClick={onChoose && ((event) => onChoose(event, option.view))}
            >
              {option.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * Links that sort the reviews and filter them by rate, each to the first page of that view: plain
 * links without JavaScript, taken over by the island with it.
 *
 * Class names: `vr-review-controls`, `__sort`, `__filter`, `__label`, `__options`, `__option`.
 */
export function ReviewControls({ text, view, href, onChoose }: ReviewControlsProps) {
  return (
    <div className="vr-review-controls">
      <Choices
        block="sort"
        label={text.t('sortBy')}
        options={REVIEW_SORTS.map((sort) => ({
          key: sort,
          label: text.t(SORT_LABELS[sort]),
          view: { sort, rates: view.rates },
          current: sort === view.sort,
        }))}
        href={href}
        onChoose={onChoose}
      />
      <Choices
        block="filter"
        label={text.t('filterByRating')}
        options={RATE_CHOICES.map((rates) => ({
          key: rates.join(',') || 'all',
          label: rates[0] === undefined ? text.t('allRatings') : text.t('starCount', { count: rates[0] }),
          view: { sort: view.sort, rates },
          current: sameRates(rates, view.rates),
        }))}
        href={href}
        onChoose={onChoose}
      />
    </div>
  )
}
