import type { BrandRating } from '@verified-reviews/core'
import { Heading, type HeadingLevel, subLevel } from './Heading.tsx'
import { Histogram, totalOf } from './Histogram.tsx'
import { Overview } from './Overview.tsx'
import { richMessage } from './rich.tsx'
import type { Text } from './text.ts'

/**
 * The body shared by `BrandRating` and `ShopRating`: the heading, the total since the first
 * review, then the one-year and five-year statistics, each with its overview and histogram.
 */
export function RatingPeriods(props: {
  block: string
  heading: string
  rating: BrandRating
  headingLevel: HeadingLevel
  text: Text
  className: string | undefined
}) {
  const { block, heading, rating, headingLevel, text, className } = props
  const total = Number.isFinite(rating.count_total_since_creation)
    ? Math.max(0, rating.count_total_since_creation)
    : 0
  const oldest = rating.oldest_review_publish_date ?? undefined
  const since = text.date(oldest)
  const periods = [
    { key: 'one-year', label: text.t('lastTwelveMonths'), stats: rating.one_year },
    { key: 'five-year', label: text.t('lastFiveYears'), stats: rating.five_year },
  ] as const
  const classes = [block, total === 0 && `${block}--empty`, className].filter(Boolean).join(' ')
  return (
    <section className={classes}>
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
            {periods.map(({ key, label, stats }) => {
              const count = stats ? totalOf(stats) : 0
              return (
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
              )
            })}
          </div>
        </>
      )}
    </section>
  )
}
