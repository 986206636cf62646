import { join } from 'node:path'
import {
  type ClientOptions,
  createClient,
  type Language,
  type ProductReview,
  type VerifiedReviewsClient,
} from '@verified-reviews/core'
import { createMemoryCache } from '@verified-reviews/core/cache'
import type { Locale } from '@verified-reviews/core/i18n'
import { processState } from '@verified-reviews/core/internal'
import {
  type BuildProblem,
  type BuildSettingNames,
  createReviewsCatalog,
  prefetchProgressLog,
  type ReviewsCatalog,
} from '@verified-reviews/core/prefetch'
import { createMemoryReviewStore, createSqliteReviewStore } from '@verified-reviews/core/sync'
import type { TrailingSlash } from '@verified-reviews/inject'
import type { AstroIntegrationLogger } from 'astro'
import { type BuildCalls, countingFetch, emptyCalls } from './build-report.ts'

/** What the integration, the loaders and the components of one Astro process share. */
export interface SharedState {
  /** Client options resolved by the integration; undefined without the integration (the environment then applies). */
  clientOptions: ClientOptions | undefined
  /** `dev`, `build`…: the command under way, when the integration is installed. */
  command: string | undefined
  /** Folder where the synced reviews are kept between builds; undefined keeps nothing. */
  storeDir: string | undefined
  /** Default language of the components. */
  locale: Locale | undefined
  /** The products the build names (the integration's `products`); undefined for every product. */
  productIds: readonly string[] | undefined
  /**
   * The languages of the site's pages (`VERIFIED_REVIEWS_LANGUAGES`): the build's store keeps each review
   * with these translations alone (`replicaLanguages`); undefined keeps reviews whole.
   */
  replicaLanguages: readonly Language[] | undefined
  client: VerifiedReviewsClient | undefined
  /**
   * The build's catalog: the product reviews loader's (over the content store it synced), else one the
   * components or the injection created; what every page, the ratings loader and the injection read.
   */
  catalog: ReviewsCatalog | undefined
  /**
   * The integration's logger, through which the catalog, the components and the injection write to the
   * build log (the loaders have their own); undefined without the integration.
   */
  logger: AstroIntegrationLogger | undefined
  /** The integration's `failOnError`, else `VERIFIED_REVIEWS_FAIL_ON_ERROR`; undefined for the default. */
  failOnError: boolean | undefined
  /** How the build log names the client's settings: their variable, or the integration's option. */
  settingNames: BuildSettingNames
  /**
   * Why this build has no review data, when the check at its start found a problem and the build goes
   * on: the check said it once, so loaders, components and the injection neither fetch nor say it again.
   */
  buildProblem: BuildProblem | undefined
  /** The failures of this run already written to the log, each written once. */
  toldFailures: Set<string>
  /** The API calls this build made through the shared client, by data. */
  calls: BuildCalls
  /** How the site writes its page URLs (from the Astro config); undefined without the integration. */
  pageUrls: PageUrlSettings | undefined
}

/** The settings of the Astro config that decide a page's URL, the `@id` of its Product node. */
export interface PageUrlSettings {
  trailingSlash: TrailingSlash
  /** Astro's `build.format`: `'directory'` writes `about/index.html`, `'file'` `about.html`. */
  format: 'file' | 'directory' | 'preserve'
}

// Why globalThis: Astro loads astro.config (the integration), content.config.ts (the loaders) and the
// pages through module graphs of their own, and the last two run this package as Vite modules (its
// .astro components keep it out of Vite's externals): each graph has its own copy of this file (an
// `astro build` of a fixture evaluates it three times), so a module variable would not be shared. The state lives under a registered symbol, read through this module only;
// the loaders do not need it (see `integrationInstalled`). Listed with every other state kept on globalThis
// in core's internal/base/process-state.ts.
const KEY = Symbol.for('@verified-reviews/astro')

function initialState(): SharedState {
  return {
    clientOptions: undefined,
    command: undefined,
    storeDir: undefined,
    locale: undefined,
    productIds: undefined,
    replicaLanguages: undefined,
    client: undefined,
    catalog: undefined,
    logger: undefined,
    failOnError: undefined,
    settingNames: {},
    buildProblem: undefined,
    toldFailures: new Set(),
    calls: emptyCalls(),
    pageUrls: undefined,
  }
}

/** The state of this process. */
export function shared(): SharedState {
  return processState(KEY, initialState)
}

/**
 * Whether the integration is installed in this process (its `astro:config:setup` ran): loaders then share
 * its client, catalog and failure policy; without it each loader has its own, from the environment.
 */
export function integrationInstalled(): boolean {
  return shared().command !== undefined
}

/** Starts a new build (or dev session): drops the data fetched by the previous one in this process. */
export function startRun(
  settings: Pick<SharedState, 'clientOptions' | 'command' | 'storeDir' | 'locale'> &
    Partial<Pick<SharedState, 'logger' | 'productIds' | 'replicaLanguages' | 'failOnError' | 'settingNames'>>,
): void {
  Object.assign(shared(), initialState(), settings)
}

/**
 * The client the loaders and components use by default: the integration's options, else the
 * `VERIFIED_REVIEWS_*` environment, which the core's settings resolver reads for what they leave out, as
 * for the React and Next.js packages. Its GET answers are cached in memory for five minutes, so pages
 * rendered on demand share them.
 */
export function sharedClient(): VerifiedReviewsClient {
  const state = shared()
  state.client ??= createClient({
    ...state.clientOptions,
    cache: createMemoryCache(),
    // Counts the build's API calls for its closing line, around the fetch of the options if they give one.
    fetch: countingFetch(state.clientOptions?.fetch, () => shared().calls),
  })
  return state.client
}

/**
 * The catalog every prerendered page and the injection share in one build: the product reviews
 * loader's, when it ran; else one that syncs into the store kept between builds (incremental after the
 * first), or fetches the reviews of the products the integration names when that costs fewer calls,
 * its progress and closing line in the build log.
 */
export function sharedCatalog(): ReviewsCatalog {
  const state = shared()
  state.catalog ??= createReviewsCatalog({
    client: sharedClient(),
    productIds: state.productIds,
    replicaLanguages: state.replicaLanguages,
    store:
      state.storeDir === undefined
        ? createMemoryReviewStore<ProductReview>()
        : // The JSON file store of earlier versions, imported once: no full resync on upgrading.
          createSqliteReviewStore<ProductReview>(join(state.storeDir, 'product-reviews.sqlite'), {
            importJsonFileStore: join(state.storeDir, 'product-reviews.json'),
          }),
    onProgress: prefetchProgressLog((line) => state.logger?.info(line), {
      namingHint: '`products` of the verifiedReviews() integration in astro.config',
    }),
  })
  return state.catalog
}

/**
 * Starts the build's fetch (the summaries, then the review sync or the named products' reviews) while
 * Vite bundles the pages (`astro:build:start`), rather than when the first page asks for it: the API's
 * answers come meanwhile, and the pages find the data fetched, or wait for the same fetch. Nothing when
 * a loader made the catalog (it fetched already), outside `astro build`, or when the check at the start
 * of the build found no review data. A failure is left to the pages: the catalog keeps successes only,
 * so the first page to ask fetches again and meets it itself, as it would have.
 */
export function fetchCatalogAhead(): void {
  const state = shared()
  if (state.catalog !== undefined || state.command !== 'build' || state.buildProblem !== undefined) return
  sharedCatalog()
    .syncReport()
    .catch(() => {})
}
