import type { ClientOptions } from '@verified-reviews/core'
import type { RedisConnection } from './connection.ts'
import { createRedisCache, type RedisCacheOptions } from './stores/cache.ts'
import { createRedisRateBudget, type RedisRateBudgetOptions } from './stores/rate-budget.ts'
import { createRedisTokenStore, type RedisTokenStoreOptions } from './stores/token.ts'

/** Options of {@link redisClientOptions}: each store's options, or `false` to leave it out. */
export interface RedisClientOptions {
  /**
   * The cache of GET answers (with single-flight across instances).
   * @default {}
   */
  cache?: RedisCacheOptions | false
  /**
   * The shared access token.
   * @default {}
   */
  tokenStore?: RedisTokenStoreOptions | false
  /**
   * The shared rate budget.
   * @default {}
   */
  rateBudget?: RedisRateBudgetOptions | false
}

/** What {@link redisClientOptions} gives: the options of `createClient` that share state through Redis. */
export type RedisSharedClientOptions = Pick<ClientOptions, 'cache' | 'tokenStore' | 'rateBudget'>

/**
 * The options of `createClient` that make the clients of every instance share one cache, one token
 * and one rate budget through Redis. Spread them into the client's options.
 *
 * @example
 * ```ts
 * import { createClient } from '@verified-reviews/core'
 * import { createRedisConnection, redisClientOptions } from '@verified-reviews/redis'
 *
 * const redis = createRedisConnection() // REDIS_URL
 * export const vr = createClient({ ...redisClientOptions(redis) })
 * ```
 */
export function redisClientOptions(
  connection: RedisConnection,
  options: RedisClientOptions = {},
): RedisSharedClientOptions {
  const shared: RedisSharedClientOptions = {}
  if (options.cache !== false) shared.cache = createRedisCache(connection, options.cache)
  if (options.tokenStore !== false) shared.tokenStore = createRedisTokenStore(connection, options.tokenStore)
  if (options.rateBudget !== false) shared.rateBudget = createRedisRateBudget(connection, options.rateBudget)
  return shared
}
