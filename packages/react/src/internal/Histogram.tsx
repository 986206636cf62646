import type { RatingCounts, ReviewRate } from '@verified-reviews/core'
import type { Text } from './text.ts'
import { pageHref } from './url.ts'

const RATES: readonly ReviewRate[] = [5, 4, 3, 2, 1]

/** Number of reviews of one rate, 0 when the API left it out or sent nonsense. */
export function countOf(counts: RatingCounts, rate: ReviewRate): number {
  const value = counts[`count_${rate}`]
  return Number.isFinite(value) && value > 0 ? value : 0
}

/** Sum of the five per-rate counts. */
export function totalOf(counts: RatingCounts): number {
  return RATES.reduce((sum, rate) => sum + countOf(counts, rate), 0)
}

export interface HistogramProps {
  counts: RatingCounts
  text: Text
  rateHref?: ((rate: ReviewRate) => string) | undefined
  currentRate?: ReviewRate | undefined
}

/**
 * Rows 5 to 1 as a list: label (a filter link when `rateHref` is given), a bar drawn as an SVG
 * rectangle (no inline style, so a strict Content Security Policy holds), the count and the share.
 */
export function Histogram({ counts, text, rateHref, currentRate }: HistogramProps) {
  const total = totalOf(counts)
  return (
    <ul className="vr-histogram" aria-label={text.t('ratingDistribution')}>
      {RATES.map((rate) => {
        const count = countOf(counts, rate)
        const share = total > 0 ? count / total : 0
        const label = text.t('starCount', { count: rate })
        const href = rateHref ? pageHref(rateHref(rate)) : undefined
        return (
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
              <rect
                className="vr-histogram__fill"
                width={`${Math.round(share * 1000) / 10}%`}
                height="100%"
                fill="currentColor"
              />
            </svg>
            <span className="vr-histogram__count">{text.number(count)}</span>
            <span className="vr-histogram__percent">{text.percent(share)}</span>
          </li>
        )
      })}
    </ul>
  )
}
