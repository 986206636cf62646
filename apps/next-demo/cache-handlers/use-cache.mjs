// The cache of 'use cache' components (the review sections) in the Redis every `next start` instance
// shares, with the tags revalidateTag marks; a render from an API failure never replaces a good entry.
// Used only when REDIS_URL is set (next.config.ts). Next.js imports this file itself, so it is plain
// JavaScript.
import { failSafeUseCacheHandler } from '@verified-reviews/next/cache-handlers'
import { createRedisConnection } from '@verified-reviews/redis'
import { createRedisUseCacheHandler } from '@verified-reviews/redis/next-cache-handler'

export default failSafeUseCacheHandler(createRedisUseCacheHandler(createRedisConnection()))
