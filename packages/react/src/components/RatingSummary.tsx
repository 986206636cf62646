import type {
  ProductRatingExtra,
  ProductSummaryExtra,
  RatingCounts,
  ReviewRate,
} from '@verified-reviews/core'
import { getTextFormatter } from '@verified-reviews/core/i18n'
import {
  classNames,
  countOrZero,
  type HeadingLevel,
  ratingCriteria,
  subLevel,
} from '@verified-reviews/core/internal'
import { Fragment } from 'react'
import { Heading } from '../internal/Heading.tsx'
import { Histogram } from '../internal/Histogram.tsx'
import { Overview } from '../internal/Overview.tsx'
import { StarRating } from './StarRating.tsx'

/**
 * The aggregate a {@link RatingSummary} shows: `ProductSummary.ratings` (`GET /products`) or a
 * `ProductRating` (`GET /products/ratings`) fits as it is.
 */
export interface RatingSummaryData extends RatingCounts {
  average: number
  count_total: number
}

/** Props of {@link RatingSummary}. */
export interface RatingSummaryProps {
  /** Average, total and per-rate counts. */
  rating: RatingSummaryData
  /**
   * Quality criteria: `ProductSummary.extras` or `ProductRating.extras`. Each is shown with its
   * average as small stars.
   */
  criteria?: ReadonlyArray<ProductSummaryExtra | ProductRatingExtra>
  /**
   * Builds the href of a link that shows only the reviews of one rate, typically from the page's
   * own URL and search params (`(rate) => '?rate=' + rate`). Without it the histogram has no links.
   * Only relative and `http(s)` hrefs are used.
   */
  rateHref?: (rate: ReviewRate) => string
  /** The rate the page currently filters by; its link is marked `aria-current`. */
  currentRate?: ReviewRate
  /**
   * Level of the heading ("Customer reviews"); the criteria heading is one level below.
   * @default 2
   */
  headingLevel?: HeadingLevel
  /**
   * Language of every text, one of bg cs de el en es fr it nl pl pt sk tr; other values are
   * resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-rating-summary`. */
  className?: string
}

/**
 * Average rating, review count and a histogram from 5 to 1 star, with optional links that
 * filter the reviews by rate. With no reviews it shows a neutral "No reviews yet".
 *
 * Class names: `vr-rating-summary` (`--empty` without reviews), `__heading`, `__overview`,
 * `__average`, `__stars`, `__count`, `__empty`, `__criteria-heading`, `__criteria` (a `<dl>` of `<dt>`
 * and `<dd>`); the histogram: `vr-histogram`, a `<li data-rate>` a row holding the label (`<span>`, or
 * `<a>` with `aria-current` when filtering), the bar (`<meter>`), the count and the share (`<span>`s).
 */
export function RatingSummary({
  rating,
  criteria,
  rateHref,
  currentRate,
  headingLevel = 2,
  locale,
  className,
}: RatingSummaryProps) {
  const text = getTextFormatter(locale)
  const total = countOrZero(rating.count_total)
  const classes = classNames('vr-rating-summary', total === 0 && 'vr-rating-summary--empty', className)
  const heading = (
    <Heading level={headingLevel} className="vr-rating-summary__heading">
      {text.t('customerReviews')}
    </Heading>
  )
  if (total === 0) {
    return (
      <section className={classes}>
        {heading}
        <p className="vr-rating-summary__empty">{text.t('noReviews')}</p>
      </section>
    )
  }
  const shown = ratingCriteria(criteria)
  return (
    <section className={classes}>
      {heading}
      <Overview block="vr-rating-summary" average={rating.average} count={total} text={text} />
      <Histogram counts={rating} text={text} rateHref={rateHref} currentRate={currentRate} />
      {shown.length > 0 && (
        <>
          <Heading level={subLevel(headingLevel)} className="vr-rating-summary__criteria-heading">
            {text.t('ratingDetails')}
          </Heading>
          <dl className="vr-rating-summary__criteria">
            {shown.map((criterion, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: criteria come in the API's order and carry no id
              <Fragment key={i}>
                <dt>{criterion.name}</dt>
                <dd>
                  <StarRating value={criterion.average} count={criterion.count} locale={text.locale} />
                </dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
    </section>
  )
}
