// The `'use cache'` handler (`cacheHandlers.default` and `.remote`) that `withRedisCache`
// (`@verified-reviews/redis/next-config`) names: entries and tags in the Redis of REDIS_URL, which every
// `next start` instance shares; a render from an API failure never replaces a good entry. Next.js imports
// this file by its path: it is plain ESM in dist, and `@verified-reviews/next` resolves from the user's app.
import { failSafeUseCacheHandler, markRenderCacheShared } from '@verified-reviews/next/cache-handlers'
import { createRedisConnection } from '../connection.ts'
import { createRedisUseCacheHandler } from './use-cache-handler.ts'

// Every instance serves what one stored: the pages must read a replica they share too.
markRenderCacheShared()

export default failSafeUseCacheHandler(createRedisUseCacheHandler(createRedisConnection()))
