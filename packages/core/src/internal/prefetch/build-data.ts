import type { DatabaseSync } from 'node:sqlite'
import type { ProductReview, ProductSummary } from '../../types/published.ts'
import { processState } from '../base/process-state.ts'
import { singleFlight } from '../base/single-flight.ts'
import { fileExists, openSqliteFile, transaction } from '../base/sqlite.ts'
import { check, isObject } from '../base/validate.ts'
import type { NewestReviews } from '../catalog/local-catalog.ts'
import {
  createLocalCatalog,
  type LocalCatalogOptions,
  type ReviewsCatalogClient,
} from '../catalog/local-catalog.ts'
import type { PrefetchReport } from '../catalog/prefetch-progress.ts'
import { newestOf } from '../display/product-group.ts'
import { createSqliteReviewStore, viewSql } from '../sync/sqlite-store.ts'
import { newestFirst, type ReviewStore } from '../sync/store.ts'
import { loadStoredReviewCodec, type StoredReviewCodec } from '../sync/stored-review.ts'
import { putSummaryRows, SUMMARY_TABLE } from '../sync/summary-store.ts'
import { type PrefetchShare, runOnce, runOnceShared } from './run-once.ts'

export type { PrefetchProgress, PrefetchReport } from '../catalog/prefetch-progress.ts'

/** What the prefetch needs of a client: `createClient()` satisfies it. */
export type PrefetchClient = ReviewsCatalogClient

/** Options of {@link prefetchBuildData}. */
export interface PrefetchOptions
  extends Pick<
    LocalCatalogOptions,
    'client' | 'productIds' | 'keptStore' | 'replicaLanguages' | 'signal' | 'onProgress'
  > {
  /**
   * Directory shared by the processes of one build: the SQLite file `reviews.sqlite` there holds the
   * reviews (the review store, unless `store` names another), the summaries and the state of each build
   * (which process fetches, or that it is done or failed). Use one that each build starts without
   * (Next.js: `.next/verified-reviews`), or pass `buildId`.
   */
  directory: string
  /**
   * Names this build in the file, so that data left by another build is not read.
   * @default 'build'
   */
  buildId?: string
  /**
   * Where the review sync keeps reviews. A store kept between builds (an SQLite file in a cache
   * directory, Redis) makes the next build's sync incremental: one call when fewer than 200 reviews
   * arrived. The build's processes read the reviews from `reviews.sqlite` in `directory`: reviews kept
   * elsewhere (another store, or the named products' reviews) are copied there once, by product.
   * @default the review store of `reviews.sqlite` in `directory` (a memory store with `share`)
   */
  store?: ReviewStore<ProductReview>
  /**
   * An SQLite file kept between builds (Next.js: in `.next/cache`, which `next build` keeps), so that
   * every build after the first syncs incrementally: a build whose `directory` has no `reviews.sqlite`
   * yet starts it as a copy of this file (the review store and its sync mark, the replica's summaries,
   * the brand part; what earlier builds recorded of themselves is left out), and the process that
   * fetched writes the file back here once the data is in and `afterFetch` has run. A kept file that
   * cannot be read or written is left as it is, with a warning: the build then syncs as without it. The
   * file of a build that used `store` holds no reviews. Not used with `share` while the share works.
   * @default undefined (every build syncs in full)
   */
  keptFile?: string
  /**
   * Milliseconds a process waits for the one that fetches.
   * @default 600_000
   */
  waitTimeout?: number
  /**
   * Milliseconds after which the fetch of another process is taken over even though that process
   * seems alive (a process on another host sharing the directory, or a hung one). A fetch whose process
   * is gone is taken over at once.
   * @default 900_000
   */
  staleLockTimeout?: number
  /**
   * Milliseconds between two looks at the build's state while waiting (doubling up to 8 times that).
   * @default 50
   */
  pollInterval?: number
  /**
   * Where the processes of a build meet when they run on several machines (no shared directory):
   * a store such as Redis (`createRedisPrefetchShare()` of `@verified-reviews/redis`). Exactly one
   * process of all the machines then fetches, and the others read its data from the share. Give every
   * machine the same `buildId` (a commit or CI build id). A share that fails is left aside with one
   * warning: the processes of each machine then meet through the file in `directory`.
   * @default undefined (the file in `directory`)
   */
  share?: PrefetchShare
  /**
   * Runs in the one process of the build that fetched, once the data is in the file `reviews.sqlite` of
   * `directory` (given as `file`), before any caller in that process gets the data: the Next.js build
   * copies its review store into a replica shared by the servers there. Not run with `share`, whose data
   * is in the share. A rejection rejects the data of this process.
   * @default undefined
   */
  afterFetch?: ((file: string) => Promise<void>) | undefined
  /**
   * This process fetches ahead of the build's pages (Next.js's, while it compiles), for processes that
   * will ask later: the others wait until `afterFetch` has run too (so that the build cannot end before
   * it), and a failure is not recorded for them: the fetch is let go, and the first process to ask
   * fetches again and meets the failure itself, as it would have without this one. Not with `share`.
   * @default false
   */
  ahead?: boolean
  /**
   * Where the warning goes when the share fails or its data is unusable.
   * @default console
   */
  logger?: { warn(message: string): void }
}

/** The reviews and summaries of a catalogue, fetched once for a whole build. */
export interface BuildData {
  /** The reviews of a product, newest published first; empty for a product without reviews. */
  reviews(productId: string): ProductReview[]
  /**
   * The newest `limit` reviews of these products together, newest published first, ties by review id,
   * and whether more follow: read through the review store's index where the data is in one.
   */
  newestReviews(productIds: readonly string[], limit: number): NewestReviews
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

const IN_FLIGHT = Symbol.for('verified-reviews.prefetch')
type InFlight = Map<string, Promise<BuildData>>

/** Kept on globalThis: a framework may load two copies of this module in one process (two bundles). */
const inFlight = (): InFlight => processState(IN_FLIGHT, () => new Map())

function positiveNumber(name: string, value: number): number {
  check(Number.isFinite(value) && value > 0, name, `must be a number above 0, not ${value}`)
  return value
}

/**
 * The review data of a build, fetched once however many pages and processes ask: one review sync
 * (200 reviews per call) and the summaries of the catalogue (200 products per call), so a build of
 * N product pages costs ceil(reviews / 200) + ceil(N / 200) calls. In a process, concurrent and later
 * calls share one promise; across processes (build workers), the SQLite file in `directory` lets
 * exactly one fetch while the others wait, then every process reads a product's reviews from it through
 * its index, when a page asks for them: no process holds the account's reviews in memory.
 */
export function prefetchBuildData(options: PrefetchOptions): Promise<BuildData> {
  const buildId = options.buildId ?? 'build'
  const named = /^[A-Za-z0-9._-]{1,100}$/.test(buildId)
  check(named, 'buildId', 'must be 1 to 100 letters, digits, dots, dashes or underscores')
  // A failed run is not kept, so that a later call (a retry of the build step) tries again.
  return singleFlight('success', inFlight()).run(`${options.directory}\u0000${buildId}`, () =>
    load(options, buildId),
  )
}

/** The SQLite file of a build's directory: its review store, summaries and state. */
const FILE = 'reviews.sqlite'

/** What the file records of a build once it is done: everything but the summaries and reviews. */
interface BuildRecord {
  fetchedAt: string
  calls: { reviews: number; summaries: number }
  report: PrefetchReport | undefined
  /** Where the build's reviews are: the review store's table, or the build's copy. */
  reviews: 'store' | 'copy'
}

async function load(options: PrefetchOptions, buildId: string): Promise<BuildData> {
  if (options.share !== undefined) {
    const shared = await loadShared(options, options.share, buildId)
    if (shared !== undefined) return shared
  }
  const { join } = await import('node:path')
  const file = join(options.directory, FILE)
  const logger = options.logger ?? console
  if (options.keptFile !== undefined) await startFromKept(options.keptFile, file, logger)
  const db = await openSqliteFile(file, 5000)
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS build_summaries (build TEXT NOT NULL, position INTEGER NOT NULL,
               json TEXT NOT NULL, PRIMARY KEY (build, position));
             CREATE TABLE IF NOT EXISTS build_reviews (build TEXT NOT NULL, key TEXT NOT NULL, json TEXT NOT NULL);
             CREATE INDEX IF NOT EXISTS build_reviews_by_key ON build_reviews (build, key);
             ${SUMMARY_TABLE}`)
    const { value, produced } = await runOnce({
      db,
      name: buildId,
      file,
      produce: async () => {
        const record = JSON.stringify(await produce(db, file, options, buildId))
        if (options.ahead === true) await options.afterFetch?.(file)
        return record
      },
      releaseOnFailure: options.ahead === true,
      waitTimeout: positiveNumber('waitTimeout', options.waitTimeout ?? 600_000),
      staleLockTimeout: positiveNumber('staleLockTimeout', options.staleLockTimeout ?? 900_000),
      pollInterval: positiveNumber('pollInterval', options.pollInterval ?? 50),
      signal: options.signal,
      onWait: (holder, waitedMs) => options.onProgress?.({ phase: 'waiting', holder, waitedMs }),
    })
    if (produced && options.ahead !== true) await options.afterFetch?.(file)
    if (produced && options.keptFile !== undefined) await keepFile(db, options.keptFile, logger)
    return fileBuildData(
      db,
      buildId,
      JSON.parse(value) as BuildRecord,
      produced,
      await loadStoredReviewCodec(),
    )
  } catch (error) {
    db.close()
    throw error
  }
}

/** The tables in which builds record themselves (`runs` is the run-once table): none is kept between builds. */
const BUILD_TABLES = ['build_summaries', 'build_reviews', 'runs']

/**
 * Starts the build's file `file` as a copy of the kept file `kept`, unless `file` is there already (a
 * process of this build made it) or there is no kept file. The copy is made beside `file`, cleared of
 * what earlier builds recorded of themselves, then linked into place, which only one process can do: a
 * process that finds the place taken drops its copy.
 */
async function startFromKept(kept: string, file: string, logger: { warn(message: string): void }) {
  const [{ copyFile, link, mkdir, rm }, { dirname }] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
  ])
  if ((await fileExists(file)) || !(await fileExists(kept))) return
  const copy = `${file}.kept-${process.pid}`
  try {
    await mkdir(dirname(file), { recursive: true })
    await copyFile(kept, copy)
    const db = await openSqliteFile(copy, 5000)
    try {
      transaction(db, () => {
        for (const table of BUILD_TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`)
      })
    } finally {
      db.close()
    }
    await link(copy, file)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST')
      logger.warn(
        `[@verified-reviews/core/prefetch] The kept build data ${kept} could not be read (${error instanceof Error ? error.message : String(error)}); this build syncs as without it.`,
      )
  } finally {
    await Promise.all(['', '-wal', '-shm'].map((end) => rm(`${copy}${end}`, { force: true })))
  }
}

/**
 * Writes the build's file (open as `db`) to the kept file `kept`, through SQLite's backup (a consistent
 * copy, whatever the other processes of the build read meanwhile) into a file beside it, renamed into
 * place once whole: a build that stops meanwhile leaves the kept file as it was.
 */
async function keepFile(db: DatabaseSync, kept: string, logger: { warn(message: string): void }) {
  const [{ backup }, { mkdir, rename, rm }, { dirname }] = await Promise.all([
    import('node:sqlite'),
    import('node:fs/promises'),
    import('node:path'),
  ])
  // One name, not one per process: a copy that a stopped build left half-written is written over.
  const copy = `${kept}.new`
  try {
    await mkdir(dirname(kept), { recursive: true })
    await backup(db, copy)
    await rename(copy, kept)
  } catch (error) {
    logger.warn(
      `[@verified-reviews/core/prefetch] The build data could not be kept in ${kept} (${error instanceof Error ? error.message : String(error)}); the next build syncs as without it.`,
    )
    await Promise.all(['', '-journal', '-wal', '-shm'].map((end) => rm(`${copy}${end}`, { force: true })))
  }
}

/**
 * Fetches the build's data into the file: the reviews synced into its review store (or, kept
 * elsewhere, copied into `build_reviews` product by product), then the summaries, in order.
 */
async function produce(
  db: DatabaseSync,
  file: string,
  options: PrefetchOptions,
  buildId: string,
): Promise<BuildRecord> {
  const own = createSqliteReviewStore<ProductReview>(file)
  try {
    const fetched = await fetchIntoStore({ ...options, store: options.store ?? own }, buildId)
    const { header } = fetched
    const inStore = options.store === undefined && header.report?.mode !== 'named'
    db.prepare('DELETE FROM build_reviews WHERE build = ?').run(buildId)
    if (!inStore) {
      const put = db.prepare('INSERT INTO build_reviews (build, key, json) VALUES (?, ?, ?)')
      for (const id of fetched.wanted) {
        const list = await fetched.list(id)
        transaction(db, () => {
          for (const review of list) put.run(buildId, id, JSON.stringify(review))
        })
      }
    }
    transaction(db, () => {
      db.prepare('DELETE FROM build_summaries WHERE build = ?').run(buildId)
      const put = db.prepare('INSERT INTO build_summaries (build, position, json) VALUES (?, ?, ?)')
      header.summaries.forEach((summary, position) => {
        put.run(buildId, position, JSON.stringify(summary))
      })
      // The summaries of the replica too, which the server reads after the build (`product_summaries`).
      putSummaryRows(db, header.summaries)
    })
    // The summaries of every product the file's store holds, fetched now: they count as the replica's
    // sweep (`sweepReplica`), so that the first sync after a deploy does not fetch them again.
    const held = await own.getCheckpoint()
    if (held !== undefined)
      await own.setCheckpoint({ ...held, sweep: { at: header.fetchedAt, resynced: {} } })
    const { fetchedAt, calls, report } = header
    return { fetchedAt, calls, report, reviews: inStore ? 'store' : 'copy' }
  } finally {
    await own.close()
  }
}

/**
 * Build data whose reviews are read from the file when a page asks for them, through an index (the
 * file stays open in the process): a process holds the summaries, not the reviews.
 */
function fileBuildData(
  db: DatabaseSync,
  buildId: string,
  record: BuildRecord,
  fetchedHere: boolean,
  codec: StoredReviewCodec,
): BuildData {
  const summaries = db
    .prepare('SELECT json FROM build_summaries WHERE build = ? ORDER BY position')
    .all(buildId)
    .map((row) => JSON.parse(row.json as string) as ProductSummary)
  // The review store's rows hold the stored form of each review; `build_reviews`, JSON text.
  const list =
    record.reviews === 'store'
      ? db.prepare('SELECT review FROM reviews WHERE key = ?')
      : db.prepare('SELECT json AS review FROM build_reviews WHERE key = ? AND build = ?')
  const reviews = (productId: string) =>
    (record.reviews === 'store' ? list.all(productId) : list.all(productId, buildId))
      .map((row) => codec.decode<ProductReview>(row.review as string | Uint8Array))
      .sort(newestFirst)
  // The store's own `newest` view, through its index (key, published, id). One product's page (a product
  // page's case) compares its key with `=`, so that SQLite reads the rows in the index's order and stops at
  // the limit, rather than reading all of them into a sort (a list of keys, through `json_each`).
  const newest =
    record.reviews === 'store'
      ? {
          one: db.prepare(viewSql('reviews', 'newest', 'none', false, true)),
          many: db.prepare(viewSql('reviews', 'newest', 'none', false, false)),
        }
      : undefined
  return {
    ...dataOf({ ...record, buildId, summaries }, fetchedHere),
    reviews,
    newestReviews: (productIds, limit) => {
      if (newest === undefined) return newestOf(productIds.map(reviews), limit)
      const rows =
        productIds.length === 1
          ? newest.one.all(productIds[0] as string, limit + 1)
          : newest.many.all(JSON.stringify(productIds), limit + 1)
      return {
        data: rows
          .slice(0, limit)
          .map((row) => codec.decode<ProductReview>(row.review as string | Uint8Array)),
        more: rows.length > limit,
      }
    },
  }
}

/**
 * The data through the share; undefined when the share failed before any data was fetched here (the
 * caller then falls back to the file in `directory`). Data fetched here is never fetched twice: when only
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
        `the build processes of this machine meet through the file in ${options.directory} instead.`,
    )
    return undefined
  }
}

/** A failure of the prefetch share itself (not of the API), after which the file of the machine is used. */
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
  const problem = !isObject(value)
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
    replicaLanguages: options.replicaLanguages,
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
): Omit<BuildData, 'reviews' | 'newestReviews'> {
  const summaries = new Map(file.summaries.map((summary) => [summary.product_variation_id, summary]))
  return {
    summary: (productId) => structuredClone(summaries.get(productId)),
    productIds: Object.freeze(file.summaries.map((summary) => summary.product_variation_id)),
    fetchedAt: file.fetchedAt,
    calls: { ...file.calls },
    report: isObject(file.report) ? (file.report as PrefetchReport) : undefined,
    fetchedHere,
  }
}

function buildData(file: BuildDataFile, fetchedHere: boolean): BuildData {
  const reviews = (productId: string) =>
    structuredClone(Object.hasOwn(file.reviews, productId) ? (file.reviews[productId] ?? []) : [])
  return {
    ...dataOf(file, fetchedHere),
    reviews,
    newestReviews: (productIds, limit) => newestOf(productIds.map(reviews), limit),
  }
}

/** What is wrong with the content of a data file in this format, or undefined. */
function malformed(file: Record<string, unknown>): string | undefined {
  if (!Array.isArray(file.summaries) || !file.summaries.every(isObject)) return 'its summaries are not a list'
  if (!isObject(file.reviews) || !Object.values(file.reviews).every(Array.isArray)) {
    return 'its reviews are not lists by product'
  }
  if (!isObject(file.calls) || typeof file.fetchedAt !== 'string') return 'its calls or fetchedAt are missing'
  return undefined
}
