import { getTextFormatter } from '@verified-reviews/core/i18n'
import { classNames, countOrZero } from '@verified-reviews/core/internal'
import { Stars } from '../internal/Stars.tsx'

/** Props of {@link RatingBadge}. */
export interface RatingBadgeProps {
  /**
   * The product's average and review count: a `ProductRating` (`GET /products/ratings`) or
   * `ProductSummary.ratings` fits as it is. `undefined` or `null` for a product without reviews.
   */
  rating: { average: number; count_total: number } | null | undefined
  /**
   * Language of every text, one of bg cs de el en es fr it nl pl pt sk tr; other values are
   * resolved to the closest supported language.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-rating-badge`. */
  className?: string
}

/**
 * A product's rating in one line, for product cards and listing pages: stars, the average and the
 * review count. A product without reviews shows a neutral "No reviews yet" (hide
 * `.vr-rating-badge--empty` to show nothing instead). Its stars are `1em` high: the badge's font size
 * sizes them.
 *
 * Class names: `vr-rating-badge` (`--empty` without reviews), `__stars`, `__average`, `__count`, `__empty`.
 */
export function RatingBadge({ rating, locale, className }: RatingBadgeProps) {
  const text = getTextFormatter(locale)
  const count = countOrZero(rating?.count_total)
  if (rating === null || rating === undefined || count === 0) {
    return (
      <span className={classNames('vr-rating-badge', 'vr-rating-badge--empty', className)}>
        <span className="vr-rating-badge__empty">{text.t('noReviews')}</span>
      </span>
    )
  }
  const average = Number.isFinite(rating.average) ? Math.min(5, Math.max(0, rating.average)) : 0
  return (
    <span className={className ? `vr-rating-badge ${className}` : 'vr-rating-badge'}>
      <Stars value={average} count={count} text={text} className="vr-rating-badge__stars" />
      {/* The stars' accessible name already says both figures. */}
      <span className="vr-rating-badge__average" aria-hidden="true">
        {text.rating(average)}
      </span>
      <span className="vr-rating-badge__count" aria-hidden="true">
        {text.t('reviewCount', { count })}
      </span>
    </span>
  )
}
