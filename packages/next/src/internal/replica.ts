import {
  type BrandRating,
  type ProductReview,
  readEnvironment,
  type VerifiedReviewsClient,
} from '@verified-reviews/core'
import {
  type BrandReplica,
  fetchSummaries,
  type ProductReplica,
  processState,
  replicaAccount,
  type SummaryClient,
  sha256Hex,
} from '@verified-reviews/core/internal'
import {
  type BrandReviewsClient,
  type BrandReviewsSyncReport,
  copyReplicaFromFile,
  openSqliteReplica,
  type ProductReviewsClient,
  type ProductReviewsSyncReport,
  type ReviewStore,
  refreshReplicaFromFile,
  type SqliteReplica,
  type SweepClient,
  type SweepReport,
  type SyncMode,
  sweepReplica,
  syncBrandReviews,
  syncProductReviews,
} from '@verified-reviews/core/sync'
import { freshReviewsClient, revalidateSeconds, sharedClientState } from '../clients.ts'
import { LOG_PREFIX } from './log-prefix.ts'
import { buildStorePath, nextDistDir } from './paths.ts'
import { isBuildPhase } from './phase.ts'
import { renderCacheShared, tellLocalReplicaRefused } from './render-cache-sharing.ts'

/**
 * The site's replica of the account on this server: `<distDir>/cache/verified-reviews/replica-<account>.sqlite`
 * (`<account>`: 12 hex digits of the SHA-256 of the client id and the API's origin),
 * beside Next.js's own cache, which `next build` keeps and a redeploy on the same host finds. It is
 * brought up to the build's review store and summaries when the build synced later than it (a deploy),
 * and to the build's brand and shop reviews and statistics (a build with `brandReviews`) alike,
 * then kept current by the revalidate route; every render of a product it holds reads it instead of the
 * API.
 */
export async function replicaPath(distDir?: string): Promise<string> {
  return accountCacheFile('replica', distDir)
}

/**
 * The build data kept between builds: `<distDir>/cache/verified-reviews/build-<account>.sqlite`, the
 * build's file as the last build left it (its review store, synced), from which the next build's file
 * starts, so that its sync is incremental. `next build` keeps the folder, as hosts that cache builds do
 * (`.next/cache`).
 */
export async function keptBuildDataPath(distDir?: string): Promise<string> {
  return accountCacheFile('build', distDir)
}

/** A file of this package in Next.js's cache folder, named after the account (as {@link replicaPath} says). */
async function accountCacheFile(kind: 'replica' | 'build', distDir?: string): Promise<string> {
  const { isAbsolute, join } = await import('node:path')
  const dir = distDir ?? nextDistDir()
  // Keyed by account (client id and origin, never the secret): another account starts a file of its own.
  const account = await accountDigest(replicaAccount(readEnvironment(process.env)))
  return join(
    isAbsolute(dir) ? dir : join(process.cwd(), dir),
    'cache',
    'verified-reviews',
    `${kind}-${account}.sqlite`,
  )
}

/** The 12 hex digits naming an account's replica, computed once per account (every render asks). */
async function accountDigest(account: string): Promise<string> {
  const digests = held().digests
  let digest = digests.get(account)
  if (digest === undefined) {
    digest = sha256Hex(account).then((hex) => hex.slice(0, 12))
    digests.set(account, digest)
  }
  return digest
}

interface Held {
  /** The digest of each account's name, as {@link replicaPath} names its file. */
  digests: Map<string, Promise<string>>
  /** The replica of each file (one per build directory), opened once. */
  opened: Map<string, Promise<SqliteReplica | undefined>>
  /** The seeding of each shared replica from the build's store, once (again after a failure). */
  seeded: WeakMap<ProductReplica, Promise<void>>
  /** Whether the log has said that instances sharing state without a replica read the API. */
  toldNoSharedReplica: boolean
  /** Set by a revalidate route that syncs a store of the user's: this server's own replica is not read. */
  localBypassed: boolean
  /** The sync that renders started because the replica fell behind, while it runs (one at a time). */
  catchingUp: Promise<void> | undefined
}

// One per process: the pages and the route handlers are bundles of their own, and must share one store.
const REPLICA = Symbol.for('verified-reviews.next.replica')
const held = (): Held =>
  processState(REPLICA, () => ({
    digests: new Map(),
    opened: new Map(),
    seeded: new WeakMap(),
    toldNoSharedReplica: false,
    localBypassed: false,
    catchingUp: undefined,
  }))

/**
 * Tells that the revalidate route syncs a store of the user's (`store`), which this server's own
 * replica never sees: from then on renders read the API (or the replica given to `shareClientState`).
 */
export function bypassLocalReplica(): void {
  held().localBypassed = true
}

/**
 * Fills a shared replica that holds no sync yet (a first deploy on a new Redis whose build did not write
 * it) from the build's store: the summaries, then the reviews a few hundred per write, the checkpoint
 * with the last, so that a replica with a checkpoint is whole and an interrupted copy is made again; then
 * the brand part the same way (a build with `brandReviews`), when the replica holds none of it.
 */
async function seedShared(replica: ProductReplica, distDir: string | undefined): Promise<void> {
  const copy = await copyReplicaFromFile(await buildStorePath(distDir), replica, { when: 'empty' })
  if (copy.outcome === 'copied')
    console.log(`${LOG_PREFIX} The shared review replica now holds the build's ${copy.reviews} reviews.`)
  if (copy.brands?.outcome === 'copied')
    console.log(
      `${LOG_PREFIX} The shared review replica now holds the build's ${copy.brands.reviews} brand and shop ` +
        `reviews and ${copy.brands.ratings} statistics.`,
    )
}

/** The replica given to `shareClientState`, filled from the build's store once. */
async function sharedReplica(replica: ProductReplica, distDir: string | undefined): Promise<ProductReplica> {
  const state = held()
  let seeding = state.seeded.get(replica)
  if (seeding === undefined) {
    seeding = seedShared(replica, distDir).catch((error: unknown) => {
      state.seeded.delete(replica)
      throw error
    })
    state.seeded.set(replica, seeding)
  }
  await seeding
  return replica
}

/**
 * Opens the replica and brings it up to the build's store: once per process. A file that cannot be
 * opened (corrupt, or of another format) is moved aside and made again from the build's store, once,
 * said in the log; when that fails too, undefined (the API serves, as without a replica).
 */
async function open(distDir: string | undefined): Promise<SqliteReplica | undefined> {
  const file = await replicaPath(distDir)
  const source = await buildStorePath(distDir)
  const attempt = async () => {
    const replica = openSqliteReplica(file)
    try {
      const refreshed = await refreshReplicaFromFile(replica, source)
      const parts = [
        refreshed.outcome === 'copied' ? 'reviews' : undefined,
        refreshed.brands === 'copied' ? 'brand and shop reviews and statistics' : undefined,
      ].filter((part) => part !== undefined)
      if (parts.length > 0)
        console.log(
          `${LOG_PREFIX} The review replica ${file} now holds the build's ${parts.join(', and its ')}.`,
        )
      return replica
    } catch (error) {
      await replica.close()
      throw error
    }
  }
  try {
    return await attempt()
  } catch (error) {
    const { rename } = await import('node:fs/promises')
    const aside = `${file}.unreadable-${Date.now()}`
    console.error(
      `${LOG_PREFIX} The review replica ${file} could not be read (${(error as Error).message}): ` +
        `moved to ${aside} and made again from the build's reviews.`,
    )
    await rename(file, aside).catch(() => undefined)
    for (const suffix of ['-wal', '-shm'])
      await rename(`${file}${suffix}`, `${aside}${suffix}`).catch(() => undefined)
    try {
      return await attempt()
    } catch (again) {
      console.error(`${LOG_PREFIX} The review replica is unusable; pages read the API.`, again)
      return undefined
    }
  }
}

/**
 * The site's replica: the one given to `shareClientState` (several instances), else this server's
 * SQLite file (opened on first use). Undefined during `next build`, which reads its build data; where
 * the render cache is shared (`markRenderCacheShared`) or instances share their state, without a
 * shared replica (this server's own would differ from the others'); and where there is neither a replica nor a build
 * store to make one from (`next dev`, a build without credentials) unless `create` asks for an empty
 * one (the revalidate route, which fills it).
 */
export async function siteReplica(
  distDir?: string,
  { create = false }: { create?: boolean } = {},
): Promise<ProductReplica | undefined> {
  if (isBuildPhase()) return undefined
  const state = held()
  const shared = sharedClientState()
  if (shared.replica !== undefined) return sharedReplica(shared.replica, distDir)
  if (renderCacheShared()) {
    // Renders stored for every instance must come from data every instance reads: the API, here.
    tellLocalReplicaRefused()
    return undefined
  }
  if (shared.tokenStore !== undefined || shared.rateBudget !== undefined) {
    // Instances that share their state (and most likely their render cache): a replica of this one's own
    // would go stale for the others, so they read the API.
    if (!state.toldNoSharedReplica) {
      state.toldNoSharedReplica = true
      console.log(
        `${LOG_PREFIX} shareClientState was given no replica: pages read the API. Give it ` +
          'createRedisReplica() of @verified-reviews/redis so that every instance reads one replica.',
      )
    }
    return undefined
  }
  if (state.localBypassed) return undefined
  const file = await replicaPath(distDir)
  let replica = state.opened.get(file)
  if (replica === undefined) {
    if (!create && !(await exists(file)) && !(await exists(await buildStorePath(distDir)))) return undefined
    replica = open(distDir)
    state.opened.set(file, replica)
  }
  return replica
}

async function exists(path: string): Promise<boolean> {
  const { access } = await import('node:fs/promises')
  return access(path).then(
    () => true,
    () => false,
  )
}

/**
 * The process's replica when it holds the reviews of `productIds`: a completed sync of the whole
 * account, or of named products among which they all are. Undefined otherwise (no replica yet, as in
 * `next dev` or before a first sync, or products a build did not name): the API serves them.
 */
export async function replicaFor(productIds: readonly string[]): Promise<ProductReplica | undefined> {
  let replica: ProductReplica | undefined
  let checkpoint: Awaited<ReturnType<ProductReplica['reviews']['getCheckpoint']>>
  try {
    replica = await siteReplica()
    checkpoint = await replica?.reviews.getCheckpoint()
  } catch (error) {
    // A shared replica out of reach (Redis down): the API serves, as without one.
    console.error(`${LOG_PREFIX} The review replica is out of reach; pages read the API meanwhile.`, error)
    return undefined
  }
  if (replica === undefined) return undefined
  if (checkpoint?.completedAt === undefined) return undefined
  catchUp(checkpoint.completedAt, 'product', () => syncReplica(replica, freshReviewsClient()))
  if (checkpoint.products !== undefined) {
    const held = new Set(checkpoint.products)
    if (!productIds.every((id) => held.has(id))) return undefined
  }
  return replica
}

/**
 * Starts an incremental sync of the replica, in the background, when its last one completed more than
 * `VERIFIED_REVIEWS_REVALIDATE` seconds ago (an hour): a site that schedules no revalidate call still
 * refreshes its reviews as often as its pages expire. One at a time per process; the render that
 * starts it does not wait for it, and its pages show the new reviews once their cache entries expire.
 */
function catchUp(
  completedAt: string | undefined,
  what: 'product' | 'brand and shop',
  sync: () => Promise<{ newReviews: number; updatedReviews: number }>,
): void {
  const state = held()
  if (state.catchingUp !== undefined) return
  if (completedAt !== undefined && Date.now() - Date.parse(completedAt) < revalidateSeconds() * 1000) return
  const run = sync()
  const first = completedAt === undefined
  state.catchingUp = run
    .then(
      (report) => {
        if (first)
          console.log(
            `${LOG_PREFIX} The review replica now holds the ${what} ` +
              `reviews (${report.newReviews} synced): pages read it from now on.`,
          )
        else if (report.newReviews + report.updatedReviews > 0)
          console.log(
            `${LOG_PREFIX} The review replica caught up: ${report.newReviews} new, ${report.updatedReviews} updated ` +
              `(no revalidate call for ${revalidateSeconds()} s; schedule the revalidate route to refresh pages at once).`,
          )
      },
      (error: unknown) =>
        console.error(`${LOG_PREFIX} The review replica could not catch up; it tries again later.`, error),
    )
    .finally(() => {
      state.catchingUp = undefined
    })
}

/** The sync that renders started, while it runs (tests wait for it). */
export function replicaCatchingUp(): Promise<void> | undefined {
  return held().catchingUp
}

/** What {@link syncReplica} did: the sync, and the day's sweep when one ran (its products among the affected). */
export type ReplicaSyncReport = ProductReviewsSyncReport & { sweep?: SweepReport }

/**
 * An incremental sync of the replica's reviews, then the summaries of the products whose reviews
 * changed (200 a call): what the revalidate route and a render's catch-up both do. Once a day (the
 * build's summaries count as one) the summaries of every held product instead, with the products whose
 * review count disagrees synced again on their own (`sweepReplica`): reviews removed or edited upstream,
 * which the API does not list as changed.
 */
export async function syncReplica(
  replica: ProductReplica,
  client: ProductReviewsClient,
  store: ReviewStore<ProductReview> = replica.reviews,
  mode: SyncMode = 'auto',
): Promise<ReplicaSyncReport> {
  // The reviews and the sweep keep the same languages.
  const { replicaLanguages } = readEnvironment(process.env)
  const report = await syncProductReviews({ client, store, mode, continueNamed: true, replicaLanguages })
  if (report.rebuilt === true)
    console.log(
      `${LOG_PREFIX} The review replica was synced in full: it kept reviews in another form than ` +
        'VERIFIED_REVIEWS_LANGUAGES asks (other languages, or whole).',
    )
  // A client that syncs reviews only (one of the tests) leaves the summaries as they are.
  const lists = typeof (client.products as Partial<SummaryClient['products']>).list === 'function'
  if (!lists) return report
  const sweep = await sweepReplica({
    client: client as unknown as SweepClient,
    replica: { reviews: store, summaries: replica.summaries },
    replicaLanguages,
  })
  if (sweep.swept) {
    const affectedProductIds = [
      ...new Set([...report.affectedProductIds, ...sweep.affectedProductIds]),
    ].sort()
    return { ...report, affectedProductIds, sweep }
  }
  if (report.affectedProductIds.length > 0) {
    const { summaries } = await fetchSummaries(client as unknown as SummaryClient, report.affectedProductIds)
    await replica.summaries.putMany(summaries)
  }
  return report
}

/** How long brand and shop statistics are kept before a sync asks for them again: their 12-month figures move daily. */
const BRAND_RATINGS_MAX_AGE_MS = 24 * 60 * 60 * 1000

/**
 * The brand part of the process's replica when it holds a completed sync of the brand reviews and their
 * statistics. Otherwise undefined, and a sync of them starts in the background (one at a time, as the
 * products' catch-up): the shop page reads the API until it completes, then the replica, with no call.
 */
export async function brandReplicaFor(): Promise<BrandReplica | undefined> {
  let replica: ProductReplica | undefined
  let completedAt: string | undefined
  let fetchedAt: string | undefined
  try {
    // A site whose pages read a replica (its products synced): never `next dev`, nor a site without one.
    replica = await siteReplica()
    if (replica?.brands === undefined) return undefined
    if ((await replica.reviews.getCheckpoint())?.completedAt === undefined) return undefined
    ;[completedAt, fetchedAt] = await Promise.all([
      replica.brands.reviews.getCheckpoint().then((checkpoint) => checkpoint?.completedAt),
      replica.brands.ratings.fetchedAt(),
    ])
  } catch (error) {
    console.error(`${LOG_PREFIX} The review replica is out of reach; pages read the API meanwhile.`, error)
    return undefined
  }
  const { brands } = replica
  catchUp(fetchedAt === undefined ? undefined : completedAt, 'brand and shop', () =>
    syncBrandReplica(brands, freshReviewsClient()),
  )
  return completedAt === undefined || fetchedAt === undefined ? undefined : replica.brands
}

/** What {@link syncBrandReplica} did: the sync of the brand reviews, and the fetch of the statistics when one ran. */
export type BrandReplicaSyncReport = BrandReviewsSyncReport & {
  /** The statistics fetched (the brand's and its shops'), and the calls that took. */
  statistics?: { ratings: number; calls: number }
}

/**
 * An incremental sync of the brand and shop reviews of the replica (a full one the first time), then
 * the statistics of the brand and its shops (one call for 200) when reviews changed or they are older
 * than a day: what the revalidate route, a render's catch-up and a build with `brandReviews` do.
 */
export async function syncBrandReplica(
  brands: BrandReplica,
  client: BrandReviewsClient & { brands: Partial<Pick<VerifiedReviewsClient['brands'], 'list'>> },
  mode: SyncMode = 'auto',
): Promise<BrandReplicaSyncReport> {
  const report = await syncBrandReviews({ client, store: brands.reviews, mode })
  const fetchedAt = await brands.ratings.fetchedAt()
  const stale = fetchedAt === undefined || Date.now() - Date.parse(fetchedAt) >= BRAND_RATINGS_MAX_AGE_MS
  // A client that syncs reviews only (one of the tests) leaves the statistics as they are.
  const list = client.brands.list?.bind(client.brands)
  if (list === undefined || (!stale && report.affectedShopKeys.length === 0)) return report
  const now = new Date().toISOString()
  let page = await list({ limit: 200 })
  const ratings: BrandRating[] = [...page.data]
  let calls = 1
  while (page.hasNextPage()) {
    page = await page.getNextPage()
    calls++
    ratings.push(...page.data)
  }
  await brands.ratings.replaceAll(ratings, now)
  return { ...report, statistics: { ratings: ratings.length, calls } }
}
