import { describe, expect, it } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { createMemoryCache } from './memory-store.ts'

function clock(start = 1_000_000) {
  let time = start
  return {
    now: () => time,
    advance(seconds: number) {
      time += seconds * 1000
    },
  }
}

describe('createMemoryCache', () => {
  it('misses a key that was never stored', async () => {
    const cache = createMemoryCache()
    expect(await cache.get('nothing')).toBeUndefined()
  })

  it('returns a stored value', async () => {
    const cache = createMemoryCache()
    await cache.set('k', { a: [1, 2] }, { ttl: 10 })
    expect(await cache.get('k')).toEqual({ a: [1, 2] })
  })

  it('keeps null as a value distinct from a miss', async () => {
    const cache = createMemoryCache()
    await cache.set('k', null, { ttl: 10 })
    expect(await cache.get('k')).toBeNull()
  })

  it('hands out copies, so changing a value read does not change the cached one', async () => {
    const cache = createMemoryCache()
    await cache.set('k', { list: [1] }, { ttl: 10 })
    const first = (await cache.get('k')) as { list: number[] }
    first.list.push(2)
    expect(await cache.get('k')).toEqual({ list: [1] })
  })

  it('gives back text beyond Latin-1 as it was stored, lone surrogates included', async () => {
    const cache = createMemoryCache()
    const value = { text: 'Pull été – très doux 😀 日本語', odd: '\ud800 and \udfff alone' }
    await cache.set('k', value, { ttl: 10 })
    expect(await cache.get('k')).toEqual(value)
  })

  it('stores values as JSON, so a Date comes back as its ISO string', async () => {
    const cache = createMemoryCache()
    await cache.set('k', { at: new Date('2025-01-02T03:04:05.000Z') }, { ttl: 10 })
    expect(await cache.get('k')).toEqual({ at: '2025-01-02T03:04:05.000Z' })
  })

  it('rejects a value that JSON cannot represent', async () => {
    const cache = createMemoryCache()
    await expect(cache.set('k', () => 1, { ttl: 10 })).rejects.toThrow(/not JSON-serializable/)
  })

  it('serves an entry until its ttl elapses and misses it after', async () => {
    const time = clock()
    const cache = createMemoryCache({ now: time.now })
    await cache.set('k', 'v', { ttl: 10 })
    time.advance(9.999)
    expect(await cache.get('k')).toBe('v')
    time.advance(0.001)
    expect(await cache.get('k')).toBeUndefined()
  })

  it('evicts the least recently used entry when full', async () => {
    const cache = createMemoryCache({ maxEntries: 2 })
    await cache.set('a', 1, { ttl: 10 })
    await cache.set('b', 2, { ttl: 10 })
    await cache.get('a')
    await cache.set('c', 3, { ttl: 10 })
    expect(await cache.get('b')).toBeUndefined()
    expect(await cache.get('a')).toBe(1)
    expect(await cache.get('c')).toBe(3)
  })

  it('deletes one key', async () => {
    const cache = createMemoryCache()
    await cache.set('a', 1, { ttl: 10 })
    await cache.set('b', 2, { ttl: 10 })
    await cache.delete('a')
    expect(await cache.get('a')).toBeUndefined()
    expect(await cache.get('b')).toBe(2)
  })

  it('deletes every entry of a tag and only those', async () => {
    const cache = createMemoryCache()
    await cache.set('a', 1, { ttl: 10, tags: ['product:1', 'reviews'] })
    await cache.set('b', 2, { ttl: 10, tags: ['product:2', 'reviews'] })
    await cache.set('c', 3, { ttl: 10, tags: ['product:2'] })
    await cache.deleteByTag('product:2')
    expect(await cache.get('a')).toBe(1)
    expect(await cache.get('b')).toBeUndefined()
    expect(await cache.get('c')).toBeUndefined()
  })

  it('replaces the tags of a key that is stored again', async () => {
    const cache = createMemoryCache()
    await cache.set('a', 1, { ttl: 10, tags: ['old'] })
    await cache.set('a', 2, { ttl: 10, tags: ['new'] })
    await cache.deleteByTag('old')
    expect(await cache.get('a')).toBe(2)
    await cache.deleteByTag('new')
    expect(await cache.get('a')).toBeUndefined()
  })

  it('refuses a maxEntries below 1', () => {
    expect(() => createMemoryCache({ maxEntries: 0 })).toThrow(ValidationError)
  })
})
