import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type CursorScope, cursorSigner } from '@verified-reviews/core/endpoint'
import { describe, expect, it } from 'vitest'
import { startSandbox } from '../../../test/fixtures/sandbox.ts'
import { pointEnvironmentAt } from '../test/build-fixture.ts'
import verifiedReviews, {
  brandReviewsLoader,
  liveProductReviewsLoader,
  productRatingsLoader,
  productReviewsLoader,
  VerifiedReviewsOptionError,
} from './index.ts'
import { sharedClient } from './internal/shared.ts'

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

/** An integration logger whose `info` and `error` go where the test says, the other levels nowhere. */
function integrationLogger(to: { info?: (message: string) => void; error?: (message: string) => void }) {
  const logger = {
    info: to.info ?? (() => {}),
    warn: () => {},
    error: to.error ?? (() => {}),
    debug: () => {},
    fork: () => logger,
    label: 'test',
    options: {},
  }
  return logger
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
      const logger = integrationLogger({})
      await hooks['astro:config:setup']?.({ config: { root, cacheDir: root }, command: 'build', logger })
      const scope: CursorScope = { kind: 'product', id: 'SKU-001', sort: 'newest', rates: [], limit: 5 }
      const signed = await cursorSigner(sharedClient()).sign(scope, 'c')
      expect(await cursorSigner({}, secret).open(scope, signed)).toBe('c')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the injection after the build', () => {
  it('logs an API failure and leaves the pages as they are, without failing the build', async () => {
    const sb = await startSandbox({ seed: 1 })
    const restore = pointEnvironmentAt(sb)
    const dir = await mkdtemp(join(tmpdir(), 'vr-astro-hooks-'))
    try {
      const html =
        '<html><head><meta name="verified-reviews:product" content="SKU-001"></head><body></body></html>'
      await writeFile(join(dir, 'index.html'), html)
      await sb.faults([{ operation: 'products.list', status: 400 }])
      const logged: string[] = []
      const logger = integrationLogger({ error: (message) => logged.push(message) })
      const hooks = verifiedReviews({ incremental: false }).hooks as unknown as Record<
        string,
        (options: unknown) => Promise<void> | void
      >
      const root = pathToFileURL(`${dir}/`)
      await hooks['astro:config:setup']?.({ config: { root, cacheDir: root }, command: 'build', logger })
      await hooks['astro:config:done']?.({ config: { site: 'https://shop.example', base: '/' }, logger })
      await hooks['astro:build:done']?.({ dir: root, logger, pages: [], routes: [] })
      expect(logged).toEqual([expect.stringMatching(/^Review rich snippets not added: /)])
      expect(await readFile(join(dir, 'index.html'), 'utf8')).toBe(html)
    } finally {
      restore()
      await sb.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('fetches the reviews of the products it names when that costs fewer calls, and says so in the build log', async () => {
    const sb = await startSandbox({ seed: 1, rateLimit: 0 })
    const restore = pointEnvironmentAt(sb)
    const dir = await mkdtemp(join(tmpdir(), 'vr-astro-named-'))
    try {
      const html =
        '<html><head><meta name="verified-reviews:product" content="SKU-002"></head><body></body></html>'
      await writeFile(join(dir, 'index.html'), html)
      const lines: string[] = []
      const logger = integrationLogger({ info: (message) => lines.push(message) })
      const hooks = verifiedReviews({ incremental: false, products: async () => ['SKU-001', 'SKU-002'] })
        .hooks as unknown as Record<string, (options: unknown) => Promise<void> | void>
      const root = pathToFileURL(`${dir}/`)
      await hooks['astro:config:setup']?.({ config: { root, cacheDir: root }, command: 'build', logger })
      await hooks['astro:config:done']?.({ config: { site: 'https://shop.example', base: '/' }, logger })
      await hooks['astro:build:done']?.({ dir: root, logger, pages: [], routes: [] })
      expect(lines).toContain(
        'build data ready: 30 reviews of 2 products (reviews of 2 named products); 2 API calls (1 review page, 1 summary page), lower bound 2',
      )
      expect(lines.at(-1)).toBe('API calls: 2 in all (2 for product data)')
      const { 'token.published': _token, ...api } = (await sb.stats()).operations
      expect(api).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
    } finally {
      restore()
      await sb.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
