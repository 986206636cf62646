import { fileURLToPath } from 'node:url'
import type { ClientOptions } from '@verified-reviews/core'
import { type Locale, SUPPORTED_LOCALES } from '@verified-reviews/core/i18n'
import { type InjectProgress, type InjectReport, injectProductJsonLd } from '@verified-reviews/inject'
import type { AstroIntegration, AstroIntegrationLogger } from 'astro'
import { buildWithoutReviewData, checkBuild, reviewDataFailed } from './internal/build-check.ts'
import { describeBuildCalls } from './internal/build-report.ts'
import { checkOptions } from './internal/check-options.ts'
import { projectEnvironment } from './internal/env.ts'
import { fetchCatalogAhead, shared, sharedCatalog, startRun } from './internal/shared.ts'
import { keepStarFile } from './internal/star-file.ts'
import { VerifiedReviewsOptionError } from './option-error.ts'

const NAME = '@verified-reviews/astro'

/** Client options other than the credentials and the origin, which have options of their own. */
export type IntegrationClientOptions = Omit<ClientOptions, 'clientId' | 'clientSecret' | 'origin'>

/** Options of {@link verifiedReviews}. Every one is optional: `npx astro add` writes `verifiedReviews()`. */
export interface VerifiedReviewsOptions {
  /**
   * Client id of the API credentials.
   * @default VERIFIED_REVIEWS_CLIENT_ID, from the environment or the project's `.env` files
   */
  clientId?: string
  /**
   * Client secret of the API credentials. Prefer the environment variable: a secret written in
   * `astro.config` ends up in the repository.
   * @default VERIFIED_REVIEWS_CLIENT_SECRET, from the environment or the project's `.env` files
   */
  clientSecret?: string
  /**
   * One origin that replaces scheme, host and port of every API address (a sandbox, a proxy).
   * @default VERIFIED_REVIEWS_ORIGIN, else the production addresses
   */
  origin?: string
  /**
   * Other options of the client (`timeout`, `maxRetries`, `onRateLimit`…), as `createClient` takes them.
   * @default {}
   */
  client?: IntegrationClientOptions
  /**
   * After the build, add review rich snippets (one JSON-LD Product node) to every page that marks its
   * product with `<meta name="verified-reviews:product" content="SKU">` or a
   * `data-verified-reviews-product` attribute.
   * @default true
   */
  injectJsonLd?: boolean
  /**
   * Most reviews marked up per product by the injection; 0 marks up the rating alone.
   * @default 5
   */
  maxReviews?: number
  /**
   * Mark up syndicated reviews (`syndicated_review: true`) in the injection too; Google asks not to
   * mark up reviews collected on other sites, so they are left out by default.
   * @default false
   */
  syndicatedReviews?: boolean
  /**
   * Opts in to marking up each product's AI summary, in the injection, as a review by this organization;
   * without it the summary is not marked up (it is no consumer's review). The components take their own
   * `reviewSummaryAuthor` prop.
   * @default undefined (not marked up)
   */
  reviewSummaryAuthor?: string
  /**
   * Keep the synced reviews in Astro's `cacheDir` between builds, so that every build after the first
   * fetches only the reviews published since. Keep the cache directory in CI to benefit.
   * @default true
   */
  incremental?: boolean
  /**
   * The products (`product_variation_id`) the build renders, or a function that returns them (from your
   * catalogue), when no `productReviewsLoader` syncs the reviews: the build's catalog then fetches their
   * summaries (200 per call) and, when that costs fewer calls than the sync of every review, their
   * reviews alone (lists of up to 200 ids). The build log says which it chose.
   * @default undefined (every product and review of the account)
   */
  products?: readonly string[] | (() => readonly string[] | Promise<readonly string[]>)
  /**
   * Language of the components when a page gives none (and Astro's i18n routing gives no current locale).
   * @default 'en'
   */
  locale?: Locale
  /**
   * Whether `astro build` stops when review data cannot be fetched. `true`: it stops for any problem,
   * missing credentials included (a CI build that must ship reviews). `false`: it never stops; the pages
   * are built without reviews and the build log says why once (a preview build without access to the
   * API). Left out: it stops when credentials are set but refused (401 or 403 from the token endpoint)
   * or the API cannot be reached, and builds the pages without reviews, saying so once, when no
   * credentials are set (a fresh clone).
   * @default VERIFIED_REVIEWS_FAIL_ON_ERROR (1, true or yes; 0, false or no), else undefined: stop for refused credentials and an API out of reach only
   */
  failOnError?: boolean
  /**
   * Whether `astro build` fetches the review data while Vite bundles the pages (from `astro:build:start`),
   * rather than when the first page asks for it: the build is shorter by about the time the two overlap,
   * with the same calls. Not when a content loader fetched it already, nor with `output: 'server'`
   * (whose pages render on demand). Turn it off for a build whose pages read no review data: it would
   * then fetch what they never read.
   * @default true
   */
  fetchDuringCompile?: boolean
}

const OPTION_RULES = {
  clientId: { kind: 'string' },
  clientSecret: { kind: 'string' },
  origin: { kind: 'url' },
  client: { kind: 'object' },
  injectJsonLd: { kind: 'boolean' },
  maxReviews: { kind: 'integer', min: 0, max: 100 },
  syndicatedReviews: { kind: 'boolean' },
  reviewSummaryAuthor: { kind: 'string' },
  incremental: { kind: 'boolean' },
  products: { kind: 'stringsOrFunction' },
  locale: { kind: 'oneOf', values: SUPPORTED_LOCALES },
  failOnError: { kind: 'boolean' },
  fetchDuringCompile: { kind: 'boolean' },
} as const

const MAX_LISTED_FILES = 5

function logSkipped(logger: AstroIntegrationLogger, report: InjectReport): void {
  const byReason = new Map<string, string[]>()
  for (const { file, reason } of report.skippedPages) {
    byReason.set(reason, [...(byReason.get(reason) ?? []), file])
  }
  for (const [reason, files] of byReason) {
    const listed = files.slice(0, MAX_LISTED_FILES).join(', ')
    const more = files.length > MAX_LISTED_FILES ? ` and ${files.length - MAX_LISTED_FILES} more` : ''
    logger.warn(`${files.length} page(s) left without review markup: ${reason} (${listed}${more})`)
  }
  for (const { file, reason } of report.failedPages) logger.error(`${file}: ${reason}`)
}

function progressLogger(logger: AstroIntegrationLogger): (progress: InjectProgress) => void {
  return ({ phase, done, total }) => {
    if (done !== 0) return
    if (phase === 'scan') logger.info(`Looking for product markers in ${total} page(s)`)
    if (phase === 'fetch') logger.info('Fetching ratings and reviews in bulk')
    if (phase === 'write') logger.info(`Adding review rich snippets to ${total} page(s)`)
  }
}

/**
 * The Astro integration of Verified Reviews (Skeepers). With no options, credentials come from
 * `VERIFIED_REVIEWS_CLIENT_ID` and `VERIFIED_REVIEWS_CLIENT_SECRET` (the environment or `.env`). It shares
 * one client and one review sync between the content loaders, the components and, after the build,
 * the injection of review rich snippets into every page that marks its product. At the start of
 * `astro build` it checks the credentials with one token request: refused credentials or an API out of
 * reach stop the build with one line naming the variable or the address, and a build without
 * credentials says once that its pages have no reviews (see `failOnError`).
 *
 * @throws VerifiedReviewsOptionError naming the option at fault, when the config is loaded.
 *
 * @example
 * ```js
 * // astro.config.mjs
 * import verifiedReviews from '@verified-reviews/astro'
 * export default defineConfig({ site: 'https://shop.example', integrations: [verifiedReviews()] })
 * ```
 */
export function verifiedReviews(options: VerifiedReviewsOptions = {}): AstroIntegration {
  checkOptions(NAME, options, OPTION_RULES)
  for (const name of ['clientId', 'clientSecret', 'origin'] as const) {
    if (options.client !== undefined && name in options.client) {
      throw new VerifiedReviewsOptionError(
        NAME,
        `client.${name}`,
        `is an option of its own: pass ${name} instead`,
      )
    }
  }
  const injectJsonLd = options.injectJsonLd ?? true
  const maxReviews = options.maxReviews ?? 5
  let site: string | undefined
  // Whether the build prerenders its pages (`output: 'static'`, the default), which read the build's
  // data; with `output: 'server'` they render on demand, and the build fetches nothing ahead for them.
  let prerenders = true

  /** Adds review rich snippets to the built pages, and logs what it did. */
  const inject = async (dir: URL, logger: AstroIntegrationLogger): Promise<void> => {
    if (site === undefined) {
      logger.warn(
        'No `site` in the Astro config: only pages with <link rel="canonical" href="https://…"> get review ' +
          'rich snippets, since their Product node needs an absolute URL.',
      )
    }
    const pageUrls = shared().pageUrls
    let report: InjectReport
    try {
      report = await injectProductJsonLd({
        dir,
        ...(site === undefined ? {} : { site }),
        // Astro serves `about.html` (build.format 'file') at /about, as its components name the page.
        cleanUrls: true,
        ...(pageUrls === undefined ? {} : { trailingSlash: pageUrls.trailingSlash }),
        catalog: sharedCatalog(),
        maxReviews,
        syndicatedReviews: options.syndicatedReviews === true,
        ...(options.reviewSummaryAuthor === undefined
          ? {}
          : { reviewSummaryAuthor: options.reviewSummaryAuthor }),
        onProgress: progressLogger(logger),
        logger,
      })
    } catch (error) {
      // Stops the build for refused credentials or an API out of reach; else leaves the pages as they are.
      reviewDataFailed('Review rich snippets not added', error, 'log', logger)
      return
    }
    logSkipped(logger, report)
    if (report.markedPages === 0) {
      // Not a failure: the review components render their own JSON-LD unless a page leaves it to this step.
      logger.info(
        `Review rich snippets: nothing to add after the build, since none of the ${report.pages} built ` +
          'page(s) leaves them to this step (the review components render their own JSON-LD; a page ' +
          'leaves it here with <ProductReviews jsonLd={false}> or <meta name="verified-reviews:product" content="…">)',
      )
      return
    }
    // The API calls of the whole build (loaders, components, injection) come in the closing line.
    logger.info(
      `Review rich snippets: ${report.changedPages} page(s) changed, ${report.unchangedPages} up to date, ` +
        `${report.ownMarkupPages} with review markup of their own, ` +
        `${report.pagesWithoutReviews} without reviews; ${report.products} product(s)`,
    )
  }

  return {
    name: NAME,
    hooks: {
      'astro:config:setup': async ({ config, command, logger, updateConfig }) => {
        // The stars of styles.css stay a file under a Content Security Policy without data: in img-src.
        updateConfig({
          vite: { build: { assetsInlineLimit: keepStarFile(config.vite?.build?.assetsInlineLimit) } },
        })
        // The `VERIFIED_REVIEWS_*` variables of the environment and the `.env` files (Vite's `loadEnv`).
        const env = projectEnvironment(config.root, command === 'dev' ? 'development' : 'production')
        // An option given wins; the variables fill in the rest.
        const { clientId: id, clientSecret: secret, origin } = options
        const given = { ...options.client, clientId: id, clientSecret: secret, origin }
        const clientOptions: ClientOptions = {
          ...env.client,
          ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
        }
        const { clientId, clientSecret } = clientOptions
        startRun({
          clientOptions,
          command,
          storeDir:
            options.incremental === false
              ? undefined
              : fileURLToPath(new URL('verified-reviews/', config.cacheDir)),
          locale: options.locale,
          // VERIFIED_REVIEWS_LANGUAGES: the build's store keeps the translations the pages show.
          replicaLanguages: env.replicaLanguages,
          logger,
          failOnError: options.failOnError ?? env.failOnError,
          // A setting the integration's options give is named as that option in the build log.
          settingNames: Object.fromEntries(
            (['clientId', 'clientSecret', 'origin'] as const)
              .filter((name) => options[name] !== undefined)
              .map((name) => [name, `the ${name} option`]),
          ),
          productIds: typeof options.products === 'function' ? await options.products() : options.products,
        })
        // One token request says whether the build can fetch review data: it stops, or says once that
        // its pages have no reviews, before any loader or page asks.
        if (command === 'build') await checkBuild(logger)
        else if (clientId === undefined || clientSecret === undefined) {
          logger.warn(
            'No API credentials: set VERIFIED_REVIEWS_CLIENT_ID and VERIFIED_REVIEWS_CLIENT_SECRET ' +
              '(environment or .env), or the clientId and clientSecret options. Review data cannot be fetched.',
          )
        }
      },
      'astro:config:done': ({ config }) => {
        site = config.site === undefined ? undefined : new URL(config.base, config.site).href
        prerenders = config.output !== 'server'
        shared().pageUrls = { trailingSlash: config.trailingSlash, format: config.build.format }
      },
      'astro:build:start': () => {
        if (options.fetchDuringCompile !== false && prerenders) fetchCatalogAhead()
      },
      'astro:build:done': async ({ dir, logger }) => {
        // A build without review data (the check at its start said why) has none to inject.
        if (injectJsonLd && !buildWithoutReviewData()) await inject(dir, logger)
        // Every API call of the build through the integration's client: loaders, components, injection.
        logger.info(describeBuildCalls(shared().calls))
      },
    },
  }
}
