// The `cacheHandler` that `withRedisCache` (`@verified-reviews/redis/next-config`) names: Next.js's cache of
// pages, route handlers and `fetch` in the Redis of REDIS_URL, which every `next start` instance shares;
// the pages of the build are read from the build output (Next.js's FileSystemCache), which every instance
// serves; a page rendered from an API failure never replaces a good one. Next.js imports this file by its
// path: it is plain ESM in dist, and `next` and `@verified-reviews/next` resolve from the user's app.
import { failSafeIncrementalCache, markRenderCacheShared } from '@verified-reviews/next/cache-handlers'
import FileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
import { createRedisConnection } from '../connection.ts'
import { createRedisNextCacheHandler, type NextCacheHandler } from './incremental-cache-handler.ts'

// A CommonJS module: Node.js's default import is its `module.exports`, whose `default` is the class.
type FileSystemCacheClass = new (context: Record<string, unknown>) => Pick<NextCacheHandler, 'get'>
const BuildOutput = ((FileSystemCache as unknown as { default?: FileSystemCacheClass }).default ??
  FileSystemCache) as unknown as FileSystemCacheClass

// Every instance serves what one stored: the pages must read a replica they share too.
markRenderCacheShared()

export default failSafeIncrementalCache(
  createRedisNextCacheHandler(createRedisConnection(), {
    fallback: (context) => new BuildOutput(context),
  }),
)
