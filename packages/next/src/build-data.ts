import {
  type ProductReview,
  type ProductSummary,
  readEnvironment,
  VerifiedReviewsError,
} from '@verified-reviews/core'
import {
  type BuildData,
  createReviewsCatalog,
  prefetchBuildData,
  prefetchProgressLog,
  type ReviewsCatalog,
} from '@verified-reviews/core/prefetch'
import { freshReviewsClient } from './clients.ts'
import { buildsBrandReviews, syncBuildBrandReviews } from './internal/build-brands.ts'
import { buildCheckProblem } from './internal/build-check.ts'
import { handedBuildOptions } from './internal/build-handoff.ts'
import { readBuildProducts } from './internal/build-products.ts'
import { writeBuildReplica } from './internal/build-replica.ts'
import { LOG_PREFIX } from './internal/log-prefix.ts'
import { buildDirectory } from './internal/paths.ts'
import { isBuildPhase } from './internal/phase.ts'
import { keptBuildDataPath } from './internal/replica.ts'

export type { BuildData } from '@verified-reviews/core/prefetch'

/** What the build prefetch holds of one product. */
export interface PrefetchedProduct {
  /** The product's summary (rating, histogram, criteria, AI summary); undefined when the API does not know it. */
  summary: ProductSummary | undefined
  /** Every review of the product, newest published first. */
  reviews: ProductReview[]
}

export { isBuildPhase }

/**
 * Names this build: build workers are children of the `next build` process, whose pid then names it, so
 * that data left by another build (in a folder `next build` did not empty) is never read.
 */
function buildId(): string {
  return `next-build-${process.env.IS_NEXT_WORKER === 'true' ? process.ppid : process.pid}`
}

/**
 * The review data of the catalogue for `next build`, fetched once for every page and every build
 * worker: the product summaries (200 per call) and one review sync (200 reviews per call), so a build of
 * N product pages costs ceil(reviews / 200) + ceil(N / 200) calls. When `withVerifiedReviews` names the
 * products the build prerenders (`products`), their reviews alone are fetched (lists of up to 200 ids,
 * 200 reviews per call) whenever that costs fewer calls than the sync. The first worker to ask fetches into
 * the SQLite file `.next/verified-reviews/reviews.sqlite`; the others wait, then each reads a product's
 * reviews from it when a page asks. `next build` empties
 * that folder when it starts, so every build fetches afresh; the review store it leaves there is where
 * the revalidate route starts from after `next start`. With `withRedisCache` of
 * `@verified-reviews/redis/next-config` and `REDIS_URL`, the process that fetched then copies that store
 * into the replica in Redis that the servers read (when it is empty or older than the build's sync), so
 * that servers without the build's files (`output: 'standalone'`, serverless functions) read it too.
 * With `withVerifiedReviews({ brandReviews: true })`, that process also syncs the brand and shop reviews
 * (⌈B/200⌉ calls) and their statistics (one call) into the store first, and says so in the build log.
 *
 * The build log shows its progress (`reviews 1,400/3,000, 7 calls`), what a waiting worker waits for,
 * and a closing line with the calls made against the lower bound. When the credentials check at the
 * start of the build (`withVerifiedReviews` in `next.config`) failed, it rejects at once, making no call.
 *
 * Outside `next build` it resolves to `undefined`: pages then read the API through the data cache.
 * The components of this package use it by themselves; call it for data of your own (a sitemap, a
 * product listing). Its folder is `<distDir>/verified-reviews/`: `withVerifiedReviews` hands the
 * config's `distDir` to the build workers; without it, set `VERIFIED_REVIEWS_DIST_DIR` when
 * `next.config` sets another `distDir`.
 */
export async function getBuildData(): Promise<BuildData | undefined> {
  if (!isBuildPhase()) return undefined
  return prefetchBuildData(await buildOptions())
}

/**
 * Fetches the build's data ahead of its pages, in the process that `withVerifiedReviews` starts while
 * `next build` compiles (`internal/build-ahead-child.ts`), named after the same build: the workers then
 * find it fetched, or wait for it. Until its `afterFetch` has run (the brand reviews, the copy into
 * Redis) they wait too; when it fails, the first worker to ask fetches again, as it would have without it.
 */
export async function fetchBuildDataAhead(): Promise<void> {
  await prefetchBuildData({ ...(await buildOptions()), ahead: true })
}

/** What the pages of a build fetch with: the same data, so that every process shares one fetch. */
async function buildOptions() {
  const problem = buildCheckProblem()
  if (problem !== undefined) throw new VerifiedReviewsError(`no build data: ${problem}`)
  const productIds = await namedProducts(handedBuildOptions().buildProducts)
  return {
    client: freshReviewsClient(),
    ...(productIds === undefined ? {} : { productIds }),
    // The build's store becomes the server's replica: it keeps what the site's pages show.
    replicaLanguages: readEnvironment(process.env).replicaLanguages,
    // The review store is `reviews.sqlite` in `directory` (`buildStorePath`), where the revalidate
    // route starts from. `next build` empties the folder: a build naming few products of a large
    // account fetches theirs.
    keptStore: false,
    // The file as the last build left it, in `.next/cache`, which `next build` keeps: this build's file
    // starts from it, and its sync is incremental.
    keptFile: await keptBuildDataPath(),
    onProgress: prefetchProgressLog((line) => console.log(`${LOG_PREFIX} ${line}`), {
      namingHint: '`products` of withVerifiedReviews in next.config',
    }),
    directory: await buildDirectory(),
    buildId: buildId(),
    // With `brandReviews`, the brand and shop reviews and statistics join the build's store, once; with
    // `withRedisCache` and REDIS_URL, the servers read a replica in Redis: the build writes it.
    afterFetch: buildsBrandReviews() ? afterFetchWithBrands : writeBuildReplica,
  }
}

/** What the process that fetched does next with `brandReviews`: the brand part, then the copy into Redis. */
async function afterFetchWithBrands(file: string): Promise<void> {
  await syncBuildBrandReviews(file)
  await writeBuildReplica(file)
}

/** The products the build names, read once per file. */
async function namedProducts(path: string | undefined): Promise<string[] | undefined> {
  if (path === undefined) return undefined
  if (named?.path !== path) named = { path, ids: await readBuildProducts(path) }
  return named.ids
}
let named: { path: string; ids: string[] | undefined } | undefined

/**
 * The catalog of `next build`, over {@link getBuildData}'s data: the first page of a product's reviews
 * that the components render, and the ratings of product cards. Undefined outside `next build`.
 */
export async function buildCatalog(): Promise<ReviewsCatalog | undefined> {
  if (!isBuildPhase()) return undefined
  // One catalog per build folder and build, made with the options of its first call: every page calls
  // this, and finds it before making those options again (a client, the environment read some six times).
  const key = `${await buildDirectory()}\u0000${buildId()}`
  const made = catalogs.get(key)
  if (made !== undefined) return made
  const { directory, buildId: id, afterFetch, ...options } = await buildOptions()
  // Another page's first call may have made it meanwhile.
  let catalog = catalogs.get(key)
  if (catalog === undefined) {
    catalog = createReviewsCatalog({ ...options, sharing: { directory, buildId: id, afterFetch } })
    catalogs.set(key, catalog)
  }
  return catalog
}
const catalogs = new Map<string, ReviewsCatalog>()

/**
 * One product's summary and reviews from {@link getBuildData}, or `undefined` outside `next build`.
 *
 * @example
 * const built = await prefetchedProductReviews('SKU-001')
 * const rating = built?.summary?.ratings // no API call during the build
 */
export async function prefetchedProductReviews(productId: string): Promise<PrefetchedProduct | undefined> {
  const data = await getBuildData()
  if (data === undefined) return undefined
  return { summary: data.summary(productId), reviews: data.reviews(productId) }
}
