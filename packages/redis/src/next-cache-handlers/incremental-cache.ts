// The `cacheHandler` that `withRedisCache` (`@verified-reviews/redis/next-config`) names: Next.js's cache of
// pages, route handlers and `fetch` in the Redis of REDIS_URL, which every `next start` instance shares;
// the pages of the build are read from the build output (Next.js's FileSystemCache), which every instance
// serves; a page rendered from an API failure never replaces a good one. Next.js imports this file by its
// path: it is plain ESM in dist, and `@verified-reviews/next` resolves from the user's app.
import {
  failSafeIncrementalCache,
  markRenderCacheShared,
  NextFileSystemCache,
} from '@verified-reviews/next/cache-handlers'
import { createRedisConnection } from '../connection.ts'
import { createRedisNextCacheHandler, type NextCacheHandler } from './incremental-cache-handler.ts'

// Every instance serves what one stored: the pages must read a replica they share too.
markRenderCacheShared()

export default failSafeIncrementalCache(
  createRedisNextCacheHandler(createRedisConnection(), {
    // Next.js's own handler, whose entries are Next.js's: those this package's handler stores.
    fallback: (context) => new NextFileSystemCache(context) as unknown as Pick<NextCacheHandler, 'get'>,
  }),
)
