import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient, type ProductReview } from '@verified-reviews/core'
import type { Locale } from '@verified-reviews/core/i18n'
import {
  combineProductSummaries,
  isLocale,
  languageOf,
  mapWithLimit,
  newestFirst,
  schemaTypes,
  type TrailingSlash,
} from '@verified-reviews/core/internal'
import { buildProductJsonLd, type JsonLdNode, type ProductJsonLdOptions } from '@verified-reviews/core/jsonld'
import {
  createReviewsCatalog,
  type PrefetchReport,
  type ReviewsCatalog,
  type ReviewsCatalogCalls,
  type ReviewsCatalogClient,
} from '@verified-reviews/core/prefetch'
import {
  createSqliteReviewStore,
  type ProductReviewsSyncReport,
  type ReviewStore,
} from '@verified-reviews/core/sync'
import { decodeHtmlFile, utf16ByteOrder } from './charset.ts'
import { eventLoopTurns, listHtmlFiles, pageUrlOf } from './files.ts'
import {
  type AddProductJsonLdOptions,
  addProductJsonLd,
  injectedMarkupProblem,
  PRODUCT_ATTRIBUTE,
  PRODUCT_META_NAME,
  readProductPage,
  resolveUrl,
} from './page.ts'
import { DEFAULT_MAX_PAGE_BYTES, formatBytes } from './page-size.ts'
import { writeAtomically } from './write-atomically.ts'

/** Where a run of {@link injectProductJsonLd} stands, for a progress bar. */
export interface InjectProgress {
  /** `scan`: reading pages for markers; `fetch`: bulk API calls; `write`: adding the markup. */
  phase: 'scan' | 'fetch' | 'write'
  /** Pages (or, in `fetch`, fetch steps) done in this phase. */
  done: number
  total: number
}

/**
 * Options of {@link injectProductJsonLd}; `ratingDecimals`, `syndicatedReviews`, `reviewSummaryAuthor`
 * (the summaries come with the ratings) and `logger` are the JSON-LD builder's, `nonce` the script's.
 */
export interface InjectProductJsonLdOptions
  extends Pick<
      ProductJsonLdOptions,
      'ratingDecimals' | 'syndicatedReviews' | 'reviewSummaryAuthor' | 'logger'
    >,
    AddProductJsonLdOptions {
  /** The folder of static HTML: an Astro `dist`, a Next.js `out`, any site. */
  dir: string | URL
  /**
   * The site's base URL (`https://shop.example/`): a page without `<link rel="canonical">` is at
   * `site` plus its path (`shoes/index.html` → `https://shop.example/shoes/`, `about.html` → `…/about`).
   * @default undefined (pages need a canonical link)
   */
  site?: string | URL
  /**
   * The URL of a page from its path relative to `dir` (with `/` separators); overrides `site`.
   * @default the rule described at `site`
   */
  pageUrl?: (file: string) => string | undefined
  /**
   * Whether the site is served with clean URLs, its pages without `.html` (`about.html` at
   * `https://shop.example/about`): the `@id` of a page without `<link rel="canonical">` then drops its
   * `.html`. Without them, it keeps it (`https://shop.example/about.html`), which every static host serves.
   * @default false
   */
  cleanUrls?: boolean
  /**
   * Largest page read, in bytes: a bigger file is skipped with its reason, its size read before any of
   * its bytes. Parsing a page takes several times its size in memory (see the injector's docs for the
   * factor measured), for each of the `concurrency` pages rewritten at once.
   * @default 20_000_000 (20 MB)
   */
  maxPageBytes?: number
  /**
   * Whether the URLs of `site` end with `/` (Astro's `trailingSlash`): `'always'`, `'never'`, or
   * `'ignore'`, a folder's index page with `/` and other pages without.
   * @default 'ignore'
   */
  trailingSlash?: TrailingSlash
  /**
   * The client that fetches reviews and ratings.
   * @default createClient() (VERIFIED_REVIEWS_* environment variables)
   */
  client?: ReviewsCatalogClient
  /** A catalog shared with other users of the same data (components of the same build); overrides `client` and `reviewStore`. */
  catalog?: ReviewsCatalog
  /**
   * Where product reviews are synced, or the marked products' reviews kept when they cost fewer calls
   * than the sync. A store kept between runs (`createSqliteReviewStore`) makes every run after the
   * first incremental in both cases: the sync asks only for reviews published since (one call when
   * fewer than 200 arrived); the marked products' reviews are asked for newest first down to the first
   * one held (one call per 200 products held), and only products marked since are fetched in full.
   * @default an SQLite store in a temporary folder, removed at the end (a full sync on every run), so
   * that the reviews are not all held in memory
   */
  reviewStore?: ReviewStore<ProductReview>
  /**
   * Most reviews marked up per product; 0 leaves the reviews out and skips their sync.
   * @default 5
   */
  maxReviews?: number
  /**
   * Counts what would change without writing any file.
   * @default false
   */
  dryRun?: boolean
  /**
   * Marked pages rewritten at once. The scan reads the pages one after another, on the calling thread
   * (the event loop runs every 20 ms).
   * @default 8
   */
  concurrency?: number
  /** Called as pages are scanned, data fetched and pages written. */
  onProgress?: (progress: InjectProgress) => void
  /** Stops the run between two files. */
  signal?: AbortSignal
}

/**
 * A page that got no markup and why: in `skippedPages`, a page left alone for what it holds (or for its
 * size); in `failedPages`, a page that failed.
 */
export interface SkippedPage {
  /** Path relative to `dir`, with `/` separators. */
  file: string
  reason: string
}

/** What a run of {@link injectProductJsonLd} did. */
export interface InjectReport {
  /** HTML files read. */
  pages: number
  /** Pages that mark a product. */
  markedPages: number
  /** Pages whose markup was added or merged (or would be, with `dryRun`). */
  changedPages: number
  /** Marked pages that already carried exactly this markup. */
  unchangedPages: number
  /** Marked pages whose own Product node already carries review markup (a review component's): left as they are. */
  ownMarkupPages: number
  /** Marked pages whose product has neither a rating nor a review: nothing to add. */
  pagesWithoutReviews: number
  /**
   * Pages left alone, byte for byte, with the reason: marked pages the injector cannot mark up safely
   * (an encoding other than UTF-8, JSON-LD that does not parse or nests too deep, several products or
   * Product nodes, no place in the head, a page that could not be parsed), and pages over
   * `maxPageBytes`, which are not read (and not counted in `markedPages`). They do not fail the run;
   * the command's `--strict` makes them fail it.
   */
  skippedPages: SkippedPage[]
  /**
   * Pages that failed, each alone, while the run went on with the others: a page that could not be
   * read or given its markup (an error reading, building or writing it, such as a file removed
   * meanwhile), or a page written whose check failed (read back after the write, the file did not hold
   * what was written, or did not parse with exactly one script of the injector, in the head when added,
   * and one Product node). Empty unless something outside the page's content went wrong.
   */
  failedPages: SkippedPage[]
  /** Distinct products the marked pages name. */
  products: number
  /** API calls made, by operation, and their total. */
  apiCalls: ReviewsCatalogCalls & { total: number }
  /** The review sync of this run, when it ran. */
  sync: ProductReviewsSyncReport | undefined
  /**
   * How the catalog fetched the reviews (full or incremental sync, or the reviews of the marked
   * products), with its calls against the lower bound; undefined when no reviews were fetched.
   */
  fetch: PrefetchReport | undefined
}

interface PlannedPage {
  file: string
  /** The product's `product_variation_id`, or the ids of the variations of a product group. */
  productIds: string[]
  /**
   * The page's language (its `lang`) when the review components show reviews in it, so that the markup
   * carries the text the page shows; undefined when it has none of theirs (the originals are marked up).
   */
  language: Locale | undefined
  /** `@id` of the Product node, as the page writes it (or the page's URL). */
  nodeId: string
  /** Absolute form of `nodeId`, which the builder requires. */
  nodeUrl: string
  /** Name of the page's own Product node; undefined when the page has none. */
  ownName: string | undefined
  /** Whether the page has a Product node of its own, into which the review markup is merged. */
  hasOwnNode: boolean
  title: string | undefined
}

type Plan =
  | { kind: 'unmarked' }
  | { kind: 'skipped'; reason: string }
  /** Over the size cap: not read, so whether it marks a product is unknown. */
  | { kind: 'oversize'; reason: string }
  | { kind: 'failed'; reason: string }
  | ({ kind: 'planned' } & PlannedPage)

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

const WHITESPACE = /\s/

/** The ids a marker names: one product, or the variations of a group (`SKU-1,SKU-2`); a reason when invalid. */
function markedIds(marker: string): string[] | string {
  const ids = [...new Set(marker.split(',').map((id) => id.trim()))]
  if (ids.some((id) => id === '' || WHITESPACE.test(id))) {
    return `product id ${JSON.stringify(marker)} contains whitespace or an empty id`
  }
  return ids
}

/** The supported language of a page's `lang` (`fr-CA` → `fr`), or undefined. */
function pageLanguage(lang: string | undefined): Locale | undefined {
  const language = languageOf(lang)
  return language !== undefined && isLocale(language) ? language : undefined
}

/**
 * A marker's name in any ASCII case, as HTML reads names (both are letters, `-` and `:`, nothing a pattern
 * reads otherwise): tested on the page's text as it is, with no lower-cased copy of every page.
 */
const MARKER_NAME = new RegExp(`${PRODUCT_ATTRIBUTE}|${PRODUCT_META_NAME}`, 'i')

/**
 * Whether the page's text holds a marker's name at all (in any case): a page without it marks no
 * product, and is not parsed. A marker is written as such, not through character references.
 */
function mayMarkProduct(html: string): boolean {
  return MARKER_NAME.test(html)
}

function planPage(file: string, bytes: Uint8Array, pageUrl: string | undefined): Plan {
  try {
    return planDecodedPage(file, bytes, pageUrl)
  } catch (error) {
    // What the page holds made it unreadable (a parser's limit, say): the page is left as it was.
    return { kind: 'skipped', reason: `could not be parsed: ${messageOf(error)}` }
  }
}

/** What both markers' names hold (`data-verified-reviews-product`, `verified-reviews:product`), in ASCII lower case. */
const MARKERS_SHARE = Buffer.from('verified-reviews', 'latin1')

/** Where the search for {@link MARKERS_SHARE} anchors: its `f`, a letter that few pages repeat. */
const ANCHOR_AT = MARKERS_SHARE.indexOf('f')

/** Whether `bytes` spell {@link MARKERS_SHARE} from `start`, in any ASCII case. */
function sharedNameAt(bytes: Uint8Array, start: number): boolean {
  for (let i = 0; i < MARKERS_SHARE.length; i++) {
    const byte = bytes[start + i] as number
    // ASCII upper case to lower; every other byte as it is.
    if ((byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte) !== MARKERS_SHARE[i]) return false
  }
  return true
}

/**
 * Whether `bytes` spell what both markers' names share, in any ASCII case, as HTML reads names: searched
 * in the bytes themselves from each `f` or `F` (found natively), with no string made of the page.
 */
function bytesHoldSharedName(bytes: Buffer): boolean {
  for (const letter of [0x66, 0x46]) {
    for (
      let at = bytes.indexOf(letter, ANCHOR_AT);
      at !== -1 && at - ANCHOR_AT + MARKERS_SHARE.length <= bytes.length;
      at = bytes.indexOf(letter, at + 1)
    ) {
      if (sharedNameAt(bytes, at - ANCHOR_AT)) return true
    }
  }
  return false
}

/**
 * Whether a page's bytes may hold a marker. Every encoding a page can be read in but UTF-16 writes ASCII
 * as ASCII, so a page whose bytes do not spell what both markers' names share marks no product: it is
 * neither decoded nor parsed (most pages of a site whose components render their own markup; 10,000 pages
 * of 9 KB: 0.08 s against 0.18 s for a string of each page and a pattern). A page that has it is decoded
 * and its text tested for either name before it is parsed.
 */
function bytesMayMarkProduct(bytes: Uint8Array): boolean {
  if (utf16ByteOrder(bytes) !== undefined) return true
  return bytesHoldSharedName(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
}

function planDecodedPage(file: string, bytes: Uint8Array, pageUrl: string | undefined): Plan {
  if (!bytesMayMarkProduct(bytes)) return { kind: 'unmarked' }
  const decoded = decodeHtmlFile(bytes)
  const html = decoded.utf8 ? decoded.html : decoded.text
  if (!mayMarkProduct(html)) return { kind: 'unmarked' }
  const page = readProductPage(html, pageUrl)
  const [productId, ...others] = page.productIds
  if (productId === undefined) return { kind: 'unmarked' }
  if (!decoded.utf8) return { kind: 'skipped', reason: decoded.reason }
  if (others.length > 0) {
    return {
      kind: 'skipped',
      reason: `marks ${page.productIds.length} products (${page.productIds.join(', ')}); a page describes one product`,
    }
  }
  const productIds = markedIds(productId)
  if (typeof productIds === 'string') return { kind: 'skipped', reason: productIds }
  if (page.jsonLdProblem !== undefined) return { kind: 'skipped', reason: page.jsonLdProblem }
  const url = page.canonicalUrl ?? pageUrl
  const ids = page.productNodes.map((node) => node.id)
  let nodeId: string | undefined
  if (ids.length === 0) nodeId = url
  else if (ids.length === 1) nodeId = ids[0] ?? url
  else if (url !== undefined && ids.includes(url)) nodeId = url
  else {
    return {
      kind: 'skipped',
      reason: `has ${ids.length} Product nodes and none has the page's URL as @id; a page keeps one Product node`,
    }
  }
  const nodeUrl = nodeId === undefined ? undefined : resolveUrl(nodeId, url)
  if (nodeId === undefined || nodeUrl === undefined) {
    return {
      kind: 'skipped',
      reason: 'has no absolute URL: add <link rel="canonical" href="https://…"> or pass the site option',
    }
  }
  const own = ids.length === 1 ? page.productNodes[0] : page.productNodes.find((node) => node.id === nodeId)
  if (productIds.length > 1 && !schemaTypes(own?.type).includes('ProductGroup')) {
    return {
      kind: 'skipped',
      reason:
        `marks the variations ${productIds.join(', ')} of one product, whose aggregate goes on the page's own ` +
        'ProductGroup node (productGroupID, hasVariant), which the page lacks',
    }
  }
  return {
    kind: 'planned',
    file,
    productIds,
    language: pageLanguage(page.language),
    nodeId,
    nodeUrl,
    ownName: own?.name,
    hasOwnNode: own !== undefined,
    title: page.title,
  }
}

function productName(reviews: readonly ProductReview[], title: string | undefined): string | undefined {
  return reviews.find((review) => review.product_name.trim() !== '')?.product_name.trim() ?? title
}

/**
 * Adds review rich snippets to every page of a folder of static HTML that marks its product with
 * `<meta name="verified-reviews:product" content="SKU">` (or a `data-verified-reviews-product`
 * attribute): the marked products' summaries (ratings) are fetched in bulk (200 per call) and their
 * reviews come from one paged sync (200 per call) or, when that costs fewer calls, from lists of the
 * marked products (`createReviewsCatalog`), then each page gets one Product node with `aggregateRating` and
 * `review` in its JSON-LD, merged into the page's own Product node when it has one.
 *
 * Running it again over the same folder changes nothing unless the reviews changed.
 */
export async function injectProductJsonLd(options: InjectProductJsonLdOptions): Promise<InjectReport> {
  if (options.catalog !== undefined || options.reviewStore !== undefined) return injectWith(options)
  // The reviews of the run go to a file removed at the end, not to memory (a memory store holds each
  // review's JSON, some 3.5 KB with its translations: a full sync of 100,000 reviews peaks near 610 MiB).
  const scratch = await mkdtemp(join(tmpdir(), 'verified-reviews-inject-'))
  try {
    const reviewStore = createSqliteReviewStore<ProductReview>(join(scratch, 'reviews.sqlite'))
    try {
      return await injectWith({ ...options, reviewStore })
    } finally {
      await reviewStore.close()
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

async function injectWith(options: InjectProductJsonLdOptions): Promise<InjectReport> {
  const dir = resolve(typeof options.dir === 'string' ? options.dir : fileURLToPath(options.dir))
  const maxReviews = options.maxReviews ?? 5
  if (!Number.isInteger(maxReviews) || maxReviews < 0) {
    throw new RangeError(`maxReviews must be a whole number from 0, got ${String(maxReviews)}`)
  }
  if (options.reviewSummaryAuthor !== undefined && options.reviewSummaryAuthor.trim() === '') {
    throw new TypeError('reviewSummaryAuthor must name the organization the AI summary is attributed to')
  }
  const concurrency = options.concurrency ?? 8
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES
  if (!Number.isSafeInteger(maxPageBytes) || maxPageBytes < 1) {
    throw new RangeError(`maxPageBytes must be a whole number of bytes from 1, got ${String(maxPageBytes)}`)
  }
  const site = options.site === undefined ? undefined : String(options.site)
  const { cleanUrls, trailingSlash } = options
  const urlOf =
    options.pageUrl ??
    ((file: string) => (site === undefined ? undefined : pageUrlOf(file, site, { cleanUrls, trailingSlash })))
  const progress = options.onProgress ?? (() => {})
  const files = await listHtmlFiles(dir)

  progress({ phase: 'scan', done: 0, total: files.length })
  // Read in place, one page after another: a page the file system has cached is read some six times
  // faster so than through a file handle's promises, which go to a thread and back four times (10,000
  // pages of 9 KB: 0.2 s against 1.4 s). The event loop runs every 20 ms meanwhile.
  const plans: { file: string; plan: Plan }[] = []
  const pause = eventLoopTurns()
  for (const file of files) {
    options.signal?.throwIfAborted()
    let plan: Plan
    try {
      const page = readPageSync(join(dir, file), maxPageBytes)
      plan =
        page.status === 'too-large'
          ? { kind: 'oversize', reason: page.reason }
          : planPage(file, page.bytes, urlOf(file))
    } catch (error) {
      // One page's trouble is that page's: the others are still read and given their markup.
      plan = { kind: 'failed', reason: `could not be read: ${messageOf(error)}` }
    }
    plans.push({ file, plan })
    progress({ phase: 'scan', done: plans.length, total: files.length })
    await pause()
  }

  const report: InjectReport = {
    pages: files.length,
    markedPages: 0,
    changedPages: 0,
    unchangedPages: 0,
    ownMarkupPages: 0,
    pagesWithoutReviews: 0,
    skippedPages: [],
    failedPages: [],
    products: 0,
    apiCalls: { reviews: 0, products: 0, total: 0 },
    sync: undefined,
    fetch: undefined,
  }
  const planned: PlannedPage[] = []
  for (const { file, plan } of plans) {
    if (plan.kind === 'unmarked') continue
    if (plan.kind === 'failed') {
      report.failedPages.push({ file, reason: plan.reason })
      continue
    }
    if (plan.kind === 'oversize') {
      report.skippedPages.push({ file, reason: plan.reason })
      continue
    }
    report.markedPages++
    if (plan.kind === 'skipped') report.skippedPages.push({ file, reason: plan.reason })
    else planned.push(plan)
  }
  const productIds = [...new Set(planned.flatMap((page) => page.productIds))]
  report.products = productIds.length
  if (planned.length === 0) return report

  const catalog =
    options.catalog ??
    createReviewsCatalog({
      client: options.client ?? createClient(),
      // The marked pages name the products: their reviews alone when that costs fewer calls than the sync.
      productIds,
      store: options.reviewStore,
    })
  const callsBefore = catalog.calls()
  const fetchSteps = maxReviews > 0 ? 2 : 1
  progress({ phase: 'fetch', done: 0, total: fetchSteps })
  // The ratings and the AI summaries: one bulk fetch of the summaries serves both.
  const summaries = await catalog.summaries(productIds)
  progress({ phase: 'fetch', done: 1, total: fetchSteps })
  if (maxReviews > 0) {
    report.fetch = await catalog.report()
    report.sync = await catalog.syncReport()
    progress({ phase: 'fetch', done: 2, total: fetchSteps })
  }
  const callsAfter = catalog.calls()
  const reviews = callsAfter.reviews - callsBefore.reviews
  const products = callsAfter.products - callsBefore.products
  report.apiCalls = { reviews, products, total: reviews + products }

  let written = 0
  progress({ phase: 'write', done: 0, total: planned.length })
  await mapWithLimit(planned, concurrency, async (page) => {
    options.signal?.throwIfAborted()
    // Read from the data fetched before any page: its failure is the run's, not the page's.
    const productReviews =
      maxReviews > 0 ? newestFirst(await Promise.all(page.productIds.map((id) => catalog.reviews(id)))) : []
    try {
      // The page's own name keeps the merged node as it was; without a node of its own, the product's name.
      const name = page.hasOwnNode ? page.ownName : productName(productReviews, page.title)
      // A group's aggregate counts every review of every variation once, as the review components show it.
      const summary = combineProductSummaries(page.productIds.map((id) => summaries.get(id)))
      const summaryAuthor = options.reviewSummaryAuthor
      const node = buildProductJsonLd({
        url: page.nodeUrl,
        product: name === undefined ? undefined : { name },
        rating: summary?.ratings,
        reviews: productReviews,
        maxReviews,
        locale: page.language,
        syndicatedReviews: options.syndicatedReviews === true,
        reviewSummary: summaryAuthor === undefined ? undefined : summary?.review_summary,
        reviewSummaryAuthor: summaryAuthor,
        ratingDecimals: options.ratingDecimals,
        logger: options.logger,
      })
      if (node === null || (node.aggregateRating === undefined && node.review === undefined)) {
        report.pagesWithoutReviews++
      } else {
        const outcome = await writePage(
          join(dir, page.file),
          { ...node, '@id': page.nodeId },
          { nonce: options.nonce },
          { dryRun: options.dryRun === true, maxPageBytes },
        )
        if (outcome.status === 'skipped')
          report.skippedPages.push({ file: page.file, reason: outcome.reason })
        else if (outcome.status === 'failed')
          report.failedPages.push({ file: page.file, reason: outcome.reason })
        else if (outcome.status === 'unchanged') report.unchangedPages++
        else if (outcome.status === 'own-markup') report.ownMarkupPages++
        else report.changedPages++
      }
    } catch (error) {
      // As in the scan: the page fails alone (a file removed meanwhile, say), and the run goes on.
      report.failedPages.push({
        file: page.file,
        reason: `could not be given its markup: ${messageOf(error)}`,
      })
    }
    progress({ phase: 'write', done: ++written, total: planned.length })
  })
  const byFile = (a: SkippedPage, b: SkippedPage) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)
  report.skippedPages.sort(byFile)
  report.failedPages.sort(byFile)
  return report
}

type WriteOutcome =
  | { status: 'added' | 'merged' | 'unchanged' | 'own-markup' }
  | { status: 'skipped' | 'failed'; reason: string }

type ReadPage = { status: 'read'; bytes: Buffer } | { status: 'too-large'; reason: string }

function tooLarge(size: number, maxPageBytes: number): ReadPage {
  return {
    status: 'too-large',
    reason: `is ${formatBytes(size)}, over the ${formatBytes(maxPageBytes)} size cap (maxPageBytes, --max-page-size): not read`,
  }
}

/**
 * The bytes of the page at `path`, unless it is over `maxPageBytes`: its size is read from the open
 * file before its bytes, so that an oversize page never enters memory (one that grew meanwhile is
 * refused once past the cap). Read on the calling thread: the scan reads pages one after another.
 */
function readPageSync(path: string, maxPageBytes: number): ReadPage {
  const fd = openSync(path, 'r')
  try {
    const { size } = fstatSync(fd)
    if (size > maxPageBytes) return tooLarge(size, maxPageBytes)
    // A byte more than the size read tells a page that grew since; one past the cap, one that grew past it.
    let bytes = Buffer.allocUnsafe(size + 1)
    let length = 0
    for (;;) {
      if (length === bytes.length) {
        if (length > maxPageBytes) return tooLarge(length, maxPageBytes)
        const larger = Buffer.allocUnsafe(Math.min(length * 2, maxPageBytes + 1))
        bytes.copy(larger, 0, 0, length)
        bytes = larger
      }
      const read = readSync(fd, bytes, length, bytes.length - length, null)
      if (read === 0) break
      length += read
    }
    return { status: 'read', bytes: bytes.subarray(0, length) }
  } finally {
    closeSync(fd)
  }
}

/**
 * Adds `node` to the page at `path`: read as bytes (unless over the size cap), rewritten only when
 * UTF-8, written through a temporary file renamed over it (keeping its permissions), then read back and
 * parsed to check it holds what was meant. What the page holds skips it; an error of the file system
 * fails it.
 */
async function writePage(
  path: string,
  node: JsonLdNode,
  options: AddProductJsonLdOptions,
  { dryRun, maxPageBytes }: { dryRun: boolean; maxPageBytes: number },
): Promise<WriteOutcome> {
  const page = readPageSync(path, maxPageBytes)
  if (page.status === 'too-large') return { status: 'skipped', reason: page.reason }
  const decoded = decodeHtmlFile(page.bytes)
  if (!decoded.utf8) return { status: 'skipped', reason: decoded.reason }
  let result: ReturnType<typeof addProductJsonLd>
  try {
    result = addProductJsonLd(decoded.html, node, options)
  } catch (error) {
    return { status: 'skipped', reason: `could not be parsed: ${messageOf(error)}` }
  }
  if (result.status === 'skipped') return { status: 'skipped', reason: result.reason }
  if (result.status !== 'added' && result.status !== 'merged') return { status: result.status }
  if (dryRun) return { status: result.status }
  const written = Buffer.from(result.html, 'utf8')
  await writeAtomically(path, written, { mode: (await stat(path)).mode & 0o7777 })
  const reread = await readFile(path)
  const problem = reread.equals(written)
    ? injectedMarkupProblem(reread.toString('utf8'), result.status === 'added')
    : 'the file read back is not what was written (did another process change it?)'
  return problem === undefined
    ? { status: result.status }
    : { status: 'failed', reason: `checked after writing: ${problem}` }
}
