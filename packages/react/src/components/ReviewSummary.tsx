import type { ReviewSummary as ReviewSummaryData } from '@verified-reviews/core'
import { getTextFormatter } from '@verified-reviews/core/i18n'
import type { HeadingLevel } from '@verified-reviews/core/internal'
import { Heading } from '../internal/Heading.tsx'
import { richMessage } from '../internal/rich.tsx'

/** Props of {@link ReviewSummary}. */
export interface ReviewSummaryProps {
  /** `ProductSummary.review_summary` (`GET /products`); nothing renders when it is absent or empty. */
  summary: ReviewSummaryData | undefined
  /**
   * Level of the heading ("Summary of customer reviews").
   * @default 2
   */
  headingLevel?: HeadingLevel
  /**
   * Language of the labels and the date, one of bg cs de el en es fr it nl pl pt sk tr; other
   * values are resolved to the closest supported language. The summary itself is shown as the API
   * wrote it.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-review-summary`. */
  className?: string
}

/**
 * The AI-generated summary of a product's reviews, labelled as AI-generated, with the date it
 * was last updated.
 *
 * Class names: `vr-review-summary`, `__heading`, `__label`, `__content`, `__updated`.
 */
export function ReviewSummary({ summary, headingLevel = 2, locale, className }: ReviewSummaryProps) {
  if (summary === undefined || typeof summary.content !== 'string' || summary.content.trim() === '')
    return null
  const text = getTextFormatter(locale)
  const updated = text.date(summary.last_updated_at)
  return (
    <section className={className ? `vr-review-summary ${className}` : 'vr-review-summary'}>
      <Heading level={headingLevel} className="vr-review-summary__heading">
        {text.t('aiSummary')}
      </Heading>
      <p className="vr-review-summary__label">{text.t('aiSummaryExplanation')}</p>
      <p className="vr-review-summary__content">{summary.content}</p>
      {updated !== undefined && (
        <p className="vr-review-summary__updated">
          {richMessage(text, 'updatedOn', {
            date: <time dateTime={summary.last_updated_at}>{updated}</time>,
          })}
        </p>
      )}
    </section>
  )
}
