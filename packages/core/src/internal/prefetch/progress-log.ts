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

/**
 * The closing line of a prefetch: what it holds, the calls it made and the fewest that could do. After
 * a full sync of a build that named no product, and when `namingHint` says where products are named, a
 * second sentence says what naming them would cost, with this build's figures (see {@link namingSaves}).
 */
export function describePrefetchReport(report: PrefetchReport, namingHint?: string): string {
  const calls = report.calls.reviews + report.calls.summaries
  const sync = describeReviewsChoice(report)
  const line =
    `build data ready: ${plural(report.reviews, 'review')} of ${plural(report.products, 'product')} (${sync}); ` +
    `${plural(calls, 'API call')} (${plural(report.calls.reviews, 'review page')}, ` +
    `${plural(report.calls.summaries, 'summary page')}), lower bound ${count.format(report.lowerBound)}`
  const saves = namingHint === undefined ? undefined : namingSaves(report)
  if (saves === undefined) return line
  return (
    `${line}. This build synced the whole account, as no product was named: naming the products the ` +
    `pages show (${namingHint}) fetches only theirs, ⌈their reviews / 200⌉ + ⌈their number / 200⌉ calls ` +
    `(with about ${count.format(saves.reviewsPerProduct)} reviews a product here, ` +
    `${plural(saves.named, 'named product')} would cost ${plural(saves.calls, 'call')} against this ` +
    `build's ${count.format(calls)})`
  )
}

/**
 * What naming products would cost instead of a full sync, with a report's figures: the calls for a tenth
 * of its products (their reviews at the account's average, 200 a call, and their summaries, 200 a call).
 * Undefined when the build named products, did not run a full sync, or naming a tenth would not save a call.
 */
function namingSaves(
  report: Pick<PrefetchReport, 'mode' | 'reviews' | 'products' | 'calls' | 'estimate'>,
): { named: number; reviewsPerProduct: number; calls: number } | undefined {
  if (report.mode !== 'full' || report.estimate.named !== undefined || report.products === 0) return undefined
  const named = Math.ceil(report.products / 10)
  const perProduct = report.reviews / report.products
  const calls = Math.max(1, Math.ceil((named * perProduct) / 200)) + Math.ceil(named / 200)
  if (calls >= report.calls.reviews + report.calls.summaries) return undefined
  return { named, reviewsPerProduct: Math.round(perProduct), calls }
}

/**
 * One line of progress: `reviews 40,000/100,000, 200 calls`; the closing line as
 * {@link describePrefetchReport} writes it, with `namingHint`.
 */
export function describePrefetchProgress(progress: PrefetchProgress, namingHint?: string): string {
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
      return describePrefetchReport(progress.report, namingHint)
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
  /**
   * Where the site names the products its pages show (`` `products` of withVerifiedReviews in
   * next.config ``): given, the closing line of a full sync of a build that named none says what naming
   * them would cost.
   */
  namingHint?: string
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
    write(describePrefetchProgress(progress, options.namingHint))
  }
}
