import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ProductReview } from '@verified-reviews/core'
import { type CursorScope, cursorSigner } from '@verified-reviews/core/endpoint'
import { createSqliteReviewStore } from '@verified-reviews/core/sync'
import { describe, expect, it, vi } from 'vitest'
import { type Fault, startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { pointEnvironmentAt } from '../test/build-fixture.ts'
import verifiedReviews, { VerifiedReviewsOptionError, type VerifiedReviewsOptions } from './index.ts'
import { shared, sharedCatalog, sharedClient } from './internal/shared.ts'
import {
  brandReviewsLoader,
  liveProductReviewsLoader,
  productRatingsLoader,
  productReviewsLoader,
} from './loaders-entry.ts'

function optionError(run: () => unknown): VerifiedReviewsOptionError {
  try {
    run()
  } catch (error) {
    if (error instanceof VerifiedReviewsOptionError) return error
    throw error
  }
  throw new Error('no VerifiedReviewsOptionError was thrown')
}

describe('verifiedReviews', () => {
  it('works with no arguments, as `astro add` writes it', () => {
    const integration = verifiedReviews()
    expect(integration.name).toBe('@verified-reviews/astro')
    expect(Object.keys(integration.hooks).sort()).toEqual([
      'astro:build:done',
      'astro:build:start',
      'astro:config:done',
      'astro:config:setup',
    ])
  })

  it('accepts every documented option', () => {
    expect(() =>
      verifiedReviews({
        clientId: 'id',
        clientSecret: 'secret',
        origin: 'http://127.0.0.1:4010',
        client: { timeout: 10_000 },
        injectJsonLd: false,
        maxReviews: 0,
        syndicatedReviews: true,
        reviewSummaryAuthor: 'Maison Sandbox',
        incremental: false,
        locale: 'fr',
        failOnError: true,
        fetchDuringCompile: false,
      }),
    ).not.toThrow()
  })

  it.each([
    [{ maxReviews: 101 }, 'maxReviews', 'must be a whole number from 0 to 100, got 101'],
    [{ maxReviews: '5' }, 'maxReviews', 'must be a whole number from 0 to 100, got "5"'],
    [{ origin: 'localhost:4010' }, 'origin', 'must be an absolute http(s) URL, got "localhost:4010"'],
    [{ clientId: '' }, 'clientId', 'must be a non-empty string, got ""'],
    [{ injectJsonLd: 'yes' }, 'injectJsonLd', 'must be true or false, got "yes"'],
    [{ syndicatedReviews: 1 }, 'syndicatedReviews', 'must be true or false, got 1'],
    [{ failOnError: 'yes' }, 'failOnError', 'must be true or false, got "yes"'],
    [{ reviewSummaryAuthor: ' ' }, 'reviewSummaryAuthor', 'must be a non-empty string, got " "'],
    [
      { locale: 'xx' },
      'locale',
      'must be one of bg, cs, de, el, en, es, fr, it, nl, pl, pt, sk, tr, got "xx"',
    ],
    [
      { client: { origin: 'http://x.test' } },
      'client.origin',
      'is an option of its own: pass origin instead',
    ],
  ])('refuses %j, naming the option', (options, option, message) => {
    const error = optionError(() => verifiedReviews(options as never))
    expect(error.option).toBe(option)
    expect(error.message).toBe(`@verified-reviews/astro: option "${option}" ${message}`)
  })

  it('refuses an unknown option, listing the known ones', () => {
    const error = optionError(() => verifiedReviews({ maxReview: 3 } as never))
    expect(error.option).toBe('maxReview')
    expect(error.message).toContain('is not an option (the options are clientId, clientSecret, origin,')
  })

  it('refuses options that are not an object', () => {
    expect(optionError(() => verifiedReviews('key' as never)).message).toBe(
      '@verified-reviews/astro: option "(options)" must be an object, got "key"',
    )
  })
})

describe('the loaders', () => {
  it('validate their options when they are created', () => {
    expect(optionError(() => productReviewsLoader({ limit: 500 })).message).toBe(
      'productReviewsLoader: option "limit" must be a whole number from 1 to 200, got 500',
    )
    expect(optionError(() => brandReviewsLoader({ mode: 'incremental' } as never)).option).toBe('mode')
    expect(optionError(() => productRatingsLoader({ products: ['SKU-1', ''] })).message).toBe(
      'productRatingsLoader: option "products" must be an array of non-empty strings, got an array',
    )
    expect(optionError(() => liveProductReviewsLoader({ reviews: 0 })).option).toBe('reviews')
  })

  it('are named after what they load', () => {
    expect(
      [productReviewsLoader(), brandReviewsLoader(), productRatingsLoader()].map((loader) => loader.name),
    ).toEqual([
      'verified-reviews-product-reviews',
      'verified-reviews-brand-reviews',
      'verified-reviews-product-ratings',
    ])
  })
})

/** What a test of the hooks gets: the end of the build, the page it left, the lines of its log. */
interface HookedBuild {
  sb: TestSandbox
  /** The page as the test wrote it. */
  html: string
  /** Runs `astro:build:start`. */
  start(): Promise<void>
  /** Runs `astro:build:done`. */
  done(): Promise<void>
  /** The page as it is now. */
  page(): Promise<string>
  lines: { info: string[]; error: string[] }
  /** The project's folder: its root and its cache directory. */
  dir: string
}

/**
 * Runs the integration's hooks as `astro build` does, against a new sandbox, over one page that marks
 * `product`: `astro:config:setup` and `astro:config:done`, then the test, which runs `done()`.
 */
async function hookedBuild(
  settings: {
    options?: VerifiedReviewsOptions
    product: string
    faults?: Fault[]
    /** Where the page is in the build's folder. @default 'index.html' */
    file?: string
    /** What the Astro config says of its page URLs. @default trailingSlash 'ignore', build.format 'directory' */
    config?: { trailingSlash?: string; build?: { format: string }; output?: string }
    /** The page. @default one that marks `product` with a meta element */
    html?: string
  },
  test: (build: HookedBuild) => Promise<void>,
): Promise<void> {
  const sb = await startSandbox({ seed: 1, rateLimit: 0 })
  const restore = pointEnvironmentAt(sb)
  const dir = await mkdtemp(join(tmpdir(), 'vr-astro-hooks-'))
  try {
    const html =
      settings.html ??
      `<html><head><meta name="verified-reviews:product" content="${settings.product}"></head><body></body></html>`
    const file = join(dir, settings.file ?? 'index.html')
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, html)
    if (settings.faults !== undefined) await sb.faults(settings.faults)
    const lines = { info: [] as string[], error: [] as string[] }
    const logger = {
      info: (line: string) => lines.info.push(line),
      warn: () => {},
      error: (line: string) => lines.error.push(line),
      debug: () => {},
      fork: () => logger,
      label: 'test',
      options: {},
    }
    const hooks = verifiedReviews({ incremental: false, ...settings.options }).hooks as unknown as Record<
      string,
      (options: unknown) => Promise<void> | void
    >
    const root = pathToFileURL(`${dir}/`)
    await hooks['astro:config:setup']?.({
      config: { root, cacheDir: root },
      command: 'build',
      logger,
      updateConfig: () => {},
    })
    const config = { trailingSlash: 'ignore', build: { format: 'directory' }, ...settings.config }
    await hooks['astro:config:done']?.({
      config: { site: 'https://shop.example', base: '/', ...config },
      logger,
    })
    await test({
      sb,
      html,
      start: async () => {
        await hooks['astro:build:start']?.({ logger })
      },
      done: async () => {
        await hooks['astro:build:done']?.({ dir: root, logger, pages: [], routes: [] })
      },
      page: () => readFile(file, 'utf8'),
      lines,
      dir,
    })
  } finally {
    restore()
    await sb.close()
    await rm(dir, { recursive: true, force: true })
  }
}

describe('the shared client', () => {
  it('signs cursors with the key of VERIFIED_REVIEWS_CURSOR_SECRET from the project’s .env', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vr-astro-cursor-'))
    try {
      const secret = 'a-cursor-secret-from-dot-env'
      await writeFile(
        join(dir, '.env'),
        `VERIFIED_REVIEWS_CLIENT_ID=id\nVERIFIED_REVIEWS_CLIENT_SECRET=a-client-secret\nVERIFIED_REVIEWS_CURSOR_SECRET=${secret}\n`,
      )
      const hooks = verifiedReviews({ incremental: false }).hooks as unknown as Record<
        string,
        (options: unknown) => Promise<void> | void
      >
      const root = pathToFileURL(`${dir}/`)
      const silent = () => {}
      const logger = { info: silent, warn: silent, error: silent, debug: silent, label: 'test', options: {} }
      Object.assign(logger, { fork: () => logger })
      // `dev`: no credentials check against the real API, which this test does not reach.
      await hooks['astro:config:setup']?.({
        config: { root, cacheDir: root },
        command: 'dev',
        logger,
        updateConfig: () => {},
      })
      const scope: CursorScope = { kind: 'product', id: 'SKU-001', sort: 'newest', rates: [], limit: 5 }
      const signed = await cursorSigner(sharedClient()).sign(scope, 'c')
      expect(await cursorSigner({}, secret).open(scope, signed)).toBe('c')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the client options', () => {
  it('take an option given over the project’s .env, and the variables for what the options leave out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vr-astro-options-'))
    for (const name of [
      'CLIENT_ID',
      'CLIENT_SECRET',
      'WEBSITE_ID',
      'ORIGIN',
      'CURSOR_SECRET',
      'GENESIS_SECRET',
    ]) {
      vi.stubEnv(`VERIFIED_REVIEWS_${name}`, undefined)
    }
    try {
      await writeFile(
        join(dir, '.env'),
        'VERIFIED_REVIEWS_CLIENT_ID=env-id\nVERIFIED_REVIEWS_CLIENT_SECRET=env-secret\nVERIFIED_REVIEWS_WEBSITE_ID=env-site\n',
      )
      const hooks = verifiedReviews({
        incremental: false,
        clientId: 'option-id',
        client: { websiteId: undefined, timeout: 5000 },
      }).hooks as unknown as Record<string, (options: unknown) => Promise<void> | void>
      const root = pathToFileURL(`${dir}/`)
      const silent = () => {}
      const logger = { info: silent, warn: silent, error: silent, debug: silent, label: 'test', options: {} }
      Object.assign(logger, { fork: () => logger })
      await hooks['astro:config:setup']?.({
        config: { root, cacheDir: root },
        command: 'dev',
        logger,
        updateConfig: () => {},
      })
      expect(shared().clientOptions).toEqual({
        clientId: 'option-id',
        clientSecret: 'env-secret',
        websiteId: 'env-site',
        timeout: 5000,
      })
    } finally {
      vi.unstubAllEnvs()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the injection after the build', () => {
  it('logs an API failure and leaves the pages as they are, without failing the build', async () => {
    await hookedBuild(
      { product: 'SKU-001', faults: [{ operation: 'products.list', status: 400 }] },
      async (build) => {
        await build.done()
        expect(build.lines.error).toEqual([expect.stringMatching(/^Review rich snippets not added: /)])
        expect(await build.page()).toBe(build.html)
      },
    )
  })

  it('stops the build when the API refuses the credentials the check at the start accepted', async () => {
    await hookedBuild(
      { product: 'SKU-001', faults: [{ operation: 'products.list', status: 401 }] },
      async (build) => {
        await expect(build.done()).rejects.toThrow(
          /^Review rich snippets not added: VERIFIED_REVIEWS_CLIENT_ID \(.+\) and VERIFIED_REVIEWS_CLIENT_SECRET were refused: the API at .+ answered 401 .*: the build stops/,
        )
        expect(await build.page()).toBe(build.html)
      },
    )
  })

  it('says that nothing was left to it, not that something failed, when no page leaves it the markup', async () => {
    // A page whose review components rendered their own JSON-LD carries no marker.
    const own =
      '<html><head><script type="application/ld+json">{"@type":"Product"}</script></head><body></body></html>'
    await hookedBuild({ product: 'SKU-001', html: own }, async (build) => {
      await build.done()
      expect(build.lines.error).toEqual([])
      expect(build.lines.info).toContain(
        'Review rich snippets: nothing to add after the build, since none of the 1 built page(s) leaves them ' +
          'to this step (the review components render their own JSON-LD; a page leaves it here with ' +
          '<ProductReviews jsonLd={false}> or <meta name="verified-reviews:product" content="…">)',
      )
      expect(await build.page()).toBe(own)
    })
  })

  it("gives the Product node of a page the URL trailingSlash 'never' gives it, as the components do", async () => {
    await hookedBuild(
      { product: 'SKU-001', file: 'injected-only/index.html', config: { trailingSlash: 'never' } },
      async (build) => {
        await build.done()
        const script = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(
          await build.page(),
        )
        expect((JSON.parse(script?.[1] ?? 'null') as { '@id'?: string })['@id']).toBe(
          'https://shop.example/injected-only',
        )
      },
    )
  })

  it('fetches the reviews of the products it names when that costs fewer calls, and says so in the build log', async () => {
    await hookedBuild(
      { product: 'SKU-002', options: { products: async () => ['SKU-001', 'SKU-002'] } },
      async (build) => {
        await build.done()
        expect(build.lines.info).toContain(
          'build data ready: 30 reviews of 2 products (reviews of 2 named products); 2 API calls (1 review page, 1 summary page), lower bound 2',
        )
        expect(build.lines.info.at(-1)).toBe('API calls: 2 in all (2 for product data)')
        const { 'token.published': _token, ...api } = (await build.sb.stats()).operations
        expect(api).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
      },
    )
  })
})

describe('the fetch while Vite bundles the pages', () => {
  it('starts at astro:build:start, and the pages find the data fetched', async () => {
    await hookedBuild({ product: 'SKU-001' }, async ({ sb, start }) => {
      await start()
      // The sandbox's account (seed 1): 3,000 reviews, 200 a call, and the summaries of its 60 products.
      await vi.waitFor(async () => expect((await sb.stats()).operations['products.reviews.list']).toBe(15), {
        timeout: 10_000,
        interval: 50,
      })
      const before = (await sb.stats()).total
      expect(await sharedCatalog().reviews('SKU-002')).toHaveLength(19)
      expect((await sharedCatalog().ratings(['SKU-002'])).get('SKU-002')?.count_total).toBe(19)
      expect((await sb.stats()).total).toBe(before)
    })
  })

  it("fetches nothing then with fetchDuringCompile: false, with output: 'server', or when a loader made the catalog", async () => {
    await hookedBuild(
      { product: 'SKU-001', options: { fetchDuringCompile: false } },
      async ({ sb, start }) => {
        await start()
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect((await sb.stats()).operations['products.list']).toBeUndefined()
      },
    )
    await hookedBuild({ product: 'SKU-001', config: { output: 'server' } }, async ({ sb, start }) => {
      await start()
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect((await sb.stats()).operations['products.list']).toBeUndefined()
    })
    await hookedBuild({ product: 'SKU-001' }, async ({ sb, start }) => {
      const made = sharedCatalog()
      await start()
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(shared().catalog).toBe(made)
      expect((await sb.stats()).operations['products.list']).toBeUndefined()
    })
  })
})

describe('the build store', () => {
  it('keeps the translations of VERIFIED_REVIEWS_LANGUAGES alone, as a Next.js build does', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_LANGUAGES', 'fr, de')
    try {
      await hookedBuild({ product: 'SKU-002', options: { incremental: true } }, async (build) => {
        await build.done()
        const page = await build.page()
        expect(page).toContain('application/ld+json')
        const { dir } = build
        const store = createSqliteReviewStore<ProductReview>(
          join(dir, 'verified-reviews', 'product-reviews.sqlite'),
        )
        try {
          expect((await store.getCheckpoint())?.kept?.languages).toEqual(['de', 'fr'])
          const [review] = await store.list('SKU-002')
          expect(review?.review_id).toEqual(expect.any(String))
          // The kept form: no order reference, and no translation but those of the pages' languages.
          expect(review).not.toHaveProperty('order_reference')
          const languages = Object.keys(review?.translated_review ?? {})
          expect(languages.every((language) => language === 'fr' || language === 'de')).toBe(true)
        } finally {
          await store.close()
        }
      })
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('the stylesheet', () => {
  it("keeps the stars' file a file in Vite's build, and leaves every other file to the site's limit", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vr-astro-vite-'))
    try {
      const updates: { vite?: { build?: { assetsInlineLimit?: unknown } } }[] = []
      const hooks = verifiedReviews({ incremental: false }).hooks as unknown as Record<
        string,
        (options: unknown) => Promise<void> | void
      >
      const root = pathToFileURL(`${dir}/`)
      const silent = () => {}
      const logger = { info: silent, warn: silent, error: silent, debug: silent, label: 'test', options: {} }
      Object.assign(logger, { fork: () => logger })
      await hooks['astro:config:setup']?.({
        config: { root, cacheDir: root, vite: { build: { assetsInlineLimit: 8192 } } },
        command: 'dev',
        logger,
        updateConfig: (update: (typeof updates)[number]) => updates.push(update),
      })
      const shouldInline = updates[0]?.vite?.build?.assetsInlineLimit as (
        file: string,
        content: Buffer,
      ) => unknown
      const star = fileURLToPath(import.meta.resolve('@verified-reviews/core/star.svg'))
      expect(shouldInline(star, await readFile(star))).toBe(false)
      expect(shouldInline('/site/src/icon.svg', Buffer.alloc(5000))).toBe(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
