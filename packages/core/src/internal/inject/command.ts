import { parseArgs } from 'node:util'
import { createClient } from '../../client.ts'
import type { ProductReview } from '../../types/published.ts'
import { environmentClientOptions } from '../default-client.ts'
import { readEnvironment } from '../environment.ts'
import { describeReviewsChoice } from '../prefetch/progress-log.ts'
import { createSqliteReviewStore } from '../sync/sqlite-store.ts'
import { type InjectReport, injectProductJsonLd } from './inject-directory.ts'
import { createProgressBar, type ProgressStream } from './progress-bar.ts'

/** Where the command reads its environment and writes its output. */
export interface CommandIo {
  stdout: ProgressStream
  stderr: ProgressStream
  env: Record<string, string | undefined>
}

export const USAGE = `Usage: verified-reviews inject <dir> [options]

Adds review rich snippets (one JSON-LD Product node per page) to every page of a folder of static HTML
that marks its product with <meta name="verified-reviews:product" content="SKU"> or a
data-verified-reviews-product="SKU" attribute (SKU-1,SKU-2 for the variations of a product group, whose
page has its own ProductGroup node).

Options:
  --site <url>         base URL of the site, for pages without <link rel="canonical">
  --max-reviews <n>    most reviews marked up per product, 0 for ratings only (default 5)
  --store <file>       SQLite file that keeps the reviews between runs (the sync of the account, or
                       the marked products' reviews, whichever costs fewer calls): later runs only
                       fetch new reviews, and the products marked since (default: none, every run
                       fetches every review, kept in a temporary file removed at the end); a JSON
                       store file of an earlier version there is imported once, in place
  --origin <url>       origin of the API (default VERIFIED_REVIEWS_ORIGIN, else production)
  --syndicated-reviews mark up syndicated reviews too (left out by default: collected on other sites)
  --review-summary-author <name>
                       mark up each product's AI summary as a review by this organization
                       (not marked up by default: it is no consumer's review)
  --dry-run            report what would change without writing files
  --json               print the report as JSON
  --quiet              no progress display
  -h, --help           this help

Credentials come from VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET.

Exit code: 0 done (pages skipped for what they hold are listed, and count as done), 1 the run failed
or a page failed (an error reading or writing it, listed as "failed <file>: reason"; the other pages
still got their markup), 2 wrong usage.
`

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`
}

/** The summary printed after a run. */
export function formatReport(report: InjectReport, dryRun: boolean): string {
  const { apiCalls } = report
  const lines = [
    `${plural(report.pages, 'page', 'pages')} read, ${report.markedPages} marked with a product`,
    `${plural(report.changedPages, 'page', 'pages')} ${dryRun ? 'would change' : 'changed'}, ` +
      `${report.unchangedPages} already up to date, ` +
      `${report.ownMarkupPages > 0 ? `${report.ownMarkupPages} with review markup of their own, ` : ''}` +
      `${report.pagesWithoutReviews} without reviews, ` +
      `${report.skippedPages.length} skipped` +
      `${report.failedPages.length > 0 ? `, ${report.failedPages.length} failed` : ''}`,
    `${plural(report.products, 'product', 'products')}`,
    `${plural(apiCalls.total, 'API call', 'API calls')} (${plural(apiCalls.reviews, 'review page', 'review pages')}, ` +
      `${plural(apiCalls.products, 'summary page', 'summary pages')})` +
      (report.fetch === undefined ? '' : `; ${describeReviewsChoice(report.fetch)}`),
  ]
  for (const page of report.skippedPages) lines.push(`skipped ${page.file}: ${page.reason}`)
  for (const page of report.failedPages) lines.push(`failed ${page.file}: ${page.reason}`)
  return `${lines.join('\n')}\n`
}

/**
 * Runs `verified-reviews <args>`; resolves to the exit code: 0 done (pages skipped for their content
 * included), 1 failed, or a page failed alone (an error reading, building or writing it, or its check
 * after writing) while the others got their markup, 2 wrong usage.
 */
export async function runCommand(args: readonly string[], io: CommandIo): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.help === true) {
    io.stdout.write(USAGE)
    return 0
  }
  const [command, dir, ...rest] = positionals
  if (command !== 'inject' || dir === undefined || rest.length > 0) {
    io.stderr.write(
      `${command === undefined || command === 'inject' ? 'inject needs one folder' : `unknown command ${JSON.stringify(command)}`}\n\n${USAGE}`,
    )
    return 2
  }
  const maxReviews = values['max-reviews'] === undefined ? 5 : Number(values['max-reviews'])
  if (!Number.isInteger(maxReviews) || maxReviews < 0) {
    io.stderr.write(`--max-reviews must be a whole number from 0, got ${values['max-reviews']}\n`)
    return 2
  }
  if (values.site !== undefined && !URL.canParse(values.site)) {
    io.stderr.write(`--site must be an absolute URL, got ${values.site}\n`)
    return 2
  }
  const summaryAuthor = values['review-summary-author']
  if (summaryAuthor !== undefined && summaryAuthor.trim() === '') {
    io.stderr.write('--review-summary-author must name the organization the AI summary is attributed to\n')
    return 2
  }
  const dryRun = values['dry-run'] === true
  const bar = values.quiet === true || values.json === true ? undefined : createProgressBar(io.stderr)
  const logger = { warn: (message: string) => io.stderr.write(`warning: ${message}\n`) }
  // Without --store, injectProductJsonLd syncs into a temporary SQLite store, removed at the end.
  try {
    const { clientId, clientSecret, origin } = environmentClientOptions(readEnvironment(io.env))
    const client = createClient({
      ...(clientId === undefined ? {} : { clientId }),
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(values.origin === undefined && origin === undefined ? {} : { origin: values.origin ?? origin }),
    })
    const report = await injectProductJsonLd({
      dir,
      client,
      maxReviews,
      dryRun,
      syndicatedReviews: values['syndicated-reviews'] === true,
      reviewSummaryAuthor: summaryAuthor,
      site: values.site,
      reviewStore:
        values.store === undefined ? undefined : createSqliteReviewStore<ProductReview>(values.store),
      onProgress: bar?.update,
      logger,
    })
    bar?.end()
    io.stdout.write(
      values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, dryRun),
    )
    return report.failedPages.length > 0 ? 1 : 0
  } catch (error) {
    bar?.end()
    io.stderr.write(`verified-reviews inject failed: ${(error as Error).message}\n`)
    return 1
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      site: { type: 'string' },
      'max-reviews': { type: 'string' },
      store: { type: 'string' },
      origin: { type: 'string' },
      'syndicated-reviews': { type: 'boolean' },
      'review-summary-author': { type: 'string' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
