import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { reviewViewRewrites, withVerifiedReviews } from './config.ts'
import { buildDirectory, buildStorePath } from './internal/paths.ts'

describe('reviewViewRewrites', () => {
  it('rewrites the page to its dynamic twin when any review view param is present', () => {
    expect(reviewViewRewrites({ source: '/products/:id', destination: '/products/:id/reviews' })).toEqual([
      {
        source: '/products/:id',
        destination: '/products/:id/reviews',
        has: [{ type: 'query', key: 'vr_cursor' }],
      },
      {
        source: '/products/:id',
        destination: '/products/:id/reviews',
        has: [{ type: 'query', key: 'vr_sort' }],
      },
      {
        source: '/products/:id',
        destination: '/products/:id/reviews',
        has: [{ type: 'query', key: 'vr_rate' }],
      },
    ])
  })

  it('takes several routes', () => {
    const rewrites = reviewViewRewrites([
      { source: '/a/:id', destination: '/a/:id/r' },
      { source: '/b/:id', destination: '/b/:id/r' },
    ])
    expect(rewrites.map((rewrite) => rewrite.source)).toEqual([
      '/a/:id',
      '/a/:id',
      '/a/:id',
      '/b/:id',
      '/b/:id',
      '/b/:id',
    ])
  })
})

describe('withVerifiedReviews', () => {
  const SERVER = 'phase-production-server'
  /** The options of `next.config` these tests read. */
  interface Config {
    cacheComponents?: boolean
    cacheHandler?: string
    cacheHandlers?: Record<string, string | undefined>
    cacheMaxMemorySize?: number
    distDir?: string
  }
  const context = { defaultConfig: {} as Config }

  describe('with a distDir of its own', () => {
    afterEach(() => {
      vi.unstubAllEnvs()
    })

    it("puts the build data under the config's distDir, handed to the processes Next.js starts", async () => {
      vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', undefined)
      const config = await withVerifiedReviews<Config>({ distDir: 'out-x' })(SERVER, context)
      expect(config.distDir).toBe('out-x')
      // A build worker or `next start` inherits the variable, and reads its build data there.
      expect(process.env.VERIFIED_REVIEWS_DIST_DIR).toBe('out-x')
      expect(await buildDirectory()).toBe(join(process.cwd(), 'out-x', 'verified-reviews'))
      expect(await buildStorePath()).toBe(join(process.cwd(), 'out-x', 'verified-reviews', 'reviews.sqlite'))
    })

    it('takes the distDir a config function gives for the phase', async () => {
      vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', undefined)
      await withVerifiedReviews<Config>((phase) => ({ distDir: `${phase}-out` }))(SERVER, context)
      expect(await buildDirectory()).toBe(join(process.cwd(), `${SERVER}-out`, 'verified-reviews'))
    })

    it('leaves the folder at .next when the config sets no distDir', async () => {
      vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', undefined)
      await withVerifiedReviews<Config>({})(SERVER, context)
      expect(await buildDirectory()).toBe(join(process.cwd(), '.next', 'verified-reviews'))
    })
  })

  it("installs this package's fail-safe handlers for the page cache and the default and remote 'use cache' kinds", async () => {
    const config = await withVerifiedReviews<Config>({ cacheComponents: true })(SERVER, context)
    expect(config.cacheHandler).toMatch(/cache-handlers[/\\]incremental-cache\.(ts|js)$/)
    expect(config.cacheHandlers?.default).toMatch(/cache-handlers[/\\]use-cache\.(ts|js)$/)
    expect(config.cacheHandlers?.remote).toBe(config.cacheHandlers?.default)
    expect(existsSync(config.cacheHandlers?.default as string)).toBe(true)
  })

  it("keeps the 'use cache' handlers the config or the platform names, and fills in only the kinds left", async () => {
    const own = { cacheHandlers: { default: '/app/redis-handler.mjs', static: '/app/static.mjs' } }
    const config = await withVerifiedReviews<Config>(own)(SERVER, context)
    expect(config.cacheHandlers?.default).toBe('/app/redis-handler.mjs')
    expect(config.cacheHandlers?.static).toBe('/app/static.mjs')
    expect(config.cacheHandlers?.remote).toMatch(/use-cache\.(ts|js)$/)

    const platform = { defaultConfig: { cacheHandlers: { default: '/platform.js', remote: '/platform.js' } } }
    expect((await withVerifiedReviews<Config>({})(SERVER, platform)).cacheHandlers).toBeUndefined()
  })

  it("keeps Next.js's in-memory 'use cache' handler when the config sizes it (cacheMaxMemorySize)", async () => {
    const config = await withVerifiedReviews<Config>({ cacheMaxMemorySize: 0 })(SERVER, context)
    expect(config.cacheHandlers).toBeUndefined()
  })
})
