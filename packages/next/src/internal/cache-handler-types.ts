/**
 * The interfaces of Next.js's cache handlers as this package's wrappers call them, below both the
 * wrappers (`cache-handlers.ts`, which exports them) and Next.js's own handlers (`next-internals.ts`).
 */

/**
 * An entry of a `'use cache'` handler (Next.js's `CacheEntry`), as far as these wrappers read it; a
 * handler's own entry type, with more fields, fits it.
 */
export interface UseCacheEntry {
  value: ReadableStream<Uint8Array>
  tags: string[]
  /** When the entry was made, in milliseconds since the epoch (Next.js always sets it). */
  timestamp?: number
  /** Seconds after `timestamp` past which the entry must not be used (Next.js always sets it). */
  expire?: number
}

/** A `'use cache'` handler (`cacheHandlers` in `next.config`), Next.js 16's `CacheHandler` interface. */
export interface UseCacheHandler<Entry extends UseCacheEntry = UseCacheEntry> {
  get(cacheKey: string, softTags: string[]): Promise<Entry | undefined>
  set(cacheKey: string, pendingEntry: Promise<Entry>): Promise<void>
  refreshTags(): Promise<void>
  getExpiration(tags: string[]): Promise<number>
  updateTags(tags: string[], durations?: { expire?: number }): Promise<void>
}

/** What Next.js's incremental cache (`cacheHandler` in `next.config`) stores, as far as these wrappers read it. */
export interface IncrementalCacheValue {
  kind: string
  headers?: Record<string, unknown> | undefined
  tags?: string[] | undefined
  [field: string]: unknown
}

/** The context of an incremental cache `set` (`cacheHandler` in `next.config`). */
export interface IncrementalCacheSetContext {
  isRoutePPREnabled?: boolean
  isFallback?: boolean
  [field: string]: unknown
}

/** An incremental cache handler (`cacheHandler` in `next.config`), as far as these wrappers call it. */
export interface IncrementalCacheHandler {
  get(key: string, context: never): Promise<{ value: IncrementalCacheValue | null } | null | undefined>
  set(key: string, value: IncrementalCacheValue | null, context: IncrementalCacheSetContext): Promise<void>
}
