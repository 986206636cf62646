import type { PrefetchProgress, PrefetchReport } from './build-data.ts'

const count = new Intl.NumberFormat('en-US')

function plural(n: number, word: string): string {
  return `${count.format(n)} ${word}${n === 1 ? '' : 's'}`
}

/** How the reviews were fetched: `full sync`, `incremental sync, 3 new reviews`, `reviews of 2 named products`. */
export function describeReviewsChoice(
  report: Pick<PrefetchReport, 'mode' | 'newReviews' | 'products'>,
): string {
  switch (report.mode) {
    case 'full':
      return 'full sync'
    case 'incremental':
      return `incremental sync, ${plural(report.newReviews, 'new review')}`
    case 'named':
      return `reviews of ${plural(report.products, 'named product')}`
  }
}

/** The closing line of a prefetch: what it holds, the calls it made and the fewest that could do. */
export function describePrefetchReport(report: PrefetchReport): string {
  const calls = report.calls.reviews + report.calls.summaries
  const sync = describeReviewsChoice(report)
  return (
    `build data ready: ${plural(report.reviews, 'review')} of ${plural(report.products, 'product')} (${sync}); ` +
    `${plural(calls, 'API call')} (${plural(report.calls.reviews, 'review page')}, ` +
    `${plural(report.calls.summaries, 'summary page')}), lower bound ${count.format(report.lowerBound)}`
  )
}

/** One line of progress: `reviews 40,000/100,000, 200 calls`. */
export function describePrefetchProgress(progress: PrefetchProgress): string {
  switch (progress.phase) {
    case 'waiting':
      return progress.waitedMs === 0
        ? `waiting for the build data that ${progress.holder} is fetching`
        : `still waiting for the build data that ${progress.holder} is fetching (${Math.round(progress.waitedMs / 1000)} s)`
    case 'summaries':
      return `product summaries ${count.format(progress.products)}, ${plural(progress.calls, 'call')}`
    case 'reviews':
      return `reviews ${count.format(progress.reviews)}${progress.expected === undefined ? '' : `/${count.format(progress.expected)}`}, ${plural(progress.calls, 'call')}`
    case 'done':
      return describePrefetchReport(progress.report)
  }
}

/** Options of {@link prefetchProgressLog}. */
export interface PrefetchProgressLogOptions {
  /**
   * Milliseconds at least between two lines of progress of one phase; the first page, each quarter of
   * the expected reviews, every wait report and the closing line are written whatever the time.
   * @default 10_000
   */
  interval?: number
}

/**
 * An `onProgress` for `prefetchBuildData` that writes lines a build log can show: the first page of
 * each phase, a line per quarter of the expected reviews (and at most every `interval` between them),
 * what a waiting process waits for, and the closing report with the calls against the lower bound.
 *
 * @example
 * prefetchBuildData({ client, directory, onProgress: prefetchProgressLog((line) => console.log(line)) })
 */
export function prefetchProgressLog(
  write: (line: string) => void,
  options: PrefetchProgressLogOptions = {},
): (progress: PrefetchProgress) => void {
  const interval = options.interval ?? 10_000
  let last = 0
  let quarter = -1
  return (progress) => {
    const now = Date.now()
    let due = progress.phase === 'waiting' || progress.phase === 'done' || progress.calls === 1
    if (progress.phase === 'reviews' && progress.expected !== undefined && progress.expected > 0) {
      const reached = Math.floor((4 * progress.reviews) / progress.expected)
      if (reached > quarter) {
        quarter = reached
        due = true
      }
    }
    if (!due && now - last < interval) return
    last = now
    write(describePrefetchProgress(progress))
  }
}
