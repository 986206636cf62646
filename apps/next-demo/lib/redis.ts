import { createRedisConnection, type RedisConnection } from '@verified-reviews/redis'

/**
 * The connection to the Redis that several `next start` instances share, when `REDIS_URL` is set;
 * `undefined` otherwise (one instance, no Redis: the demo as `pnpm demo` runs it). `instrumentation.ts`
 * gives every instance the replica in it, which the pages read and the revalidate route keeps current.
 */
export const redis: RedisConnection | undefined = process.env.REDIS_URL ? createRedisConnection() : undefined
