import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createNextDefaultCacheHandler, NextFileSystemCache } from './next-internals.ts'

// These fail on a Next.js release that moves or reshapes a module this package imports from
// `next/dist/`: each runs what the cache handlers of `withVerifiedReviews` (and of `withRedisCache`) run.

/** The file system Next.js hands its `FileSystemCache` (its `nodeFs`). */
const cacheFs = {
  existsSync,
  readFile,
  readFileSync,
  writeFile: (path: string, data: string | Uint8Array) => writeFile(path, data),
  mkdir: (path: string) => mkdir(path, { recursive: true }),
  stat: (path: string) => stat(path),
}

describe("Next.js's FileSystemCache (next/dist/server/lib/incremental-cache/file-system-cache.js)", () => {
  it('is a class with get, set and revalidateTag', () => {
    for (const method of ['get', 'set', 'revalidateTag']) {
      expect(typeof NextFileSystemCache.prototype[method], method).toBe('function')
    }
  })

  it('writes a page into the build output and reads it back through another instance', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'vr-next-internals-'))
    try {
      const context = {
        fs: cacheFs,
        serverDistDir: join(dist, 'server'),
        flushToDisk: true,
        revalidatedTags: [],
      }
      const page = {
        kind: 'APP_PAGE',
        html: '<p>12 reviews</p>',
        rscData: Buffer.from('rsc'),
        headers: { 'x-next-cache-tags': 'verified-reviews:product:SKU-1' },
        status: 200,
        postponed: undefined,
        segmentData: undefined,
      }
      await new NextFileSystemCache(context).set('/en/products/SKU-1', page, {
        isRoutePPREnabled: false,
        isFallback: false,
      })
      // Where `next build` leaves its prerendered pages, which the Redis handler reads as its fallback.
      expect(await readFile(join(dist, 'server/app/en/products/SKU-1.html'), 'utf8')).toBe(
        '<p>12 reviews</p>',
      )
      const found = await new NextFileSystemCache(context).get('/en/products/SKU-1', {
        kind: 'APP_PAGE',
        isRoutePPREnabled: false,
        isFallback: false,
      } as never)
      expect(found?.value).toMatchObject({ kind: 'APP_PAGE', html: '<p>12 reviews</p>', status: 200 })
    } finally {
      await rm(dist, { recursive: true, force: true })
    }
  })
})

describe("Next.js's default 'use cache' handler (next/dist/server/lib/cache-handlers/default.js)", () => {
  const entry = (text: string) => ({
    value: new Response(text).body as ReadableStream<Uint8Array>,
    tags: ['verified-reviews:product:SKU-1'],
    stale: 300,
    timestamp: Date.now() - 1000,
    revalidate: 900,
    expire: 3600,
  })

  it('stores an entry, gives it back, and misses it once its tag was expired', async () => {
    const handler = createNextDefaultCacheHandler(1024 * 1024)
    for (const method of ['get', 'set', 'refreshTags', 'getExpiration', 'updateTags'] as const) {
      expect(typeof handler[method], method).toBe('function')
    }
    await handler.set('reviews-SKU-1', Promise.resolve(entry('12 reviews')))
    const found = await handler.get('reviews-SKU-1', [])
    expect(await new Response(found?.value).text()).toBe('12 reviews')
    await handler.updateTags(['verified-reviews:product:SKU-1'])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(await handler.get('reviews-SKU-1', [])).toBeUndefined()
  })
})

// The process variables this package reads to know a build from a server, and a build worker from the
// build: set by Next.js itself, not documented. The demo's e2e build counts its API calls against the
// lower bound, which either change would break; these say which variable moved.
describe('the variables Next.js sets in a build', () => {
  const next = dirname(createRequire(import.meta.url).resolve('next/package.json'))

  it("sets NEXT_PHASE to 'phase-production-build' in `next build` (isBuildPhase)", async () => {
    const { PHASE_PRODUCTION_BUILD } = (await import('next/constants.js')) as {
      PHASE_PRODUCTION_BUILD: string
    }
    expect(PHASE_PRODUCTION_BUILD).toBe('phase-production-build')
    const build = await readFile(join(next, 'dist/build/index.js'), 'utf8')
    expect(build).toMatch(/process\.env\.NEXT_PHASE = [\w.]*PHASE_PRODUCTION_BUILD;/)
  })

  it("sets IS_NEXT_WORKER to 'true' in its build workers (the build data's id is the parent's pid)", async () => {
    const worker = await readFile(join(next, 'dist/lib/worker.js'), 'utf8')
    expect(worker).toMatch(/IS_NEXT_WORKER: 'true'/)
  })
})
