import type { RatingCounts, ReviewRate } from '@verified-reviews/core'
import type { TextFormatter } from '@verified-reviews/core/i18n'
import { histogramRows } from '@verified-reviews/core/internal'

export interface HistogramProps {
  counts: RatingCounts
  text: TextFormatter
  rateHref?: ((rate: ReviewRate) => string) | undefined
  currentRate?: ReviewRate | undefined
}

/**
 * Rows 5 to 1 as a list, each `<li data-rate>` holding its label (a filter link when `rateHref` is
 * given), its bar as a `<meter>` (drawn without inline style, so a strict Content Security Policy
 * holds; hidden from assistive technology, which reads the share), the count and the share.
 */
export function Histogram({ counts, text, rateHref, currentRate }: HistogramProps) {
  return (
    <ul className="vr-histogram" aria-label={text.t('ratingDistribution')}>
      {histogramRows(counts, text, rateHref).map(({ rate, count, share, label, bar, href }) => (
        <li key={rate} data-rate={rate}>
          {href !== undefined && count > 0 ? (
            <a href={href} aria-current={currentRate === rate ? 'true' : undefined}>
              {label}
            </a>
          ) : (
            <span>{label}</span>
          )}
          <meter value={bar} aria-hidden="true" />
          <span>{text.number(count)}</span>
          <span>{text.percent(share)}</span>
        </li>
      ))}
    </ul>
  )
}
