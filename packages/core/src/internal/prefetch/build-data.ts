import { ValidationError, VerifiedReviewsError } from '../../errors.ts'
import type { ProductReview, ProductSummary } from '../../types/published.ts'
import { createLocalCatalog, type ReviewsCatalogClient } from '../catalog/local.ts'
import type { PrefetchProgress, PrefetchReport } from '../catalog/progress.ts'
import { isJsonObject, readOwnJsonFile } from '../json-file.ts'
import { singleFlight } from '../single-flight.ts'
import type { ReviewStore } from '../sync/store.ts'
import { writeAtomically } from '../write-atomically.ts'
import { type PrefetchShare, runOnce, runOnceShared } from './lock.ts'

export type { PrefetchProgress, PrefetchReport } from '../catalog/progress.ts'

/** What the prefetch needs of a client: `createClient()` satisfies it. */
export type PrefetchClient = ReviewsCatalogClient

/** Options of {@link prefetchBuildData}. */
export interface PrefetchOptions {
  /** The client that calls the API (in the one process that fetches). */
  client: PrefetchClient
  /**
   * Directory shared by the processes of one build: the data file, its lock and a failure note go
   * there. Use one that each build starts without (Next.js: `.next/verified-reviews`), or pass `buildId`.
   */
  directory: string
  /**
   * Names this build's data file, so that a file left by another build is not read.
   * @default 'build'
   */
  buildId?: string
  /**
   * The catalogue's products: their summaries are fetched by 200 per call, and only their reviews
   * are kept. Without it every product of the account is read (`products.list`, 200 per page).
   * @default every product of the account
   */
  productIds?: readonly string[]
  /**
   * Where the review sync keeps reviews. A store kept between builds (a JSON file in a cache
   * directory) makes the next build's sync incremental: one call when fewer than 200 reviews arrived.
   * @default a memory store (a full sync each build)
   */
  store?: ReviewStore<ProductReview>
  /**
   * Whether `store` outlives the build (see `createReviewsCatalog`'s `keptStore`).
   * @default true when `store` is given
   */
  keptStore?: boolean
  /**
   * Milliseconds a process waits for the one that fetches.
   * @default 600_000
   */
  waitTimeout?: number
  /**
   * Milliseconds after which a lock is broken even though its process seems alive (a process on
   * another host sharing the directory, or a hung one). A lock whose process is gone is broken at once.
   * @default 900_000
   */
  staleLockTimeout?: number
  /**
   * Milliseconds between two looks at the lock while waiting (doubling up to 8 times that).
   * @default 50
   */
  pollInterval?: number
  /** Stops waiting, and stops the sync between two pages. */
  signal?: AbortSignal
  /**
   * Where the processes of a build meet when they run on several machines (no shared directory):
   * a store such as Redis (`createRedisPrefetchShare()` of `@verified-reviews/redis`). Exactly one
   * process of all the machines then fetches, and the others read its data from the share. Give every
   * machine the same `buildId` (a commit or CI build id). A share that fails is left aside with one
   * warning: the processes of each machine then meet through the lock file in `directory`.
   * @default undefined (the lock file in `directory`)
   */
  share?: PrefetchShare
  /**
   * Where the warning goes when the data file is found corrupt and moved aside, or when the share fails.
   * @default console
   */
  logger?: { warn(message: string): void }
  /**
   * Told what the prefetch is doing, for a progress display: in the process that fetches, each page of
   * summaries and of reviews and a report at the end; in the others, what they wait for (at once, then
   * every 30 seconds).
   * @default undefined (nothing is told)
   */
  onProgress?: (progress: PrefetchProgress) => void
}

/** The reviews and summaries of a catalogue, fetched once for a whole build. */
export interface BuildData {
  /** The reviews of a product, newest published first; empty for a product without reviews. */
  reviews(productId: string): ProductReview[]
  /** The summary (ratings, criteria, AI summary) of a product, or undefined for one the API does not know. */
  summary(productId: string): ProductSummary | undefined
  /** Every product with a summary, in the order the API or `productIds` gave them. */
  readonly productIds: readonly string[]
  /** When the data was fetched (ISO 8601). */
  readonly fetchedAt: string
  /** API calls the fetching process made: review pages and summary pages. */
  readonly calls: { reviews: number; summaries: number }
  /**
   * What the fetch did (how it fetched reviews, the calls against the lower bound), as the process that
   * fetched reported it; undefined in data written without it.
   */
  readonly report: PrefetchReport | undefined
  /** Whether this process fetched the data (true in exactly one process of a build). */
  readonly fetchedHere: boolean
}

const FORMAT = 'verified-reviews/build-data'

interface BuildDataFile {
  format: typeof FORMAT
  version: 1
  buildId: string
  fetchedAt: string
  calls: { reviews: number; summaries: number }
  report?: PrefetchReport
  summaries: ProductSummary[]
  reviews: Record<string, ProductReview[]>
}

/**
 * The data file a build's processes share on disk (version 2): the summaries, and where each product's
 * reviews are in `<buildId>.reviews` (a JSON list per product, one per line), so that a process reads
 * the reviews of the pages it renders, not the whole catalogue's.
 */
interface IndexedDataFile extends Omit<BuildDataFile, 'version' | 'reviews'> {
  version: 2
  /** The reviews file, in the same folder. */
  reviewsFile: string
  /** Offset and length (bytes) of each product's list in it. */
  reviewsAt: Record<string, [number, number]>
}

const IN_FLIGHT = Symbol.for('verified-reviews.prefetch')
type InFlight = Map<string, Promise<BuildData>>

function inFlight(): InFlight {
  // Kept on globalThis: a framework may load two copies of this module in one process (two bundles).
  const holder = globalThis as { [IN_FLIGHT]?: InFlight }
  holder[IN_FLIGHT] ??= new Map()
  return holder[IN_FLIGHT]
}

function positiveNumber(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new ValidationError([{ field: name, message: `must be a number above 0, not ${value}` }])
  }
  return value
}

/**
 * The review data of a build, fetched once however many pages and processes ask: one review sync
 * (200 reviews per call) and the summaries of the catalogue (200 products per call), so a build of
 * N product pages costs ceil(reviews / 200) + ceil(N / 200) calls. In a process, concurrent and later
 * calls share one promise; across processes (build workers), a lock file in `directory` lets exactly
 * one fetch while the others wait and read the file it writes.
 */
export function prefetchBuildData(options: PrefetchOptions): Promise<BuildData> {
  const buildId = options.buildId ?? 'build'
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(buildId)) {
    throw new ValidationError([
      { field: 'buildId', message: 'must be 1 to 100 letters, digits, dots, dashes or underscores' },
    ])
  }
  // A failed run is not kept, so that a later call (a retry of the build step) tries again.
  return singleFlight('success', inFlight()).run(`${options.directory}\u0000${buildId}`, () =>
    load(options, buildId),
  )
}

async function load(options: PrefetchOptions, buildId: string): Promise<BuildData> {
  if (options.share !== undefined) {
    const shared = await loadShared(options, options.share, buildId)
    if (shared !== undefined) return shared
  }
  const { join } = await import('node:path')
  const dataPath = join(options.directory, `${buildId}.json`)
  const { value, produced } = await runOnce({
    lockPath: join(options.directory, `${buildId}.lock`),
    failurePath: join(options.directory, `${buildId}.failed.json`),
    read: () => readDataFile(dataPath, buildId, options.logger ?? console),
    produce: async () => {
      const fetched = await fetchIntoStore(options, buildId)
      // The reviews first, a product's list at a time; then the file that says where they are.
      const reviewsFile = `${buildId}.reviews`
      const reviewsAt: Record<string, [number, number]> = Object.create(null)
      await writeAtomically(join(options.directory, reviewsFile), reviewLines(fetched, reviewsAt))
      const file: IndexedDataFile = { ...fetched.header, version: 2, reviewsFile, reviewsAt }
      await writeAtomically(dataPath, JSON.stringify(file))
      return file
    },
    waitTimeout: positiveNumber('waitTimeout', options.waitTimeout ?? 600_000),
    staleLockTimeout: positiveNumber('staleLockTimeout', options.staleLockTimeout ?? 900_000),
    pollInterval: positiveNumber('pollInterval', options.pollInterval ?? 50),
    signal: options.signal,
    onWait: (holder, waitedMs) => options.onProgress?.({ phase: 'waiting', holder, waitedMs }),
  })
  return indexedBuildData(value, join(options.directory, value.reviewsFile), produced)
}

const encoder = new TextEncoder()
const NEWLINE = encoder.encode('\n')

/** Each product's reviews as one JSON list per line, noting in `at` where each one is. */
async function* reviewLines(
  fetched: FetchedIntoStore,
  at: Record<string, [number, number]>,
): AsyncGenerator<Uint8Array> {
  let offset = 0
  for (const id of fetched.wanted) {
    const list = await fetched.list(id)
    if (list.length === 0) continue
    const bytes = encoder.encode(JSON.stringify(list))
    at[id] = [offset, bytes.length]
    offset += bytes.length + 1
    yield bytes
    yield NEWLINE
  }
}

/**
 * The data through the share; undefined when the share failed before any data was fetched here (the
 * caller then falls back to the lock file). Data fetched here is never fetched twice: when only
 * storing it failed, it is returned all the same.
 */
async function loadShared(
  options: PrefetchOptions,
  share: PrefetchShare,
  buildId: string,
): Promise<BuildData | undefined> {
  const logger = options.logger ?? console
  let fetched: BuildDataFile | undefined
  // The share's own failures are told apart from the API's and the waits', which are thrown as they are.
  const guard = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch((error: unknown) => {
      throw new ShareError(error)
    })
  try {
    const { value, produced } = await runOnceShared({
      share: {
        get: (name) => guard(share.get(name)),
        set: (name, text) => guard(share.set(name, text)),
        lock: (name) => guard(share.lock(name)),
      },
      name: `prefetch:${buildId}`,
      parse: (text) => parseShared(text, buildId, logger),
      produce: async () => {
        fetched = await fetchData(options, buildId)
        return fetched
      },
      serialize: (file) => JSON.stringify(file),
      waitTimeout: positiveNumber('waitTimeout', options.waitTimeout ?? 600_000),
      pollInterval: positiveNumber('pollInterval', options.pollInterval ?? 50),
      signal: options.signal,
      onWait: (holder, waitedMs) => options.onProgress?.({ phase: 'waiting', holder, waitedMs }),
    })
    return buildData(value, produced)
  } catch (error) {
    if (fetched !== undefined) return buildData(fetched, true)
    if (!(error instanceof ShareError)) throw error
    logger.warn(
      `[@verified-reviews/core/prefetch] The prefetch share failed (${error.message}); ` +
        `the build processes of this machine meet through the lock file in ${options.directory} instead.`,
    )
    return undefined
  }
}

/** A failure of the prefetch share itself (not of the API), after which the lock file is used. */
class ShareError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause })
  }
}

/** Build data read from the share; undefined (fetched again) when it is not this build's or malformed. */
function parseShared(
  text: string,
  buildId: string,
  logger: { warn(message: string): void },
): BuildDataFile | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const problem = !isJsonObject(value)
    ? 'it is not JSON'
    : value.format !== FORMAT || value.version !== 1 || value.buildId !== buildId
      ? `it is not the build data of build ${buildId}`
      : malformed(value)
  if (problem === undefined) return value as unknown as BuildDataFile
  logger.warn(
    `[@verified-reviews/core/prefetch] The shared build data of ${buildId} is unusable (${problem}); fetching it again.`,
  )
  return undefined
}

/** The data of a build, in a store kept as a whole in one value (the share). */
async function fetchData(options: PrefetchOptions, buildId: string): Promise<BuildDataFile> {
  const { header, list: listOf, wanted } = await fetchIntoStore(options, buildId)
  // Product ids are the API's: without a prototype, `__proto__` or `constructor` is a product like any other.
  const reviews: Record<string, ProductReview[]> = Object.create(null)
  for (const id of wanted) {
    const list = await listOf(id)
    if (list.length > 0) reviews[id] = list
  }
  return { ...header, reviews }
}

/** What a fetch leaves: the data file's header, and the reviews of each product it keeps. */
interface FetchedIntoStore {
  header: Omit<BuildDataFile, 'reviews'>
  /** The reviews of a product, newest first. */
  list(productId: string): Promise<ProductReview[]>
  /** The products whose reviews the data keeps. */
  wanted: string[]
}

/** The build's data, fetched by the in-process catalog (the one fetch of every sharing mode). */
async function fetchIntoStore(options: PrefetchOptions, buildId: string): Promise<FetchedIntoStore> {
  const catalog = createLocalCatalog({
    client: options.client,
    productIds: options.productIds,
    store: options.store,
    keptStore: options.keptStore,
    signal: options.signal,
    onProgress: options.onProgress,
  })
  const report = await catalog.report()
  const summaries = [...(await catalog.summaries()).values()]
  return {
    header: {
      format: FORMAT,
      version: 1,
      buildId,
      fetchedAt: new Date().toISOString(),
      calls: report.calls,
      report,
      summaries,
    },
    list: (productId) => catalog.reviews(productId),
    wanted:
      options.productIds === undefined
        ? summaries.map((summary) => summary.product_variation_id)
        : [...new Set(options.productIds)],
  }
}

/** What both forms of build data give alike: everything but the reviews. */
function dataOf(
  file: Omit<BuildDataFile, 'reviews' | 'format' | 'version'>,
  fetchedHere: boolean,
): Omit<BuildData, 'reviews'> {
  const summaries = new Map(file.summaries.map((summary) => [summary.product_variation_id, summary]))
  return {
    summary: (productId) => structuredClone(summaries.get(productId)),
    productIds: Object.freeze(file.summaries.map((summary) => summary.product_variation_id)),
    fetchedAt: file.fetchedAt,
    calls: { ...file.calls },
    report: isJsonObject(file.report) ? (file.report as PrefetchReport) : undefined,
    fetchedHere,
  }
}

function buildData(file: BuildDataFile, fetchedHere: boolean): BuildData {
  return {
    ...dataOf(file, fetchedHere),
    reviews: (productId) =>
      structuredClone(Object.hasOwn(file.reviews, productId) ? (file.reviews[productId] ?? []) : []),
  }
}

/**
 * Build data whose reviews are read from the reviews file when a page asks for them (the file stays
 * open in the process): a process holds the summaries and the index, not every review.
 */
async function indexedBuildData(
  file: IndexedDataFile,
  reviewsPath: string,
  fetchedHere: boolean,
): Promise<BuildData> {
  const fs = await import('node:fs')
  const fd = fs.openSync(reviewsPath, 'r')
  const decoder = new TextDecoder()
  return {
    ...dataOf(file, fetchedHere),
    reviews: (productId) => {
      if (!Object.hasOwn(file.reviewsAt, productId)) return []
      const [offset, length] = file.reviewsAt[productId] as [number, number]
      const bytes = new Uint8Array(length)
      for (let done = 0; done < length; ) {
        const read = fs.readSync(fd, bytes, done, length - done, offset + done)
        if (read === 0)
          throw new VerifiedReviewsError(`${reviewsPath} ended before the reviews of ${productId}`)
        done += read
      }
      return JSON.parse(decoder.decode(bytes)) as ProductReview[]
    },
  }
}

/** What is wrong with the content of a data file in this format, or undefined. */
function malformed(file: Record<string, unknown>): string | undefined {
  if (!Array.isArray(file.summaries) || !file.summaries.every(isJsonObject))
    return 'its summaries are not a list'
  if (!isJsonObject(file.reviews) || !Object.values(file.reviews).every(Array.isArray)) {
    return 'its reviews are not lists by product'
  }
  if (!isJsonObject(file.calls) || typeof file.fetchedAt !== 'string')
    return 'its calls or fetchedAt are missing'
  return undefined
}

/** What is wrong with the content of an indexed data file, or undefined. */
function malformedIndexed(file: Record<string, unknown>): string | undefined {
  if (!Array.isArray(file.summaries) || !file.summaries.every(isJsonObject))
    return 'its summaries are not a list'
  if (
    typeof file.reviewsFile !== 'string' ||
    !/^[A-Za-z0-9._-]+$/.test(file.reviewsFile) ||
    !isJsonObject(file.reviewsAt) ||
    !Object.values(file.reviewsAt).every(
      (at) => Array.isArray(at) && at.length === 2 && at.every((n) => Number.isSafeInteger(n) && n >= 0),
    )
  ) {
    return 'its reviews file or the places of its reviews are missing'
  }
  if (!isJsonObject(file.calls) || typeof file.fetchedAt !== 'string')
    return 'its calls or fetchedAt are missing'
  return undefined
}

/**
 * The data file of this build, or undefined when there is none yet. A corrupt one (empty, not JSON,
 * malformed) is renamed to `<file>.corrupt-<time>` with a warning naming both files, and counts as
 * none, so that it is fetched again instead of failing every build after it.
 */
function readDataFile(
  path: string,
  buildId: string,
  logger: { warn(message: string): void },
): Promise<IndexedDataFile | undefined> {
  return readOwnJsonFile<IndexedDataFile>(
    path,
    (value) => {
      if (
        !isJsonObject(value) ||
        value.format !== FORMAT ||
        value.version !== 2 ||
        value.buildId !== buildId
      ) {
        throw new VerifiedReviewsError(
          `${path} is not the build data of build ${buildId} (format ${FORMAT}, version 2)`,
        )
      }
      const problem = malformedIndexed(value)
      return problem === undefined ? { value: value as unknown as IndexedDataFile } : { malformed: problem }
    },
    (problem, aside) =>
      logger.warn(
        `[@verified-reviews/core/prefetch] The build data ${path} is corrupt (${problem}): moved it aside to ` +
          `${aside}; fetching it again.`,
      ),
  )
}
