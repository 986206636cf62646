import type { BrandRating } from '@verified-reviews/core'
import type { TextFormatter } from '@verified-reviews/core/i18n'
import {
  classNames,
  countOrZero,
  type HeadingLevel,
  ratingPeriods,
  subLevel,
} from '@verified-reviews/core/internal'
import { Heading } from './Heading.tsx'
import { Histogram } from './Histogram.tsx'
import { Overview } from './Overview.tsx'
import { richMessage } from './rich.tsx'

/**
 * The body shared by `BrandRating` and `ShopRating`: the heading, the total since the first
 * review, then the one-year and five-year statistics, each with its overview and histogram.
 */
export function RatingPeriods(props: {
  block: string
  heading: string
  rating: BrandRating
  headingLevel: HeadingLevel
  text: TextFormatter
  className: string | undefined
}) {
  const { block, heading, rating, headingLevel, text, className } = props
  const total = countOrZero(rating.count_total_since_creation)
  const oldest = rating.oldest_review_publish_date ?? undefined
  const since = text.date(oldest)
  return (
    <section className={classNames(block, total === 0 && `${block}--empty`, className)}>
      <Heading level={headingLevel} className={`${block}__heading`}>
        {heading}
      </Heading>
      {total === 0 ? (
        <p className={`${block}__empty`}>{text.t('noReviews')}</p>
      ) : (
        <>
          <p className={`${block}__total`}>
            {since === undefined
              ? text.t('reviewCount', { count: total })
              : richMessage(
                  text,
                  'reviewsSince',
                  { date: <time dateTime={oldest}>{since}</time> },
                  { count: total },
                )}
          </p>
          <div className={`${block}__periods`}>
            {ratingPeriods(rating, text).map(({ key, label, stats, count }) => (
              <section key={key} className={`vr-rating-period vr-rating-period--${key}`}>
                <Heading level={subLevel(headingLevel)} className="vr-rating-period__heading">
                  {label}
                </Heading>
                {stats && count > 0 ? (
                  <>
                    <Overview block="vr-rating-period" average={stats.average} count={count} text={text} />
                    <Histogram counts={stats} text={text} />
                  </>
                ) : (
                  <p className="vr-rating-period__empty">{text.t('noReviewsInPeriod')}</p>
                )}
              </section>
            ))}
          </div>
        </>
      )}
    </section>
  )
}
