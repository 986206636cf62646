import type { StoredToken, TokenStore } from '@verified-reviews/core'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { positive } from '../internal/check.ts'
import { takeLock } from '../internal/lock.ts'
import { defineScript } from '../internal/runner.ts'

/** Options of {@link createRedisTokenStore}. */
export interface RedisTokenStoreOptions {
  /**
   * Names this store under the connection's prefix.
   * @default 'token'
   */
  name?: string
  /**
   * Milliseconds the lock of the instance fetching a token lasts, so that an instance that dies
   * while fetching frees it.
   * @default 10_000
   */
  lockTtl?: number
}

// Drops the token only while it is still the refused one: a newer token another instance stored stays.
const DELETE_IF = defineScript(`
local text = redis.call('GET', KEYS[1])
if not text then return 0 end
local ok, token = pcall(cjson.decode, text)
if not ok or type(token) ~= 'table' or token.value == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

function parseToken(text: unknown): StoredToken | undefined {
  if (typeof text !== 'string') return undefined
  try {
    const token = JSON.parse(text) as Partial<StoredToken>
    if (typeof token.value !== 'string' || typeof token.issuedAt !== 'number') return undefined
    const expiresAt = typeof token.expiresAt === 'number' ? token.expiresAt : undefined
    return { value: token.value, issuedAt: token.issuedAt, expiresAt }
  } catch {
    return undefined
  }
}

/**
 * A {@link TokenStore} in Redis, the client's `tokenStore`: the instances of a site share one access
 * token per API and account, so that N instances fetch one token, not N. Each token expires from
 * Redis when it expires; the instance that takes the lock fetches a new one while the others wait for
 * it. Redis must be private to your servers, as it holds the token (never the client secret).
 *
 * While Redis is unavailable, its methods throw `RedisUnavailableError` at once: the client then
 * fetches and keeps its own token, as it does without a store.
 */
export function createRedisTokenStore(
  connection: RedisConnection,
  options: RedisTokenStoreOptions = {},
): TokenStore {
  const runner = runnerOf(connection)
  const lockTtl = positive('lockTtl', options.lockTtl ?? 10_000)
  const base = `${runner.prefix}${options.name ?? 'token'}:`
  return {
    async get(key) {
      return parseToken(await runner.send(['GET', `${base}v:${key}`]))
    },
    async set(key, token) {
      const text = JSON.stringify({
        value: token.value,
        issuedAt: token.issuedAt,
        expiresAt: token.expiresAt,
      })
      if (token.expiresAt === undefined) {
        await runner.send(['SET', `${base}v:${key}`, text])
        return
      }
      const ttl = Math.floor(token.expiresAt - Date.now())
      if (ttl > 0) await runner.send(['SET', `${base}v:${key}`, text, 'PX', String(ttl)])
    },
    async delete(key, value) {
      await runner.script(DELETE_IF, [`${base}v:${key}`], [value])
    },
    lock: (key) => takeLock(runner, `${base}l:${key}`, lockTtl),
  }
}
