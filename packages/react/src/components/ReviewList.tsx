import { getTextFormatter } from '@verified-reviews/core/i18n'
import type { ReviewData } from '@verified-reviews/core/internal'
import {
  classNames,
  DEFAULT_MEDIA_WIDTHS,
  type HeadingLevel,
  type MediaWidths,
  REVIEWS_PROVIDER,
  subLevel,
} from '@verified-reviews/core/internal'
import type { ReactElement, ReactNode } from 'react'
import { Heading } from '../internal/Heading.tsx'
import { reviewListItems } from '../internal/Review.tsx'
import { ReviewPager } from '../internal/ReviewPager.tsx'

/** Props of {@link ReviewList}. */
export interface ReviewListProps {
  /** Reviews in display order, as the API sends them. */
  reviews: ReadonlyArray<ReviewData>
  /**
   * Href of the previous page of reviews (for example the page's URL with the previous cursor).
   * Only relative and `http(s)` hrefs are used.
   */
  previousHref?: string
  /**
   * Href of the next page of reviews (for example the page's URL with the next cursor). Only
   * relative and `http(s)` hrefs are used.
   */
  nextHref?: string
  /**
   * Level of the list heading ("Reviews"); each review's author heading is one level below.
   * @default 2
   */
  headingLevel?: HeadingLevel
  /**
   * Widths of the image variants, for `srcset`.
   * @default { small: 200, medium: 600, large: 1200 }
   */
  mediaWidths?: MediaWidths
  /**
   * Language of every text and date, one of bg cs de el en es fr it nl pl pt sk tr; other values
   * are resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-review-list`. */
  className?: string
  /**
   * Shows the reviews through another component: called with the `<li>` of each review, it returns
   * what takes the place of the list, the empty state and the page links, which it then owns.
   * `ProductReviews` passes the sort and rate links and the "More reviews" island this way.
   */
  moreReviews?: (items: ReactElement[]) => ReactNode
}

/**
 * A heading, how reviews are checked (one click away, as EU consumer law asks traders to say), the
 * reviews as an ordered list of {@link ReviewItem}, and links to the previous and next pages when
 * their hrefs are given. With no reviews it shows a neutral "No reviews yet".
 *
 * Class names: `vr-review-list` (`--empty` without reviews), `__heading`, `__checks`,
 * `__checks-explanation`, `__items` (whose `<li>` each hold a review), `__empty`, `__pagination`,
 * `__previous`, `__next`.
 */
export function ReviewList({
  reviews,
  previousHref,
  nextHref,
  headingLevel = 2,
  mediaWidths = DEFAULT_MEDIA_WIDTHS,
  locale,
  className,
  moreReviews,
}: ReviewListProps) {
  const text = getTextFormatter(locale)
  const empty = reviews.length === 0
  const items = reviewListItems(reviews, { text, headingLevel: subLevel(headingLevel), mediaWidths })
  return (
    <section className={classNames('vr-review-list', empty && 'vr-review-list--empty', className)}>
      <Heading level={headingLevel} className="vr-review-list__heading">
        {text.t('reviews')}
      </Heading>
      <details className="vr-review-list__checks">
        <summary>{text.t('howReviewsAreChecked')}</summary>
        <p className="vr-review-list__checks-explanation">
          {text.t('reviewsCheckedExplanation', { provider: REVIEWS_PROVIDER })}
        </p>
      </details>
      {moreReviews ? (
        moreReviews(items)
      ) : (
        <ReviewPager text={text} items={items} previousHref={previousHref} nextHref={nextHref} />
      )}
    </section>
  )
}
