import { describe, expect, it, vi } from 'vitest'
import { createMemoryCache } from './memory-store.ts'
import { cachedRead } from './read-through.ts'
import type { CacheStore } from './store.ts'

function clock(start = 1_000_000) {
  let time = start
  return {
    now: () => time,
    advance(seconds: number) {
      time += seconds * 1000
    },
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

// Lets every pending promise callback run, without timers.
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

function setup() {
  const time = clock()
  const store = createMemoryCache({ now: time.now })
  return { time, store }
}

describe('cachedRead', () => {
  it('loads a missing value and serves it from the store while fresh', async () => {
    const { time, store } = setup()
    const load = vi.fn(async () => 'v1')
    expect(await cachedRead(store, 'k', load, { ttl: 60, now: time.now })).toBe('v1')
    time.advance(59)
    expect(await cachedRead(store, 'k', load, { ttl: 60, now: time.now })).toBe('v1')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('waits for a new load once the value is stale and no stale window applies', async () => {
    const { time, store } = setup()
    await cachedRead(store, 'k', async () => 'v1', { ttl: 60, now: time.now })
    time.advance(60)
    expect(await cachedRead(store, 'k', async () => 'v2', { ttl: 60, now: time.now })).toBe('v2')
  })

  it('serves a stale value at once within staleWhileRevalidate and refreshes it in the background', async () => {
    const { time, store } = setup()
    const options = { ttl: 60, staleWhileRevalidate: 600, now: time.now }
    await cachedRead(store, 'k', async () => 'v1', options)
    time.advance(120)
    const refresh = deferred<string>()
    expect(await cachedRead(store, 'k', () => refresh.promise, options)).toBe('v1')
    refresh.resolve('v2')
    await settle()
    expect(await cachedRead(store, 'k', async () => 'v3', options)).toBe('v2')
  })

  it('starts one background refresh for many stale reads', async () => {
    const { time, store } = setup()
    const options = { ttl: 60, staleWhileRevalidate: 600, now: time.now }
    await cachedRead(store, 'k', async () => 'v1', options)
    time.advance(120)
    const refresh = deferred<string>()
    const load = vi.fn(() => refresh.promise)
    const reads = await Promise.all([1, 2, 3].map(() => cachedRead(store, 'k', load, options)))
    expect(await cachedRead(store, 'k', load, options)).toBe('v1')
    expect(reads).toEqual(['v1', 'v1', 'v1'])
    expect(load).toHaveBeenCalledTimes(1)
    refresh.resolve('v2')
  })

  it('keeps the stale value and reports the error when a background refresh fails', async () => {
    const { time, store } = setup()
    const onError = vi.fn()
    const options = { ttl: 60, staleWhileRevalidate: 600, now: time.now, onError }
    await cachedRead(store, 'k', async () => 'v1', options)
    time.advance(120)
    const failure = new Error('upstream down')
    expect(await cachedRead(store, 'k', () => Promise.reject(failure), options)).toBe('v1')
    await settle()
    expect(onError).toHaveBeenCalledWith(failure, { key: 'k', during: 'refresh' })
    expect(await cachedRead(store, 'k', () => new Promise<string>(() => {}), options)).toBe('v1')
  })

  it('waits for a load once the value is older than ttl plus staleWhileRevalidate', async () => {
    const { time, store } = setup()
    const options = { ttl: 60, staleWhileRevalidate: 600, now: time.now }
    await cachedRead(store, 'k', async () => 'v1', options)
    time.advance(660)
    expect(await cachedRead(store, 'k', async () => 'v2', options)).toBe('v2')
  })

  it('serves a stale value when the load fails within staleIfError', async () => {
    const { time, store } = setup()
    const options = { ttl: 60, staleIfError: 3600, now: time.now }
    await cachedRead(store, 'k', async () => 'v1', options)
    time.advance(3659)
    expect(await cachedRead(store, 'k', () => Promise.reject(new Error('down')), options)).toBe('v1')
  })

  it('throws the load error once the value is older than ttl plus staleIfError', async () => {
    const { time, store } = setup()
    const options = { ttl: 60, staleIfError: 3600, now: time.now }
    await cachedRead(store, 'k', async () => 'v1', options)
    time.advance(3660)
    await expect(cachedRead(store, 'k', () => Promise.reject(new Error('down')), options)).rejects.toThrow(
      'down',
    )
  })

  it('throws the load error when nothing is cached', async () => {
    const { time, store } = setup()
    const read = cachedRead(store, 'k', () => Promise.reject(new Error('down')), { ttl: 60, now: time.now })
    await expect(read).rejects.toThrow('down')
  })

  it('throws an error that load throws synchronously as a rejection', async () => {
    const { time, store } = setup()
    const load = (): string => {
      throw new Error('bad input')
    }
    await expect(cachedRead(store, 'k', load, { ttl: 60, now: time.now })).rejects.toThrow('bad input')
  })

  it('makes concurrent reads of a missing key share one load', async () => {
    const { time, store } = setup()
    const loaded = deferred<string>()
    const load = vi.fn(() => loaded.promise)
    const reads = [1, 2, 3].map(() => cachedRead(store, 'k', load, { ttl: 60, now: time.now }))
    loaded.resolve('v1')
    expect(await Promise.all(reads)).toEqual(['v1', 'v1', 'v1'])
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('loads different keys separately', async () => {
    const { time, store } = setup()
    const a = cachedRead(store, 'a', async () => 'A', { ttl: 60, now: time.now })
    const b = cachedRead(store, 'b', async () => 'B', { ttl: 60, now: time.now })
    expect(await Promise.all([a, b])).toEqual(['A', 'B'])
  })

  it('makes a read that finds nothing usable join a background refresh already running', async () => {
    const { time, store } = setup()
    const options = { ttl: 60, staleWhileRevalidate: 600, now: time.now }
    await cachedRead(store, 'k', async () => 'v1', options)
    time.advance(120)
    const refresh = deferred<string>()
    await cachedRead(store, 'k', () => refresh.promise, options)
    await store.delete('k')
    const second = vi.fn(async () => 'other')
    const cold = cachedRead(store, 'k', second, options)
    refresh.resolve('v2')
    expect(await cold).toBe('v2')
    expect(second).not.toHaveBeenCalled()
  })

  it('loads again after the entry is dropped by one of its tags', async () => {
    const { time, store } = setup()
    const options = { ttl: 60, tags: ['product:SKU-1'], now: time.now }
    await cachedRead(store, 'k', async () => 'v1', options)
    await store.deleteByTag('product:SKU-1')
    expect(await cachedRead(store, 'k', async () => 'v2', options)).toBe('v2')
  })

  it('keeps the entry in the store for ttl plus the longer stale window', async () => {
    const { time, store } = setup()
    const set = vi.spyOn(store, 'set')
    await cachedRead(store, 'k', async () => 'v1', {
      ttl: 60,
      staleWhileRevalidate: 30,
      staleIfError: 90,
      now: time.now,
    })
    expect(set.mock.calls[0]?.[2]).toEqual({ ttl: 150 })
  })

  it('reads through to load and reports it when the store fails', async () => {
    const onError = vi.fn()
    const failure = new Error('store down')
    const broken: CacheStore = {
      get: () => Promise.reject(failure),
      set: () => Promise.reject(failure),
      delete: async () => {},
      deleteByTag: async () => {},
    }
    expect(await cachedRead(broken, 'k', async () => 'v1', { ttl: 60, onError })).toBe('v1')
    expect(onError.mock.calls.map(([, context]) => context.during)).toEqual(['get', 'set'])
  })

  it('treats an entry it did not write as a miss', async () => {
    const { time, store } = setup()
    await store.set('k', 'written by someone else', { ttl: 60 })
    expect(await cachedRead(store, 'k', async () => 'v1', { ttl: 60, now: time.now })).toBe('v1')
  })

  it('refuses a negative or infinite duration', () => {
    const store = createMemoryCache()
    expect(() => cachedRead(store, 'k', async () => 1, { ttl: -1 })).toThrow(/ttl/)
    expect(() => cachedRead(store, 'k', async () => 1, { ttl: 1, staleIfError: Infinity })).toThrow(
      /staleIfError/,
    )
  })
})

/**
 * One backing store with locks, as Redis is for several servers; `instance()` gives each server its
 * own store object, so that only the lock (not the in-process single-flight) keeps them apart.
 */
function sharedBacking() {
  const backing = createMemoryCache()
  const locks = new Set<string>()
  const instance = (): CacheStore => ({
    get: (key) => backing.get(key),
    set: (key, value, options) => backing.set(key, value, options),
    delete: (key) => backing.delete(key),
    deleteByTag: (tag) => backing.deleteByTag(tag),
    lock: async (key) => {
      if (locks.has(key)) return undefined
      locks.add(key)
      return { release: async () => void locks.delete(key) }
    },
  })
  return { instance, locks }
}

describe('cachedRead across instances (a store with a lock)', () => {
  it('makes one load when two instances read a missing key at once', async () => {
    const { instance } = sharedBacking()
    const load = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return 'v1'
    })
    const reads = [instance(), instance()].map((store) => cachedRead(store, 'k', load, { ttl: 60 }))
    expect(await Promise.all(reads)).toEqual(['v1', 'v1'])
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('makes one background refresh when two instances serve the same stale value', async () => {
    const { instance } = sharedBacking()
    const time = clock()
    const [a, b] = [instance(), instance()]
    const options = { ttl: 60, staleWhileRevalidate: 600, now: time.now }
    await cachedRead(a, 'k', async () => 'v1', options)
    time.advance(61)
    const gate = deferred<string>()
    const load = vi.fn(() => gate.promise)
    expect(await cachedRead(a, 'k', load, options)).toBe('v1')
    expect(await cachedRead(b, 'k', load, options)).toBe('v1')
    gate.resolve('v2')
    await vi.waitFor(async () => expect(await cachedRead(b, 'k', load, options)).toBe('v2'))
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('loads in a waiting instance when the one holding the lock fails', async () => {
    const { instance } = sharedBacking()
    const first = deferred<string>()
    const failing = cachedRead(instance(), 'k', () => first.promise, { ttl: 60 })
    const waiting = cachedRead(instance(), 'k', async () => 'from b', { ttl: 60 })
    await new Promise((resolve) => setTimeout(resolve, 20))
    first.reject(new Error('upstream down'))
    await expect(failing).rejects.toThrow('upstream down')
    expect(await waiting).toBe('from b')
  })

  it('loads by itself once it has waited lockWait seconds for another instance', async () => {
    const { instance, locks } = sharedBacking()
    locks.add('k')
    const started = Date.now()
    expect(await cachedRead(instance(), 'k', async () => 'v1', { ttl: 60, lockWait: 0.1 })).toBe('v1')
    expect(Date.now() - started).toBeGreaterThanOrEqual(90)
  })

  it('loads and reports it when the lock cannot be taken', async () => {
    const onError = vi.fn()
    const store: CacheStore = {
      ...createMemoryCache(),
      lock: () => Promise.reject(new Error('redis is down')),
    }
    expect(await cachedRead(store, 'k', async () => 'v1', { ttl: 60, onError })).toBe('v1')
    expect(onError.mock.calls.map(([, context]) => context.during)).toEqual(['lock'])
  })
})
