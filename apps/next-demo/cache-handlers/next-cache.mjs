// Next.js's cache of pages, route handlers and fetch in the Redis every `next start` instance shares, with
// the tags revalidateTag marks; the pages of the build are read from the build output (Next.js's
// FileSystemCache), which every instance serves. A page rendered from an API failure never replaces a good
// one. Used only when REDIS_URL is set (next.config.ts). Next.js imports this file itself, so it is plain
// JavaScript.

import { failSafeIncrementalCache } from '@verified-reviews/next/cache-handlers'
import { createRedisConnection } from '@verified-reviews/redis'
import { createRedisNextCacheHandler } from '@verified-reviews/redis/next-cache-handler'
import FileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js'

export default failSafeIncrementalCache(
  createRedisNextCacheHandler(createRedisConnection(), {
    fallback: (context) => new FileSystemCache.default(context),
  }),
)
