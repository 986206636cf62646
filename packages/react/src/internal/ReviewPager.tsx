import type { TextFormatter } from '@verified-reviews/core/i18n'
import { pageHref } from '@verified-reviews/core/internal'
import type { MouseEvent, ReactElement } from 'react'

/** Props of {@link ReviewPager}. */
export interface ReviewPagerProps {
  text: TextFormatter
  /** The `<li>` of each review shown. */
  items: ReactElement[]
  /** Whether a rate filter is on, which the empty state then says. */
  filtered?: boolean
  /** Whether the island is fetching: it then says so in a live region instead of showing an empty list. */
  loading?: boolean
  /** Whether to render the live region the island speaks through. */
  live?: boolean
  previousHref?: string | undefined
  nextHref?: string | undefined
  /** What the next link says: `next` for the next page, `more` where the island appends it. */
  nextLabel?: 'next' | 'more'
  /** Click on the next link; the island takes over from the plain link here. */
  onNext?: ((event: MouseEvent<HTMLAnchorElement>) => void) | undefined
}

/**
 * The ordered list of reviews (or the empty state), the island's live region, then the links to the
 * previous and next pages: one markup for `ReviewList`, the server's sort and rate links, and the island.
 */
export function ReviewPager(props: ReviewPagerProps) {
  const { text, items, filtered = false, loading = false, live = false, nextLabel = 'next', onNext } = props
  const previous = pageHref(props.previousHref)
  const next = pageHref(props.nextHref)
  return (
    <>
      {items.length > 0 ? (
        <ol className="vr-review-list__items">{items}</ol>
      ) : (
        !loading && (
          <p className="vr-review-list__empty">{text.t(filtered ? 'noReviewsForFilter' : 'noReviews')}</p>
        )
      )}
      {live && (
        <p className="vr-review-list__status" role="status">
          {loading ? text.t('loadingReviews') : null}
        </p>
      )}
      {(previous !== undefined || next !== undefined) && (
        <nav className="vr-review-list__pagination" aria-label={text.t('reviewPages')}>
          {previous !== undefined && (
            <a className="vr-review-list__previous" href={previous} rel="prev">
              {text.t('previousPage')}
            </a>
          )}
          {next !== undefined && (
            <a
              className={
                nextLabel === 'more' ? 'vr-review-list__next vr-review-list__more' : 'vr-review-list__next'
              }
              href={next}
              rel="next"
              onClick={onNext}
            >
              {text.t(nextLabel === 'more' ? 'moreReviews' : 'nextPage')}
            </a>
          )}
        </nav>
      )}
    </>
  )
}
