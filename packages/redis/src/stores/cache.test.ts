import { cachedRead } from '@verified-reviews/core/cache'
import { describe, expect, it, vi } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { createRedisCache } from './cache.ts'

const redis = redisForFile()
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

const connect = connectionsFor(redis)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('createRedisCache', () => {
  it('misses a key that was never stored', async () => {
    expect(await createRedisCache(connect()).get('nothing')).toBeUndefined()
  })

  it('returns a value stored by another instance', async () => {
    await createRedisCache(connect()).set('k', { a: [1, 2], at: null }, { ttl: 10 })
    expect(await createRedisCache(connect()).get('k')).toEqual({ a: [1, 2], at: null })
  })

  it('keeps null as a value distinct from a miss', async () => {
    const cache = createRedisCache(connect())
    await cache.set('k', null, { ttl: 10 })
    expect(await cache.get('k')).toBeNull()
  })

  it('rejects a value that JSON cannot represent', async () => {
    await expect(createRedisCache(connect()).set('k', () => 1, { ttl: 10 })).rejects.toThrow(
      /not JSON-serializable/,
    )
  })

  it('lets Redis expire an entry after its ttl', async () => {
    const cache = createRedisCache(connect())
    await cache.set('k', 'v', { ttl: 0.2 })
    expect(await cache.get('k')).toBe('v')
    await sleep(250)
    expect(await cache.get('k')).toBeUndefined()
  })

  it('deletes one key for every instance', async () => {
    const a = createRedisCache(connect())
    const b = createRedisCache(connect())
    await a.set('x', 1, { ttl: 10 })
    await a.set('y', 2, { ttl: 10 })
    await b.delete('x')
    expect(await a.get('x')).toBeUndefined()
    expect(await a.get('y')).toBe(2)
  })

  it('drops every entry of a tag, and only those, for every instance', async () => {
    const a = createRedisCache(connect())
    await a.set('p1', 1, { ttl: 10, tags: ['product:1', 'all'] })
    await a.set('p2', 2, { ttl: 10, tags: ['product:2', 'all'] })
    await createRedisCache(connect()).deleteByTag('product:1')
    expect(await a.get('p1')).toBeUndefined()
    expect(await a.get('p2')).toBe(2)
    await a.deleteByTag('all')
    expect(await a.get('p2')).toBeUndefined()
  })

  it('drops a tag of more entries than one Lua call can unpack', async () => {
    const cache = createRedisCache(connect())
    await Promise.all(
      Array.from({ length: 1200 }, (_, i) => cache.set(`k${i}`, i, { ttl: 10, tags: ['big'] })),
    )
    await cache.deleteByTag('big')
    expect(await cache.get('k0')).toBeUndefined()
    expect(await cache.get('k1199')).toBeUndefined()
    expect(await redis.command('DBSIZE')).toBe(':0\r\n')
  })

  it('keeps a tag as long as its longest entry', async () => {
    const cache = createRedisCache(connect())
    await cache.set('short', 1, { ttl: 1, tags: ['t'] })
    await cache.set('long', 2, { ttl: 100, tags: ['t'] })
    const ttl = Number((await redis.command('PTTL', 'vr:cache:t:t')).slice(1))
    expect(ttl).toBeGreaterThan(90_000)
  })

  it('keeps the entries of two caches with different names apart', async () => {
    const connection = connect()
    await createRedisCache(connection, { name: 'a' }).set('k', 'a', { ttl: 10 })
    expect(await createRedisCache(connection, { name: 'b' }).get('k')).toBeUndefined()
  })

  it('gives a lock on a key to one instance at a time', async () => {
    const a = createRedisCache(connect())
    const b = createRedisCache(connect())
    const lock = await a.lock?.('k')
    expect(lock).toBeDefined()
    expect(await b.lock?.('k')).toBeUndefined()
    await lock?.release()
    expect(await b.lock?.('k')).toBeDefined()
  })

  it('frees the lock of an instance that died after lockTtl', async () => {
    const a = createRedisCache(connect(), { lockTtl: 100 })
    expect(await a.lock?.('k')).toBeDefined()
    await sleep(150)
    expect(await createRedisCache(connect()).lock?.('k')).toBeDefined()
  })

  it('serves a stale value at once and refreshes it once with stale-while-revalidate', async () => {
    const a = createRedisCache(connect())
    const b = createRedisCache(connect())
    const options = { ttl: 0.1, staleWhileRevalidate: 60 }
    await cachedRead(a, 'k', async () => 'v1', options)
    await sleep(150)
    const load = vi.fn(async () => {
      await sleep(50)
      return 'v2'
    })
    expect(await cachedRead(a, 'k', load, options)).toBe('v1')
    expect(await cachedRead(b, 'k', load, options)).toBe('v1')
    await vi.waitFor(async () => expect(await cachedRead(b, 'k', load, options)).toBe('v2'))
    expect(load).toHaveBeenCalledTimes(1)
  })
})

describe('createRedisCache as the cache of clients on two instances', () => {
  it('makes one upstream call when a cold page is read by both at once', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 200, count: 1 }])
    const clients = [connect(), connect()].map((connection) =>
      sb.client({ cache: createRedisCache(connection) }),
    )
    const pages = await Promise.all(
      clients.map((client) => client.products.reviews.list({ product_variation_id: ['SKU-001'], limit: 5 })),
    )
    expect(pages[0]?.data.map((review) => review.review_id)).toEqual(
      pages[1]?.data.map((review) => review.review_id),
    )
    expect((await sb.stats()).operations['products.reviews.list']).toBe(1)
  })

  it('makes one upstream call when ten instances read a cold page at once', async () => {
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 200, count: 1 }])
    const clients = Array.from({ length: 10 }, () => sb.client({ cache: createRedisCache(connect()) }))
    await Promise.all(
      clients.map((client) => client.products.reviews.list({ product_variation_id: ['SKU-002'], limit: 5 })),
    )
    expect((await sb.stats()).operations['products.reviews.list']).toBe(1)
  })

  it('serves the answer another instance cached without any call', async () => {
    const [first, second] = [connect(), connect()].map((connection) =>
      sb.client({ cache: createRedisCache(connection) }),
    )
    await first?.products.reviews.list({ product_variation_id: ['SKU-003'], limit: 5 })
    const before = (await sb.stats()).total
    await second?.products.reviews.list({ product_variation_id: ['SKU-003'], limit: 5 })
    expect((await sb.stats()).total).toBe(before)
  })
})
