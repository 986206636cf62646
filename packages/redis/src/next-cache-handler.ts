/**
 * `@verified-reviews/redis/next-cache-handler`: Next.js 16's two caches in Redis, so that several
 * `next start` instances of one build share what they cached and the tags that `revalidateTag` (and
 * `updateTag`) revalidate. {@link createRedisUseCacheHandler} is the handler of `'use cache'` entries
 * (the `cacheHandlers` option), {@link createRedisNextCacheHandler} the handler of pages, route
 * handlers and `fetch` (the `cacheHandler` option); both read one tag manifest in Redis. They follow
 * the rules of Next.js's built-in handlers, and need no dependency on Next.js. `withRedisCache` of
 * `@verified-reviews/redis/next-config` wires both, wrapped and with the build's pages as fallback; use
 * these for a wiring of your own.
 *
 * @module
 */
export {
  createRedisNextCacheHandler,
  type NextCacheContext,
  type NextCacheEntry,
  type NextCacheHandler,
  type NextCacheHandlerClass,
  type RedisNextCacheHandlerOptions,
} from './next-cache-handlers/incremental-cache-handler.ts'
export type { RedisNextCacheOptions } from './next-cache-handlers/tag-manifest.ts'
export {
  createRedisUseCacheHandler,
  type UseCacheEntry,
  type UseCacheHandler,
} from './next-cache-handlers/use-cache-handler.ts'
