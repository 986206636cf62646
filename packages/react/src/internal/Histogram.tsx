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
 * Rows 5 to 1 as a list: label (a filter link when `rateHref` is given), a bar drawn as an SVG
 * rectangle (no inline style, so a strict Content Security Policy holds), the count and the share.
 */
export function Histogram({ counts, text, rateHref, currentRate }: HistogramProps) {
  return (
    <ul className="vr-histogram" aria-label={text.t('ratingDistribution')}>
      {histogramRows(counts, text, rateHref).map(({ rate, count, share, label, width, href }) => (
        <li key={rate} className="vr-histogram__row" data-rate={rate}>
          {href !== undefined && count > 0 ? (
            <a
              className="vr-histogram__label"
              href={href}
              aria-current={currentRate === rate ? 'true' : undefined}
            >
              {label}
            </a>
          ) : (
            <span className="vr-histogram__label">{label}</span>
          )}
          <svg className="vr-histogram__bar" width="100%" height="8" aria-hidden="true" focusable="false">
            <rect
              className="vr-histogram__track"
              width="100%"
              height="100%"
              fill="currentColor"
              fillOpacity="0.15"
            />
            <rect className="vr-histogram__fill" width={width} height="100%" fill="currentColor" />
          </svg>
          <span className="vr-histogram__count">{text.number(count)}</span>
          <span className="vr-histogram__percent">{text.percent(share)}</span>
        </li>
      ))}
    </ul>
  )
}
