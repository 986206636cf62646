import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { type ClientOptions, createClient, type ProductReview, readEnvironment } from '@verified-reviews/core'
import { describeReviewsChoice } from '@verified-reviews/core/internal'
import { buildProblemOf } from '@verified-reviews/core/prefetch'
import { createSqliteReviewStore } from '@verified-reviews/core/sync'
import { ENV_FILES, readEnvFiles } from './env-files.ts'
import { type InjectReport, injectProductJsonLd } from './inject-directory.ts'
import { DEFAULT_MAX_PAGE_BYTES, formatBytes, parseByteSize } from './page-size.ts'
import { createProgressBar, type ProgressStream } from './progress-bar.ts'

/** Where the command reads its environment and writes its output. */
export interface CommandIo {
  stdout: ProgressStream
  stderr: ProgressStream
  /** The process environment, which wins over the `.env` files. */
  env: Record<string, string | undefined>
  /**
   * The folder the command runs in, whose `.env` files it reads (relative paths of the arguments are
   * resolved against it too).
   * @default process.cwd()
   */
  cwd?: string
}

export const USAGE = `Usage: verified-reviews inject <dir> [options]

Adds review rich snippets (one JSON-LD Product node per page) to every page of a folder of static HTML
that marks its product with <meta name="verified-reviews:product" content="SKU"> or a
data-verified-reviews-product="SKU" attribute (SKU-1,SKU-2 for the variations of a product group, whose
page has its own ProductGroup node).

Options:
  --site <url>         base URL of the site, for pages without <link rel="canonical">: a page's @id
                       is its URL there (products/SKU-005.html: <url>/products/SKU-005.html,
                       shoes/index.html: <url>/shoes/)
  --clean-urls         the site serves its pages without .html (products/SKU-005.html at
                       <url>/products/SKU-005): the @id of a page drops its .html too
  --max-reviews <n>    most reviews marked up per product, 0 for ratings only (default 5)
  --store <file>       SQLite file that keeps the reviews between runs (the sync of the account, or
                       the marked products' reviews, whichever costs fewer calls), such as
                       .cache/verified-reviews.sqlite: later runs only fetch new reviews, and the
                       products marked since (default: none, every run fetches every review, kept in
                       a temporary file removed at the end); a JSON store file of an earlier version
                       there is imported once, in place
  --origin <url>       origin of the API (default VERIFIED_REVIEWS_ORIGIN, else production)
  --syndicated-reviews mark up syndicated reviews too (left out by default: collected on other sites)
  --review-summary-author <name>
                       mark up each product's AI summary as a review by this organization
                       (not marked up by default: it is no consumer's review)
  --max-page-size <size>
                       skip, unread, a page bigger than this: bytes, or with kB, MB or GB (decimal;
                       default ${formatBytes(DEFAULT_MAX_PAGE_BYTES)}); a page takes several times its size in memory
  --concurrency <n>    marked pages rewritten at once (default 8)
  --strict             a page skipped fails the run (exit code 1), as a page that failed does
  --dry-run            report what would change without writing files
  --json               print the report as JSON
  --quiet              no progress display
  -h, --help           this help

Credentials come from VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET (and the API's
origin from VERIFIED_REVIEWS_ORIGIN): the environment, or the ${ENV_FILES.join(', ')} files
of the folder the command runs in, as Next.js reads them (the first listed wins, the environment over
them all; no $VARIABLE expansion).

A page that marks no product is left alone and not listed. A marked page is skipped (left byte for
byte as it was, listed as "skipped <file>: reason") for what it holds: an encoding other than UTF-8,
JSON-LD that does not parse or nests too deep, several products or Product nodes, no place in its
head for a script, markup the parser gives up on; a page over --max-page-size is skipped unread. A
page fails (listed as "failed <file>: reason") when the file system fails it: it cannot be read or
written, or it does not hold the markup when read back.

Exit code: 0 done (pages skipped are listed, and count as done), 1 the run failed (the credentials
refused, the API out of reach…) or a page failed (the other pages still got their markup), or, with
--strict, a page was skipped, 2 wrong usage.
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

/** A whole number from `min`, as an option writes it, or undefined. */
function wholeNumber(text: string | undefined, fallback: number, min: number): number | undefined {
  if (text === undefined) return fallback
  const value = Number(text)
  return /^\s*\d+\s*$/.test(text) && Number.isSafeInteger(value) && value >= min ? value : undefined
}

/**
 * Runs `verified-reviews <args>`; resolves to the exit code: 0 done (pages skipped for their content
 * included), 1 failed, or a page failed alone (an error reading, building or writing it, or its check
 * after writing) while the others got their markup, or with `--strict` a page was skipped, 2 wrong usage.
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
  const maxReviews = wholeNumber(values['max-reviews'], 5, 0)
  if (maxReviews === undefined) {
    io.stderr.write(`--max-reviews must be a whole number from 0, got ${values['max-reviews']}\n`)
    return 2
  }
  const concurrency = wholeNumber(values.concurrency, 8, 1)
  if (concurrency === undefined) {
    io.stderr.write(`--concurrency must be a whole number from 1, got ${values.concurrency}\n`)
    return 2
  }
  const maxPageBytes =
    values['max-page-size'] === undefined ? DEFAULT_MAX_PAGE_BYTES : parseByteSize(values['max-page-size'])
  if (maxPageBytes === undefined) {
    io.stderr.write(
      `--max-page-size must be a size in bytes, or with kB, MB or GB (20MB), got ${values['max-page-size']}\n`,
    )
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
  const cwd = io.cwd ?? process.cwd()
  const dryRun = values['dry-run'] === true
  const talk = values.quiet !== true && values.json !== true
  const bar = talk ? createProgressBar(io.stderr) : undefined
  const logger = { warn: (message: string) => io.stderr.write(`warning: ${message}\n`) }
  let credentials: Pick<ClientOptions, 'clientId' | 'clientSecret' | 'origin'> = {}
  let envFiles: string[] = []
  // Without --store, injectProductJsonLd syncs into a temporary SQLite store, removed at the end.
  try {
    const environment = await readEnvFiles(cwd, io.env)
    envFiles = environment.files
    if (talk && envFiles.length > 0) io.stderr.write(`Environment variables from ${envFiles.join(', ')}\n`)
    const { clientId, clientSecret, origin } = readEnvironment(environment.env).client
    credentials = { clientId, clientSecret, origin: values.origin ?? origin }
    const client = createClient({
      ...(clientId === undefined ? {} : { clientId }),
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(credentials.origin === undefined ? {} : { origin: credentials.origin }),
    })
    const report = await injectProductJsonLd({
      dir: resolve(cwd, dir),
      client,
      maxReviews,
      dryRun,
      concurrency,
      maxPageBytes,
      cleanUrls: values['clean-urls'] === true,
      syndicatedReviews: values['syndicated-reviews'] === true,
      reviewSummaryAuthor: summaryAuthor,
      site: values.site,
      reviewStore:
        values.store === undefined
          ? undefined
          : createSqliteReviewStore<ProductReview>(resolve(cwd, values.store)),
      onProgress: bar?.update,
      logger,
    })
    bar?.end()
    io.stdout.write(
      values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, dryRun),
    )
    if (report.failedPages.length > 0) return 1
    if (values.strict === true && report.skippedPages.length > 0) {
      const skipped = plural(report.skippedPages.length, 'page', 'pages')
      io.stderr.write(
        `verified-reviews inject failed: ${skipped} skipped, and --strict fails the run for any\n`,
      )
      return 1
    }
    return 0
  } catch (error) {
    bar?.end()
    io.stderr.write(
      `verified-reviews inject failed: ${failure(error, credentials, values.origin, cwd, envFiles)}\n`,
    )
    return 1
  }
}

/**
 * Why the run failed, in one sentence that names what to fix, as the Next.js and Astro builds say it:
 * the variables of credentials refused or missing (and where they are read), the address out of reach.
 */
function failure(
  error: unknown,
  client: Pick<ClientOptions, 'clientId' | 'clientSecret' | 'origin'>,
  originFlag: string | undefined,
  cwd: string,
  envFiles: readonly string[],
): string {
  const problem = buildProblemOf(error, {
    client,
    ...(originFlag === undefined ? {} : { names: { origin: '--origin' } }),
  })
  if (problem.kind !== 'missing') return problem.message
  const them = problem.message.includes(' and ') ? 'them' : 'it'
  const found =
    envFiles.length === 0
      ? 'none of which exists'
      : `of which ${envFiles.join(', ')} ${envFiles.length === 1 ? 'exists' : 'exist'}`
  return `${problem.message}: set ${them} in the environment, or in ${ENV_FILES.join(', ')} of ${cwd} (${found})`
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      site: { type: 'string' },
      'max-reviews': { type: 'string' },
      'clean-urls': { type: 'boolean' },
      'max-page-size': { type: 'string' },
      concurrency: { type: 'string' },
      strict: { type: 'boolean' },
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
