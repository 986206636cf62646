/**
 * `@verified-reviews/core/cache`: a store interface for cached API data, an in-memory LRU store, and
 * a read-through function with stale-while-revalidate, stale-if-error and single-flight. `SharedLock`,
 * what a store's `lock` gives, is exported by the main entry.
 */
export { createMemoryCache, type MemoryCacheOptions } from './internal/cache/memory-store.ts'
export { type CachedReadOptions, type CacheErrorContext, cachedRead } from './internal/cache/read-through.ts'
export type { CacheSetOptions, CacheStore } from './internal/cache/store.ts'
