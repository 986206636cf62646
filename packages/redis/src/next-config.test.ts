import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { withVerifiedReviews } from '@verified-reviews/next/config'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { redisForFile } from '../../../test/fixtures/redis.ts'
import type { NextCacheHandlerClass, UseCacheEntry, UseCacheHandler } from './next-cache-handler.ts'
import { withRedisCache } from './next-config.ts'

const redis = redisForFile()
const SERVER = 'phase-production-server'
const FAILED_RENDER_TAG = 'verified-reviews:failed-render'
// What Next.js passes; the functions under test do not read it.
const context = { defaultConfig: {} } as { defaultConfig: never }

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('withRedisCache', () => {
  it('names the shipped Redis handlers for both caches, with no memory cache in front, when REDIS_URL is set', async () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:6390')
    const config = await withRedisCache({
      cacheComponents: true,
      cacheHandlers: { custom: '/app/custom.mjs' },
    })(SERVER, context)
    expect(config).toMatchObject({ cacheComponents: true, cacheMaxMemorySize: 0 })
    expect(config.cacheHandlers?.custom).toBe('/app/custom.mjs')
    expect(config.cacheHandlers?.default).toBe(config.cacheHandlers?.remote)
    for (const path of [config.cacheHandler, config.cacheHandlers?.default]) {
      expect(path !== undefined && existsSync(path), path).toBe(true)
    }
  })

  it('leaves the config as it is without REDIS_URL, and says so once when next start loads it', async () => {
    vi.stubEnv('REDIS_URL', '')
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const config = { cacheComponents: true }
    expect(await withRedisCache(config)('phase-production-build', context)).toEqual(config)
    expect(info).not.toHaveBeenCalled()
    await withRedisCache(config)(SERVER, context)
    expect(await withRedisCache(config)(SERVER, context)).toEqual(config)
    expect(info).toHaveBeenCalledTimes(1)
    expect(info.mock.calls[0]?.[0]).toContain('REDIS_URL is not set')
  })

  it('names for the build workers, at build only, the module of the replica the build writes into', async () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:6390')
    vi.stubEnv('__VERIFIED_REVIEWS_BUILD_REPLICA', '')
    await withRedisCache({})(SERVER, context)
    expect(process.env.__VERIFIED_REVIEWS_BUILD_REPLICA).toBe('')
    await withRedisCache({})('phase-production-build', context)
    const module = process.env.__VERIFIED_REVIEWS_BUILD_REPLICA as string
    expect(existsSync(module), module).toBe(true)
    const target = (await import(module)).default() as { where: string; close(): Promise<void> }
    expect(target.where).toBe('Redis redis://127.0.0.1:6390 (keys vr:…)')
    await target.close()
  })

  it('composes with withVerifiedReviews in either order', async () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:6390')
    const base = { cacheComponents: true }
    const expected = await withRedisCache(base)(SERVER, context)
    const inner = await withVerifiedReviews(withRedisCache(base))(SERVER, context)
    const outer = await withRedisCache(withVerifiedReviews(base))(SERVER, context)
    for (const config of [inner, outer]) {
      expect(config.cacheHandler).toBe(expected.cacheHandler)
      expect(config.cacheHandlers).toEqual(expected.cacheHandlers)
      expect(config.cacheMaxMemorySize).toBe(0)
    }
  })
})

describe('the handler modules withRedisCache names', () => {
  it('keep a good page over one rendered from an API failure, in the Redis of REDIS_URL', async () => {
    vi.stubEnv('REDIS_URL', redis.url)
    const { cacheHandler } = await withRedisCache({})(SERVER, context)
    const Handler = (await import(cacheHandler as string)).default as NextCacheHandlerClass
    const dist = await mkdtemp(join(tmpdir(), 'vr-next-config-'))
    try {
      const fs = (await import('node:fs')).promises
      const handler = new Handler({ fs, serverDistDir: join(dist, 'server') })
      const page = (html: string, tags: string[]) => ({
        kind: 'APP_PAGE',
        html,
        headers: { 'x-next-cache-tags': tags.join(',') },
        status: 200,
      })
      await handler.set('/en/products/SKU-1', page('with reviews', ['product']), {})
      await handler.set('/en/products/SKU-1', page('without reviews', [FAILED_RENDER_TAG]), {})
      const read = await new Handler({ fs, serverDistDir: join(dist, 'server') }).get('/en/products/SKU-1', {
        kind: 'APP_PAGE',
      })
      expect(read?.value?.html).toBe('with reviews')
      // Written to Redis, where another instance reads it.
      expect(await redis.command('DBSIZE')).not.toBe(':0\r\n')
    } finally {
      await rm(dist, { recursive: true, force: true })
    }
  })

  it("keep a good 'use cache' entry over one rendered from an API failure, in the Redis of REDIS_URL", async () => {
    vi.stubEnv('REDIS_URL', redis.url)
    const { cacheHandlers } = await withRedisCache({})(SERVER, context)
    const handler = (await import(cacheHandlers?.default as string)).default as UseCacheHandler
    const entry = (text: string, tags: string[]): UseCacheEntry => ({
      value: new Response(text).body as ReadableStream<Uint8Array>,
      tags,
      stale: 300,
      timestamp: Date.now(),
      expire: 3600,
      revalidate: 900,
    })
    await handler.set('reviews-SKU-1', Promise.resolve(entry('with reviews', ['product'])))
    await handler.set('reviews-SKU-1', Promise.resolve(entry('without reviews', [FAILED_RENDER_TAG])))
    const read = await handler.get('reviews-SKU-1', [])
    expect(await new Response(read?.value).text()).toBe('with reviews')
  })

  it('mark the render cache of the process as shared when they load, so that pages refuse a replica of their own', async () => {
    vi.stubEnv('REDIS_URL', redis.url)
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { cacheHandler, cacheHandlers } = await withRedisCache({})(SERVER, context)
    for (const path of [cacheHandler, cacheHandlers?.default]) await import(path as string)
    const state = (globalThis as Record<symbol, { shared?: boolean } | undefined>)[
      Symbol.for('verified-reviews.next.shared-render-cache')
    ]
    expect(state?.shared).toBe(true)
  })
})
