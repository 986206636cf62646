/**
 * `@verified-reviews/next/config`: helpers for `next.config.ts`. This entry holds no credentials and
 * imports nothing of the server, so the config file can import it.
 *
 * @module
 */
import { fileURLToPath } from 'node:url'
import { handToBuildWorkers } from './internal/build-handoff.ts'

/** Options of {@link withVerifiedReviews}. */
export interface VerifiedReviewsBuildOptions {
  /**
   * Whether `next build` stops when review data cannot be fetched. `true`: it stops for any problem,
   * missing credentials included (a CI build that must ship reviews). `false`: it never stops; the
   * pages are built without reviews and the build log says why once (a preview build without access
   * to the API). Left out: it stops when credentials are set but refused (401 or 403 from the token
   * endpoint) or the API cannot be reached, and builds the pages without reviews, saying so once, when
   * no credentials are set (a fresh clone). The build workers inherit it through
   * `VERIFIED_REVIEWS_FAIL_ON_ERROR`.
   * @default VERIFIED_REVIEWS_FAIL_ON_ERROR (1, true or yes; 0, false or no), else undefined: stop for refused credentials and an API out of reach only
   */
  failOnError?: boolean
  /**
   * The products (`product_variation_id`) the build prerenders, or a function that gives them (the ids
   * your `generateStaticParams` returns). The build then fetches their summaries (200 per call) and,
   * when that costs fewer calls than the sync of every review of the account, their reviews alone (lists
   * of up to 200 ids): a site that prerenders 2 product pages makes 2 calls instead of one per 200
   * reviews of the account. The build workers find the list through `VERIFIED_REVIEWS_BUILD_PRODUCTS`.
   * @default undefined (every product and review of the account)
   */
  products?: readonly string[] | (() => readonly string[] | Promise<readonly string[]>)
  /**
   * Whether the build also syncs the brand and shop reviews (200 a call, ⌈B/200⌉ calls for B reviews)
   * and the statistics of the brand and its shops (one call for 200 shops) into its review store, once,
   * in the build process that fetched the product data, and says so in the build log. A site with a
   * shop page (`BrandReviews`) turns it on: the server's replica is then brought up to them at its
   * start (its file, or Redis with `withRedisCache`), the shop page reads them from the first request,
   * and the first revalidate call after a deploy goes on incrementally (one call when no shop review
   * arrived). Without it, the build makes no such call; the first revalidate call after each deploy
   * walks every brand review, and until a first sync of them completed (that call, or one started in
   * the background by the first shop render) the shop page reads the API. The build workers find it
   * through `VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS`.
   * @default VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS (1, true or yes; 0, false or no), else false
   */
  brandReviews?: boolean
  /**
   * Whether `next build` fetches the review data while it compiles, rather than when its first page asks
   * for it: once the config is loaded, a process of this package's (started by `next build`'s own,
   * after the credentials check passed) waits until `next build` has emptied its `distDir`, then fetches
   * into the build's SQLite file, and the build workers find the data there, or wait for it. A build
   * is shorter by about the fetch's time, with the same calls. A fetch that fails is left to the pages,
   * which fetch again and meet the failure as they would have. Not for `next build --experimental-build-mode`
   * other than `default`. Turn it off for a build whose pages read no review data: it would then fetch
   * what they never read.
   * @default true
   */
  fetchDuringCompile?: boolean
}

/** What `next.config` may export: a config, or a function of the phase that gives one. */
export type NextConfigExport<C extends object> =
  | C
  | ((phase: string, context: { defaultConfig: C }) => C | Promise<C>)

/**
 * Wraps the Next.js config so that `next build` says at its start, once, whether it will have review
 * data: it checks the credentials with one token request (no API call) and logs the origin that
 * accepted them, or stops the build when they are refused or the API cannot be reached, naming the
 * variable or the address. Without credentials it says once that the pages are built without reviews
 * (`VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET are not set`), and the build workers
 * skip the prefetch instead of failing on every page. `failOnError` changes what stops the build. Other
 * commands (`next dev`, `next start`) skip the check. When the check passed, the build's review data is
 * then fetched while Next.js compiles, in a process of this package's (`fetchDuringCompile`).
 *
 * In every phase it hands the config's `distDir` to the processes Next.js starts (its build workers, the
 * server) through `VERIFIED_REVIEWS_DIST_DIR`, so that the build data goes in `<distDir>/verified-reviews/`,
 * which each build empties, and `next start` reads it there. It also installs caches that never store a render from an API failure over a good one,
 * where the config names no handler of its own: Next.js's `FileSystemCache` as `cacheHandler`, and
 * Next.js's in-memory `'use cache'` handler (served stale until each entry's `expire`) as
 * `cacheHandlers.default` and `.remote`. A handler the config or the platform names is kept; a config
 * that sets `cacheMaxMemorySize` keeps Next.js's in-memory `'use cache'` handler.
 *
 * @example
 * // next.config.ts
 * import { withVerifiedReviews } from '@verified-reviews/next/config'
 * export default withVerifiedReviews({ cacheComponents: true }, { failOnError: process.env.CI === 'true' })
 */
export function withVerifiedReviews<C extends object>(
  config: NextConfigExport<C>,
  options: VerifiedReviewsBuildOptions = {},
): (phase: string, context: { defaultConfig: C }) => Promise<C> {
  return async (phase, context) => {
    if (phase === 'phase-production-build') {
      // Handed before Next.js starts its build workers, which inherit them.
      handToBuildWorkers({ failOnError: options.failOnError, buildBrandReviews: options.brandReviews })
      if (options.products !== undefined) {
        const { writeBuildProducts } = await import('./internal/build-products.ts')
        await writeBuildProducts(options.products)
      }
      const { checkBuildOnce } = await import('./internal/build-check.ts')
      await checkBuildOnce(console)
    }
    const resolved = typeof config === 'function' ? await config(phase, context) : config
    // The build data folder follows `distDir`, which `next build` empties: its workers (and `next start`)
    // inherit it, as the build's other options, before Next.js starts them.
    const { distDir } = resolved as { distDir?: unknown }
    if (typeof distDir === 'string' && distDir.trim() !== '') handToBuildWorkers({ distDir })
    if (phase === 'phase-production-build' && options.fetchDuringCompile !== false) {
      const { startFetchAhead } = await import('./internal/build-ahead.ts')
      await startFetchAhead(resolved)
    }
    return withFailSafeCaches(resolved, context.defaultConfig)
  }
}

/** The `'use cache'` handler kinds Next.js has in memory unless the config names a handler. */
const USE_CACHE_KINDS = ['default', 'remote'] as const

/** A handler module of this package, beside this file (dist/cache-handlers/ once built). */
function handlerPath(name: 'incremental-cache' | 'use-cache'): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
  return fileURLToPath(new URL(`./cache-handlers/${name}${extension}`, import.meta.url))
}

/**
 * `config` with the caches of this package wherever it leaves Next.js's own: the incremental cache
 * (Next.js's `FileSystemCache`) when it names no `cacheHandler`, and the `'use cache'` handler (Next.js's
 * in-memory one) for each of the `default` and `remote` kinds it names no handler for; neither stores a
 * render from an API failure over a good one. A handler the config (or the platform, through Next.js's
 * default config) names is kept: wrap it with `failSafeIncrementalCache` or `failSafeUseCacheHandler`
 * (`@verified-reviews/next/cache-handlers`); those of `withRedisCache` are. A `cacheMaxMemorySize` of its
 * own keeps Next.js's in-memory `'use cache'` handler, which this package's could not size alike.
 */
function withFailSafeCaches<C extends object>(config: C, defaultConfig: object): C {
  const own = config as { cacheHandler?: unknown; cacheHandlers?: Record<string, string | undefined> }
  const platform = (defaultConfig as { cacheHandlers?: Record<string, string | undefined> } | undefined)
    ?.cacheHandlers
  const result: Record<string, unknown> = { ...(config as Record<string, unknown>) }
  if (own.cacheHandler === undefined) result.cacheHandler = handlerPath('incremental-cache')
  if (!('cacheMaxMemorySize' in config) || config.cacheMaxMemorySize === undefined) {
    const missing = USE_CACHE_KINDS.filter((kind) => !own.cacheHandlers?.[kind] && !platform?.[kind])
    if (missing.length > 0) {
      const useCache = handlerPath('use-cache')
      result.cacheHandlers = {
        ...own.cacheHandlers,
        ...Object.fromEntries(missing.map((kind) => [kind, useCache])),
      }
    }
  }
  return result as C
}

/** The search params that choose a view of the reviews: the page of reviews, the order, the rates kept. */
export const REVIEW_VIEW_PARAMS = ['vr_cursor', 'vr_sort', 'vr_rate'] as const

/** A rewrite as `next.config`'s `rewrites()` takes it. */
export interface ReviewViewRewrite {
  source: string
  destination: string
  has: [{ type: 'query'; key: (typeof REVIEW_VIEW_PARAMS)[number] }]
}

/** A static page, and the dynamic page that shows it with a view of its reviews. */
export interface ReviewViewRoute {
  /** The static page, as a Next.js path pattern (`/:locale/products/:id`). */
  source: string
  /** A page that renders the same and passes its `searchParams` to the reviews (`/:locale/products/:id/reviews`). */
  destination: string
}

/**
 * Rewrites for `next.config`'s `rewrites().beforeFiles`, so that the plain links of the reviews (next
 * page, sort and rate, which carry `vr_cursor`, `vr_sort` or `vr_rate`) work without JavaScript on a
 * static (ISR) page. A static page cannot read search params; with any of these, the request is
 * rewritten to `destination`, a dynamic page that does, and the address bar keeps the static URL.
 * Requests without them still get the static page.
 *
 * @example
 * // next.config.ts
 * import { reviewViewRewrites } from '@verified-reviews/next/config'
 * export default {
 *   async rewrites() {
 *     return { beforeFiles: reviewViewRewrites({ source: '/:locale/products/:id', destination: '/:locale/products/:id/reviews' }) }
 *   },
 * }
 */
export function reviewViewRewrites(
  routes: ReviewViewRoute | readonly ReviewViewRoute[],
): ReviewViewRewrite[] {
  const list: readonly ReviewViewRoute[] = Array.isArray(routes) ? routes : [routes as ReviewViewRoute]
  return list.flatMap(({ source, destination }) =>
    REVIEW_VIEW_PARAMS.map((key) => ({
      source,
      destination,
      has: [{ type: 'query' as const, key }] as ReviewViewRewrite['has'],
    })),
  )
}
