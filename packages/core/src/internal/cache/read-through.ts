import { remembered } from '../base/remembered.ts'
import type { SharedLock } from '../base/shared-state.ts'
import { type SingleFlight, singleFlight } from '../base/single-flight.ts'
import { check } from '../base/validate.ts'
import type { CacheStore } from './store.ts'

/** Options of {@link cachedRead}. Durations are in seconds, as in `Cache-Control`. */
export interface CachedReadOptions {
  /** Seconds a loaded value stays fresh: it is served without calling `load`. */
  ttl: number
  /**
   * Seconds after `ttl` during which a stale value is served at once while a single background
   * load refreshes it.
   * @default 0
   */
  staleWhileRevalidate?: number
  /**
   * Seconds after `ttl` during which a stale value is served instead of the error when `load` fails.
   * @default 0
   */
  staleIfError?: number
  /** Tags stored with the value, so that `store.deleteByTag(tag)` invalidates it. */
  tags?: readonly string[]
  /**
   * Clock in milliseconds since the epoch; tests pass a fake one.
   * @default Date.now
   */
  now?: () => number
  /**
   * Receives the errors that do not reach the caller: a failed background refresh, or a store that
   * failed to read or write (the read then goes to `load` as if the cache were empty).
   * @default errors are dropped
   */
  onError?: (error: unknown, context: CacheErrorContext) => void
  /**
   * With a store shared by several instances that has a `lock` (Redis): seconds an instance waits
   * for the value another instance is loading before it loads the value itself.
   * @default 10
   */
  lockWait?: number
}

/** Where an error reported to {@link CachedReadOptions.onError} happened. */
export interface CacheErrorContext {
  key: string
  /** `lock`: the shared lock of a store that has one could not be taken or released. */
  during: 'refresh' | 'get' | 'set' | 'lock'
}

/** What {@link cachedRead} keeps in the store around the value: enough to tell fresh from stale. */
interface Envelope {
  v: 1
  value: unknown
  storedAt: number
  freshUntil: number
}

/** One read: what it reads, where, how, and the loads under way in its store. */
interface Read<T> {
  store: CacheStore
  key: string
  load: () => T | PromiseLike<T>
  options: CachedReadOptions
  flights: Flights
}

interface Flights {
  /** Whole reads in progress, so that concurrent identical reads share one. */
  reads: SingleFlight<string, unknown>
  /** Loads in progress (first loads and background refreshes), so that a key is loaded once at a time. */
  loads: SingleFlight<string, unknown>
}

// Single-flight in a process goes through these maps; across processes, through the store's `lock`.
const flightsByStore = new WeakMap<CacheStore, Flights>()

/**
 * Reads `key` through `store`: a fresh value is returned; a missing one is loaded with `load`, stored
 * for `ttl` seconds and returned. Within `staleWhileRevalidate` seconds of going stale a value is
 * returned at once while one background load refreshes it; within `staleIfError`, it is returned when
 * `load` throws. Concurrent reads of one key share one read (the first sets the options), and a key is
 * never loaded twice at once.
 *
 * With a shared store that has a `lock` (Redis), one instance at a time loads a key while the others
 * wait for it in the store (up to `lockWait` seconds), so a cold key read by ten servers makes one
 * upstream call. A lock that cannot be taken is reported with `during: 'lock'` and the value loaded here.
 *
 * @example
 * const reviews = await cachedRead(store, 'reviews:SKU-1', () => fetchReviews('SKU-1'), {
 *   ttl: 300,
 *   staleWhileRevalidate: 3600,
 *   staleIfError: 86_400,
 *   tags: ['product:SKU-1'],
 * })
 */
export function cachedRead<T>(
  store: CacheStore,
  key: string,
  load: () => T | PromiseLike<T>,
  options: CachedReadOptions,
): Promise<T> {
  checkSeconds('ttl', options.ttl)
  checkSeconds('staleWhileRevalidate', options.staleWhileRevalidate ?? 0)
  checkSeconds('staleIfError', options.staleIfError ?? 0)
  checkSeconds('lockWait', options.lockWait ?? 10)
  const flights = remembered(flightsByStore, store, () => ({ reads: singleFlight(), loads: singleFlight() }))
  return flights.reads.run(key, () => readThrough({ store, key, load, options, flights })) as Promise<T>
}

async function readThrough<T>(read: Read<T>): Promise<T> {
  const { store, key, options } = read
  const now = options.now ?? Date.now
  let entry: Envelope | undefined
  try {
    entry = asEnvelope(await store.get(key))
  } catch (error) {
    report(read, error, 'get')
  }
  if (entry !== undefined) {
    const time = now()
    if (time < entry.freshUntil) return entry.value as T
    if (time < entry.freshUntil + (options.staleWhileRevalidate ?? 0) * 1000) {
      loadOnce(read, entry).catch((error: unknown) => {
        report(read, error, 'refresh')
      })
      return entry.value as T
    }
  }
  try {
    return await loadOnce(read, entry)
  } catch (error) {
    if (entry !== undefined && now() < entry.freshUntil + (options.staleIfError ?? 0) * 1000) {
      return entry.value as T
    }
    throw error
  }
}

function loadOnce<T>(read: Read<T>, seen: Envelope | undefined): Promise<T> {
  return read.flights.loads.run(read.key, () =>
    hasLock(read.store) ? loadAcrossInstances(read, read.store, seen) : loadAndStore(read),
  ) as Promise<T>
}

type LockingStore = CacheStore & Required<Pick<CacheStore, 'lock'>>

function hasLock(store: CacheStore): store is LockingStore {
  return typeof store.lock === 'function'
}

async function loadAndStore<T>(read: Read<T>): Promise<T> {
  const { store, key, load, options } = read
  const value = await load()
  const now = options.now ?? Date.now
  const storedAt = now()
  const envelope: Envelope = { v: 1, value, storedAt, freshUntil: storedAt + options.ttl * 1000 }
  const keepFor = options.ttl + Math.max(options.staleWhileRevalidate ?? 0, options.staleIfError ?? 0)
  try {
    await store.set(
      key,
      envelope,
      options.tags === undefined ? { ttl: keepFor } : { ttl: keepFor, tags: options.tags },
    )
  } catch (error) {
    report(read, error, 'set')
  }
  return value
}

/**
 * Loads `key` in the one instance that takes the store's lock; the others look at the store until the
 * value it stores there appears (an entry other than `seen`, the one this read found), the lock is
 * free again (the holder failed: one of them takes it), or `lockWait` has passed.
 */
async function loadAcrossInstances<T>(
  read: Read<T>,
  store: LockingStore,
  seen: Envelope | undefined,
): Promise<T> {
  const { key, options } = read
  const waitUntil = Date.now() + (options.lockWait ?? 10) * 1000
  const stored = async (): Promise<Envelope | undefined> => {
    try {
      const entry = asEnvelope(await store.get(key))
      const isNew =
        entry !== undefined &&
        (seen === undefined || entry.storedAt !== seen.storedAt || entry.freshUntil !== seen.freshUntil)
      return isNew ? entry : undefined
    } catch (error) {
      report(read, error, 'get')
      return undefined
    }
  }
  let delay = LOCK_POLL_MS
  for (;;) {
    let lock: SharedLock | undefined
    try {
      lock = await store.lock(key)
    } catch (error) {
      report(read, error, 'lock')
      return loadAndStore(read)
    }
    if (lock !== undefined) {
      try {
        // Another instance may have stored the value between this read and the lock.
        const raced = await stored()
        if (raced !== undefined) return raced.value as T
        return await loadAndStore(read)
      } finally {
        await lock.release().catch((error: unknown) => report(read, error, 'lock'))
      }
    }
    if (Date.now() >= waitUntil) return loadAndStore(read)
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(1, waitUntil - Date.now()))))
    delay = Math.min(delay * 2, LOCK_POLL_MS * 8)
    const entry = await stored()
    if (entry !== undefined) return entry.value as T
  }
}

/** Milliseconds between two looks at a shared store while another instance loads (doubling up to 8 times). */
const LOCK_POLL_MS = 25

// An entry this function did not write (another writer, an older format) reads as a miss.
function asEnvelope(stored: unknown): Envelope | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined
  const entry = stored as Partial<Envelope>
  if (entry.v !== 1 || typeof entry.freshUntil !== 'number' || typeof entry.storedAt !== 'number')
    return undefined
  if (!('value' in entry)) return undefined
  return entry as Envelope
}

function checkSeconds(name: string, value: number): void {
  const fits = Number.isFinite(value) && value >= 0
  check(fits, name, `must be a finite number of seconds, 0 or more; got ${String(value)}`)
}

function report({ options, key }: Read<unknown>, error: unknown, during: CacheErrorContext['during']): void {
  options.onError?.(error, { key, during })
}
