import type { PrefetchShare } from '@verified-reviews/core/prefetch'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { positive } from '../internal/check.ts'
import { takeLock } from '../internal/lock.ts'

/** Options of {@link createRedisPrefetchShare}. */
export interface RedisPrefetchShareOptions {
  /**
   * Names this share under the connection's prefix.
   * @default 'prefetch'
   */
  name?: string
  /**
   * Seconds the build data stays in Redis, for the build that fetched it and its retries.
   * @default 86_400 (one day)
   */
  ttl?: number
  /**
   * Milliseconds the lock of the fetching process lasts without news from it: while it lives, it
   * extends the lock every third of that, so a process that dies frees the prefetch this soon.
   * @default 30_000
   */
  lockTtl?: number
  /**
   * Milliseconds reading or storing the build data may take (it can be tens of megabytes), instead of
   * the connection's `commandTimeout`.
   * @default 60_000
   */
  transferTimeout?: number
}

/**
 * A `PrefetchShare` in Redis, the `share` of `prefetchBuildData`: the build processes of several
 * machines (CI shards, a build farm) fetch the review data once, in the one process that takes the
 * lock, and the others read it from Redis. Give them the same `buildId` (a commit or CI build id).
 *
 * While Redis is unavailable, its methods throw `RedisUnavailableError`: the prefetch then falls back to
 * the SQLite file of each machine, with one warning.
 */
export function createRedisPrefetchShare(
  connection: RedisConnection,
  options: RedisPrefetchShareOptions = {},
): PrefetchShare {
  const runner = runnerOf(connection)
  const ttl = positive('ttl', options.ttl ?? 86_400, 'seconds')
  const lockTtl = positive('lockTtl', options.lockTtl ?? 30_000)
  const transferTimeout = positive('transferTimeout', options.transferTimeout ?? 60_000)
  const base = `${runner.prefix}${options.name ?? 'prefetch'}:`
  return {
    async get(name) {
      const text = await runner.send(['GET', `${base}${name}`], transferTimeout)
      return typeof text === 'string' ? text : undefined
    },
    async set(name, text) {
      await runner.send(['SET', `${base}${name}`, text, 'EX', String(Math.ceil(ttl))], transferTimeout)
    },
    lock: (name) => takeLock(runner, `${base}${name}`, lockTtl, { renew: true }),
  }
}
