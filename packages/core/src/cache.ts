/**
 * `@verified-reviews/core/cache`: a store interface for cached API data, an in-memory LRU store, and
 * a read-through function with stale-while-revalidate, stale-if-error and single-flight.
 */
export { createMemoryCache, type MemoryCacheOptions } from './internal/cache/memory-store.ts'
export { type CachedReadOptions, type CacheErrorContext, cachedRead } from './internal/cache/read-through.ts'
export type { CacheSetOptions, CacheStore } from './internal/cache/store.ts'
export type { SharedLock } from './internal/shared-state.ts'
