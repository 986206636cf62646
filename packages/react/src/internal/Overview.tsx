import type { TextFormatter } from '@verified-reviews/core/i18n'
import { StarRating } from '../components/StarRating.tsx'

/**
 * Average as a number and as stars, then the review count. The number is hidden from assistive
 * technology because the stars' accessible name already says it.
 */
export function Overview(props: { block: string; average: number; count: number; text: TextFormatter }) {
  const { block, average, count, text } = props
  return (
    <div className={`${block}__overview`}>
      <span className={`${block}__average`} aria-hidden="true">
        {text.rating(average)}
      </span>
      <StarRating value={average} locale={text.locale} className={`${block}__stars`} />
      <span className={`${block}__count`}>{text.t('reviewCount', { count })}</span>
    </div>
  )
}
