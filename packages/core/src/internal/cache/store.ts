import type { SharedLock } from '../base/shared-state.ts'

/** How long and under which tags a store keeps one entry. */
export interface CacheSetOptions {
  /** Seconds the store keeps the entry; after that, `get` misses. */
  ttl: number
  /** Tags that {@link CacheStore.deleteByTag} can later drop the entry by. */
  tags?: readonly string[]
}

/**
 * Where cached API data lives: in memory by default ({@link createMemoryCache}), or a shared store
 * such as Redis so that several servers and build workers share one cache. Values are
 * JSON-serializable; a store may (and the memory store does) keep them as JSON text, so a value read
 * back is a copy and `Date`s come back as strings.
 */
export interface CacheStore {
  /** The value stored under `key`, or `undefined` when there is none or it expired. */
  get(key: string): Promise<unknown>
  /** Stores `value` under `key` for `options.ttl` seconds, replacing any earlier value. */
  set(key: string, value: unknown, options: CacheSetOptions): Promise<void>
  /** Drops the entry under `key`, if any. */
  delete(key: string): Promise<void>
  /** Drops every entry stored with `tag`. */
  deleteByTag(tag: string): Promise<void>
  /**
   * Optional, for a store shared by several instances: takes a short lock on `key` so that one
   * instance loads a missing value while the others wait for it in the store (`cachedRead` uses it
   * for single-flight across instances). Resolves undefined when another instance holds the lock.
   * A lock whose holder dies must expire by itself.
   */
  lock?(key: string): Promise<SharedLock | undefined>
}
