import { type SharedLock, ValidationError } from '@verified-reviews/core'
import { type CacheSetOptions, type CacheStore, createMemoryCache } from '@verified-reviews/core/cache'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { positive } from '../internal/check.ts'
import { takeLock } from '../internal/lock.ts'
import { defineScript } from '../internal/runner.ts'
import { RedisUnavailableError } from '../redis-unavailable-error.ts'

/** Options of {@link createRedisCache}. */
export interface RedisCacheOptions {
  /**
   * Names this cache under the connection's prefix, so that two caches in one Redis stay apart.
   * @default 'cache'
   */
  name?: string
  /**
   * Where entries go while Redis is unavailable, so that pages still render from a cache: each
   * instance then has its own. Deletions made meanwhile are applied to Redis once it answers again.
   * @default createMemoryCache()
   */
  fallback?: CacheStore
  /**
   * Milliseconds the lock of a key being loaded lasts (single-flight across instances), so that an
   * instance that dies while loading frees the key; an instance waits at most `lockWait` (10 s by
   * default) for another one's value anyway.
   * @default 15_000
   */
  lockTtl?: number
}

// Stores the entry and adds its key to each tag's set; a tag's set lives as long as its longest entry.
const SET = defineScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local ttl = tonumber(ARGV[2])
for i = 2, #KEYS do
  redis.call('SADD', KEYS[i], KEYS[1])
  local left = redis.call('PTTL', KEYS[i])
  if left < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1
`)

// Drops every key of a tag's set, 500 at a time (Lua's unpack has a limit), then the set itself.
const DELETE_BY_TAG = defineScript(`
local keys = redis.call('SMEMBERS', KEYS[1])
for i = 1, #keys, 500 do
  redis.call('DEL', unpack(keys, i, math.min(i + 499, #keys)))
end
redis.call('DEL', KEYS[1])
return #keys
`)

/** Deletions made while Redis was unavailable, to apply once it answers again. At most this many. */
const MAX_PENDING = 10_000

/**
 * A {@link CacheStore} in Redis, shared by every instance: the client's `cache` store (and any
 * `cachedRead`). Entries expire with their TTL; tags are Redis sets, so `deleteByTag` drops every
 * entry of a tag on every instance at once; `lock` (`SET NX PX`) lets one instance load a missing key
 * while the others wait for it, so a cold page on ten servers makes one upstream call.
 *
 * While Redis is unavailable, reads and writes go to `fallback` (in memory by default), a lock is taken
 * at once (each instance loads for itself), and deletions are remembered and applied to Redis once it
 * answers again, so that no invalidation is lost.
 *
 * A key stored again with other tags stays in the sets of its earlier tags until they expire: deleting
 * one of those tags drops it too (an extra miss, never a stale read).
 */
export function createRedisCache(connection: RedisConnection, options: RedisCacheOptions = {}): CacheStore {
  const runner = runnerOf(connection)
  const name = options.name ?? 'cache'
  const lockTtl = positive('lockTtl', options.lockTtl ?? 15_000)
  const fallback = options.fallback ?? createMemoryCache()
  const base = `${runner.prefix}${name}:`
  const entryKey = (key: string) => `${base}v:${key}`
  const tagKey = (tag: string) => `${base}t:${tag}`
  const lockKey = (key: string) => `${base}l:${key}`

  const pending = { keys: new Set<string>(), tags: new Set<string>() }
  const remember = (set: Set<string>, value: string) => {
    if (pending.keys.size + pending.tags.size < MAX_PENDING) set.add(value)
  }
  runner.onRecovery(async () => {
    for (const key of [...pending.keys]) {
      await runner.send(['DEL', entryKey(key)])
      pending.keys.delete(key)
    }
    for (const tag of [...pending.tags]) {
      await runner.script(DELETE_BY_TAG, [tagKey(tag)], [])
      pending.tags.delete(tag)
    }
  })

  /** Runs `shared` in Redis, or `local` when Redis is unavailable. */
  const orFallback = async <T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> => {
    try {
      return await shared()
    } catch (error) {
      if (error instanceof RedisUnavailableError) return local()
      throw error
    }
  }

  return {
    get: (key) =>
      orFallback(
        async () => {
          const text = await runner.send(['GET', entryKey(key)])
          return typeof text === 'string' ? JSON.parse(text) : undefined
        },
        () => fallback.get(key),
      ),

    async set(key, value, setOptions: CacheSetOptions) {
      const json = JSON.stringify(value)
      if (json === undefined) {
        throw new ValidationError([{ field: 'value', message: `of "${key}" is not JSON-serializable` }])
      }
      const ttl = Math.ceil(setOptions.ttl * 1000)
      await orFallback(
        async () => {
          if (!(ttl > 0)) {
            await runner.send(['DEL', entryKey(key)])
            return
          }
          const tags = [...new Set(setOptions.tags ?? [])].map(tagKey)
          await runner.script(SET, [entryKey(key), ...tags], [json, String(ttl)])
        },
        () => fallback.set(key, value, setOptions),
      )
    },

    async delete(key) {
      // The fallback forgets it too, so that a later outage never serves what was deleted meanwhile.
      await fallback.delete(key)
      await orFallback(
        async () => {
          await runner.send(['DEL', entryKey(key)])
        },
        async () => remember(pending.keys, key),
      )
    },

    async deleteByTag(tag) {
      await fallback.deleteByTag(tag)
      await orFallback(
        async () => {
          await runner.script(DELETE_BY_TAG, [tagKey(tag)], [])
        },
        async () => remember(pending.tags, tag),
      )
    },

    lock: (key) =>
      orFallback<SharedLock | undefined>(
        () => takeLock(runner, lockKey(key), lockTtl),
        // Each instance loads for itself while Redis is unavailable.
        async () => ({ release: async () => {} }),
      ),
  }
}
