import { describe, expect, it, vi } from 'vitest'
import {
  failSafeIncrementalCache,
  failSafeUseCacheHandler,
  type IncrementalCacheSetContext,
  type IncrementalCacheValue,
  type UseCacheEntry,
  type UseCacheHandler,
} from './cache-handlers.ts'
import { FAILED_RENDER_TAG } from './internal/failed-render-tag.ts'
import { tagRender } from './internal/render-tags.ts'

function stream(text: string): ReadableStream<Uint8Array> {
  return new Response(text).body as ReadableStream<Uint8Array>
}

function entry(text: string, tags: string[]): UseCacheEntry & Record<string, unknown> {
  return { value: stream(text), tags, timestamp: Date.now(), revalidate: 3600, expire: 86400, stale: 300 }
}

/**
 * A 'use cache' handler in memory, keeping each entry's text. Like Next.js's, it does not serve an entry
 * past its expire, nor one whose tag `updateTags` expired at once, though it still holds them.
 */
function memoryUseCacheHandler(): UseCacheHandler & { texts: Map<string, string> } {
  const entries = new Map<string, { text: string; tags: string[]; timestamp: number; expire: number }>()
  const expiredTags = new Set<string>()
  return {
    texts: new Map(),
    async get(key) {
      const found = entries.get(key)
      if (found === undefined || found.timestamp + found.expire * 1000 < Date.now()) return undefined
      if (found.tags.some((tag) => expiredTags.has(tag))) return undefined
      return { ...entry(found.text, found.tags), timestamp: found.timestamp, expire: found.expire }
    },
    async set(key, pending) {
      const { value, tags, timestamp = Date.now(), expire = 86400 } = await pending
      const text = await new Response(value).text()
      entries.set(key, { text, tags, timestamp, expire })
      this.texts.set(key, text)
    },
    async refreshTags() {},
    async getExpiration() {
      return 0
    },
    async updateTags(tags) {
      for (const tag of tags) expiredTags.add(tag)
    },
  }
}

describe('failSafeUseCacheHandler', () => {
  it('does not store a render from an API failure over a good entry', async () => {
    const inner = memoryUseCacheHandler()
    const handler = failSafeUseCacheHandler(inner)
    await handler.set('k', Promise.resolve(entry('10 reviews', ['product:SKU-1'])))
    await handler.set('k', Promise.resolve(entry('no reviews', ['product:SKU-1', FAILED_RENDER_TAG])))
    expect(inner.texts.get('k')).toBe('10 reviews')
  })

  it('stores a render from an API failure where there is no entry yet, and a good one over it later', async () => {
    const inner = memoryUseCacheHandler()
    const handler = failSafeUseCacheHandler(inner)
    await handler.set('k', Promise.resolve(entry('no reviews', [FAILED_RENDER_TAG])))
    expect(inner.texts.get('k')).toBe('no reviews')
    await handler.set('k', Promise.resolve(entry('no reviews again', [FAILED_RENDER_TAG])))
    expect(inner.texts.get('k')).toBe('no reviews again')
    await handler.set('k', Promise.resolve(entry('10 reviews', ['product:SKU-1'])))
    expect(inner.texts.get('k')).toBe('10 reviews')
  })

  it('stores a good entry over a good one', async () => {
    const inner = memoryUseCacheHandler()
    const handler = failSafeUseCacheHandler(inner)
    await handler.set('k', Promise.resolve(entry('10 reviews', ['product:SKU-1'])))
    await handler.set('k', Promise.resolve(entry('11 reviews', ['product:SKU-1'])))
    expect(inner.texts.get('k')).toBe('11 reviews')
    expect(await new Response((await handler.get('k', []))?.value).text()).toBe('11 reviews')
  })

  it('stores no render from an API failure over a good entry whose tag was expired at once, until a good one comes', async () => {
    const inner = memoryUseCacheHandler()
    const handler = failSafeUseCacheHandler(inner)
    await handler.set('k', Promise.resolve(entry('10 reviews', ['product:SKU-1'])))
    // revalidateTag(tag, { expire: 0 }) or updateTag: the handler holds the good entry but serves it no more.
    await handler.updateTags(['product:SKU-1'])
    expect(await handler.get('k', [])).toBeUndefined()
    await handler.set('k', Promise.resolve(entry('no reviews', ['product:SKU-2', FAILED_RENDER_TAG])))
    expect(inner.texts.get('k')).toBe('10 reviews')
    await handler.set('k', Promise.resolve(entry('11 reviews', ['product:SKU-2'])))
    expect(inner.texts.get('k')).toBe('11 reviews')
  })

  it('stores a render from an API failure once the good entry it kept has expired', async () => {
    const inner = memoryUseCacheHandler()
    const handler = failSafeUseCacheHandler(inner)
    const old = { ...entry('10 reviews', ['product:SKU-1']), timestamp: Date.now() - 7200_000, expire: 3600 }
    await handler.set('k', Promise.resolve(old))
    await handler.set('k', Promise.resolve(entry('no reviews', [FAILED_RENDER_TAG])))
    expect(inner.texts.get('k')).toBe('no reviews')
  })
})

/** An incremental cache in memory, as Next.js constructs one (a class). */
class MemoryIncrementalCache {
  static values = new Map<string, IncrementalCacheValue | null>()
  /** The keys `get` was asked for. */
  static asked: string[] = []
  async get(key: string, _context?: unknown) {
    MemoryIncrementalCache.asked.push(key)
    const value = MemoryIncrementalCache.values.get(key)
    return value === undefined ? null : { value }
  }
  async set(key: string, value: IncrementalCacheValue | null, _context: IncrementalCacheSetContext) {
    MemoryIncrementalCache.values.set(key, value)
  }
}

function page(html: string, tags: string[]): IncrementalCacheValue {
  return { kind: 'APP_PAGE', html, headers: { 'x-next-cache-tags': tags.join(',') } }
}

/** The URL the components' tagging fetch asks for with `tags`, as they ask for it. */
async function tagFetchUrl(tags: string[]): Promise<string> {
  const urls: string[] = []
  vi.stubGlobal('fetch', async (url: string) => {
    urls.push(url)
    return new Response('')
  })
  try {
    await tagRender(tags, 3600)
  } finally {
    vi.unstubAllGlobals()
  }
  expect(urls).toHaveLength(1)
  return urls[0] as string
}

describe('failSafeIncrementalCache', () => {
  it('does not store a page rendered from an API failure over a good page, and stores the next good one', async () => {
    const Cache = failSafeIncrementalCache(MemoryIncrementalCache)
    const cache = new Cache()
    await cache.set('/products/SKU-1', page('10 reviews', ['product:SKU-1']), {})
    await cache.set('/products/SKU-1', page('no reviews', ['product:SKU-1', FAILED_RENDER_TAG]), {})
    expect(MemoryIncrementalCache.values.get('/products/SKU-1')?.html).toBe('10 reviews')
    await cache.set('/products/SKU-1', page('11 reviews', ['product:SKU-1']), {})
    expect(MemoryIncrementalCache.values.get('/products/SKU-1')?.html).toBe('11 reviews')
  })

  it('stores a page rendered from an API failure when there is no page yet', async () => {
    const Cache = failSafeIncrementalCache(MemoryIncrementalCache)
    await new Cache().set('/products/SKU-2', page('no reviews', [FAILED_RENDER_TAG]), {})
    expect(MemoryIncrementalCache.values.get('/products/SKU-2')?.html).toBe('no reviews')
  })

  it('stores fetch answers as they come', async () => {
    const Cache = failSafeIncrementalCache(MemoryIncrementalCache)
    const cache = new Cache()
    await cache.set('fetch-1', { kind: 'FETCH', tags: ['product:SKU-3'], data: 'good' }, {})
    await cache.set('fetch-1', { kind: 'FETCH', tags: [FAILED_RENDER_TAG], data: 'marker' }, {})
    expect(MemoryIncrementalCache.values.get('fetch-1')?.data).toBe('marker')
  })

  it("stores no answer of a render's tagging fetch, and every other fetch answer", async () => {
    const url = await tagFetchUrl(['verified-reviews:product:SKU-4', 'verified-reviews'])
    const Cache = failSafeIncrementalCache(MemoryIncrementalCache)
    const cache = new Cache()
    const answer = (url: string) => ({ kind: 'FETCH', data: { url, body: '', status: 200, headers: {} } })
    await cache.set('tag-fetch', answer(url), {})
    expect(MemoryIncrementalCache.values.has('tag-fetch')).toBe(false)
    await cache.set('other-data', answer('data:text/plain,hello'), {})
    await cache.set('api', answer('https://api.example/products/reviews'), {})
    expect(MemoryIncrementalCache.values.has('other-data')).toBe(true)
    expect(MemoryIncrementalCache.values.has('api')).toBe(true)
  })

  it("answers the lookup of a render's tagging fetch with an empty answer without asking the cache, and asks it for every other", async () => {
    const url = await tagFetchUrl(['verified-reviews:product:SKU-5', 'verified-reviews'])
    const Cache = failSafeIncrementalCache(MemoryIncrementalCache)
    const cache = new Cache()
    // As Next.js looks a fetch up (`kind` and `fetchUrl` among the context's fields), and a page.
    const lookup = (fetchUrl: string) =>
      ({ kind: 'FETCH', fetchUrl, fetchIdx: 0, tags: [], softTags: [] }) as never
    MemoryIncrementalCache.values.set('tag-fetch-5', { kind: 'FETCH', data: 'kept by an older version' })
    MemoryIncrementalCache.values.set('other-data-5', { kind: 'FETCH', data: 'hello' })
    MemoryIncrementalCache.asked = []
    // As Next.js's own cache returns a stored fetch, fresh: Next.js neither fetches nor stores it then.
    const before = Date.now()
    const entry = (await cache.get('tag-fetch-5', lookup(url))) as { lastModified: number } & {
      value: IncrementalCacheValue
    }
    expect(entry.value).toEqual({ kind: 'FETCH', data: { headers: {}, body: '', status: 200, url } })
    expect(entry.lastModified).toBeGreaterThanOrEqual(before)
    expect(entry.lastModified).toBeLessThanOrEqual(Date.now())
    expect((await cache.get('other-data-5', lookup('data:text/plain,hello')))?.value?.data).toBe('hello')
    expect(await cache.get('api-5', lookup('https://api.example/products/reviews'))).toBeNull()
    expect(await cache.get('/products/SKU-5', { kind: 'APP_PAGE' } as never)).toBeNull()
    expect(MemoryIncrementalCache.asked).toEqual(['other-data-5', 'api-5', '/products/SKU-5'])
  })
})
