/**
 * `@verified-reviews/redis`: the state that several instances of a site (servers, serverless
 * functions, build workers) share through Redis: the cache of API answers with single-flight across
 * instances, the access token, the rate budget, the review store of the sync, the build prefetch, and
 * the outbox of purchase events.
 * When Redis is down or slow, pages still render: each store falls back to local state, with one
 * warning per outage.
 *
 * @module
 */
export {
  type RedisClientOptions,
  type RedisSharedClientOptions,
  redisClientOptions,
} from './client-options.ts'
export {
  createRedisConnection,
  type RedisCommandClient,
  type RedisConnection,
  type RedisConnectionOptions,
  type RedisLogger,
} from './connection.ts'
export { createRedisOutboxStore, type RedisOutboxStoreOptions } from './outbox.ts'
export { RedisUnavailableError } from './redis-unavailable-error.ts'
export { createRedisCache, type RedisCacheOptions } from './stores/cache.ts'
export { createRedisPrefetchShare, type RedisPrefetchShareOptions } from './stores/prefetch-share.ts'
export { createRedisRateBudget, type RateWindow, type RedisRateBudgetOptions } from './stores/rate-budget.ts'
export { createRedisReviewStore, type RedisReviewStoreOptions } from './stores/review-store.ts'
export {
  createRedisBrandRatingStore,
  createRedisReplica,
  createRedisSummaryStore,
  type RedisBrandRatingStoreOptions,
  type RedisReplicaOptions,
  type RedisSummaryStoreOptions,
} from './stores/summary-store.ts'
export { createRedisTokenStore, type RedisTokenStoreOptions } from './stores/token.ts'
