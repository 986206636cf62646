/**
 * The `'use cache'` handler in Redis ({@link createRedisUseCacheHandler}), exported by
 * `@verified-reviews/redis/next-cache-handler`.
 *
 * @module
 */
import { type RedisConnection, runnerOf } from '../connection.ts'
import { defineScript } from '../internal/runner.ts'
import { freshness, type RedisNextCacheOptions, tagManifest, unlessUnavailable } from './tag-manifest.ts'

/** A cache entry of `'use cache'`, as Next.js hands it to a handler and reads it back. */
export interface UseCacheEntry {
  /** The serialized value; a handler reads it once in `set` and returns a new stream from each `get`. */
  value: ReadableStream<Uint8Array>
  /** The entry's tags (`cacheTag`), soft tags aside. */
  tags: string[]
  /** Seconds the client may use the entry without asking (not used by the handler). */
  stale: number
  /** When the entry was made, in milliseconds since the epoch. */
  timestamp: number
  /** Seconds after `timestamp` past which the entry must not be used. */
  expire: number
  /** Seconds after `timestamp` past which Next.js regenerates the entry in the background; `-1` at once. */
  revalidate: number
}

/**
 * The interface of a `'use cache'` handler in Next.js 16 (`CacheHandler` of
 * `next/dist/server/lib/cache-handlers/types`), declared here so that this package does not depend on
 * Next.js.
 */
export interface UseCacheHandler {
  get(cacheKey: string, softTags: string[]): Promise<UseCacheEntry | undefined>
  set(cacheKey: string, pendingEntry: Promise<UseCacheEntry>): Promise<void>
  refreshTags(): Promise<void>
  getExpiration(tags: string[]): Promise<number>
  updateTags(tags: string[], durations?: { expire?: number }): Promise<void>
}

/**
 * The tag `@verified-reviews/next` gives a render made from an API failure (`markFailedRender`): an
 * entry with it never replaces an entry without it.
 */
const FAILED_RENDER_TAG = 'verified-reviews:failed-render'

/**
 * SET of an entry rendered from an API failure (ARGV: the entry, its expiry in ms, the failed tag),
 * unless the key holds an entry without the tag: a good entry stays until its own expire, even one that
 * a tag expired (`revalidateTag` with `expire: 0`, `updateTag`) and that no read serves any more. One
 * script, so that a good entry another instance stores meanwhile is never overwritten. 1 when stored.
 */
const SET_UNLESS_GOOD = defineScript(`
local current = redis.call('GET', KEYS[1])
if current then
  local ok, entry = pcall(cjson.decode, current)
  if ok and type(entry) == 'table' and type(entry.tags) == 'table' then
    local failed = false
    for _, tag in ipairs(entry.tags) do
      if tag == ARGV[3] then failed = true end
    end
    if not failed then return 0 end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1
`)

interface StoredEntry {
  tags: string[]
  stale: number
  timestamp: number
  expire: number
  revalidate: number
  /** The value's bytes, base64 (commands go as strings). */
  value: string
}

function parseEntry(text: unknown): StoredEntry | undefined {
  if (typeof text !== 'string') return undefined
  try {
    const entry = JSON.parse(text) as Partial<StoredEntry>
    if (
      !Array.isArray(entry.tags) ||
      typeof entry.value !== 'string' ||
      typeof entry.timestamp !== 'number' ||
      typeof entry.expire !== 'number' ||
      typeof entry.revalidate !== 'number' ||
      typeof entry.stale !== 'number'
    ) {
      return undefined
    }
    return entry as StoredEntry
  } catch {
    return undefined
  }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = []
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes))
      controller.close()
    },
  })
}

/**
 * A `'use cache'` handler in Redis, shared by every `next start` instance of a site: an entry one
 * instance stores is read by the others, and a tag that `revalidateTag` (or `updateTag`) expires on
 * one instance is expired on all of them. Give it to Next.js from a module of its own:
 *
 * ```js
 * // cache-handlers/use-cache.mjs
 * import { createRedisConnection } from '@verified-reviews/redis'
 * import { createRedisUseCacheHandler } from '@verified-reviews/redis/next-cache-handler'
 *
 * export default createRedisUseCacheHandler(createRedisConnection()) // REDIS_URL
 * ```
 *
 * ```ts
 * // next.config.ts
 * const config = { cacheComponents: true, cacheHandlers: { default: './cache-handlers/use-cache.mjs' } }
 * ```
 *
 * It follows the rules of Next.js's built-in handler: an entry with a tag expired after it was made is
 * a miss; one with a tag marked stale after it was made is returned with `revalidate: -1`, so that
 * Next.js serves it once and regenerates it (a page that is being regenerated regenerates it at once);
 * `getExpiration` gives the newest expiry of the soft tags. Each entry expires from Redis at its
 * `expire`; an entry with `expire: 0` (dynamic) is not stored. A tag's marks are two fields of one
 * hash, a few dozen bytes per tag ever revalidated.
 *
 * An entry rendered from an API failure (tagged `verified-reviews:failed-render` by
 * `@verified-reviews/next`) never replaces one without that tag, even one that no read serves any more
 * because its tag was expired (`revalidateTag(tag, { expire: 0 })`, `updateTag`): Next.js serves that
 * render to the request that made it, and the next request renders again, until the API answers. Where
 * the key holds nothing, or another failed render, it is stored. `failSafeUseCacheHandler` of
 * `@verified-reviews/next/cache-handlers` adds the rule for a good entry that is still served stale.
 *
 * While Redis is unavailable (see the connection's `commandTimeout` and `retryInterval`), every read
 * is a miss, so pages render fresh and never from an entry whose tags could not be checked; writes
 * are dropped; tag updates are remembered (up to 10,000 tags) and written when Redis answers again,
 * so no revalidation is lost.
 */
export function createRedisUseCacheHandler(
  connection: RedisConnection,
  options: RedisNextCacheOptions = {},
): UseCacheHandler {
  const runner = runnerOf(connection)
  const now = options.now ?? Date.now
  const base = `${runner.prefix}${options.name ?? 'next'}:`
  const entryKey = (cacheKey: string) => `${base}use-cache:${cacheKey}`
  const tags = tagManifest(runner, `${base}tags`, now)
  const pendingSets = new Map<string, Promise<void>>()

  return {
    async get(cacheKey) {
      const pending = pendingSets.get(cacheKey)
      if (pending !== undefined) await pending
      const entry = await unlessUnavailable(async () =>
        parseEntry(await runner.send(['GET', entryKey(cacheKey)])),
      )
      if (entry === undefined) return undefined
      const at = now()
      if (at > entry.timestamp + entry.expire * 1000) return undefined
      const marks = await tags.read(entry.tags)
      // Tags that cannot be checked: a miss, never an entry that may have been revalidated.
      if (marks === undefined) return undefined
      const state = freshness(marks, entry.timestamp, at)
      if (state === 'expired') return undefined
      return {
        tags: entry.tags,
        stale: entry.stale,
        timestamp: entry.timestamp,
        expire: entry.expire,
        revalidate: state === 'stale' ? -1 : entry.revalidate,
        value: streamOf(Buffer.from(entry.value, 'base64')),
      }
    },

    async set(cacheKey, pendingEntry) {
      let done = () => {}
      const settled = new Promise<void>((resolve) => {
        done = resolve
      })
      pendingSets.set(cacheKey, settled)
      try {
        let entry: UseCacheEntry
        let bytes: Buffer
        try {
          entry = await pendingEntry
          // Read whatever happens to the entry, so that the stream is consumed once, as Next.js expects.
          bytes = await readAll(entry.value)
        } catch {
          // A value that failed to render is not kept, as with Next.js's built-in handler.
          return
        }
        // A dynamic entry is regenerated on every read: storing it would be a write nobody reads.
        if (entry.expire === 0) return
        const expiresAt = Math.floor(entry.timestamp + entry.expire * 1000)
        if (expiresAt <= now()) return
        const stored: StoredEntry = {
          tags: entry.tags,
          stale: entry.stale,
          timestamp: entry.timestamp,
          expire: entry.expire,
          revalidate: entry.revalidate,
          value: bytes.toString('base64'),
        }
        const json = JSON.stringify(stored)
        await unlessUnavailable(() =>
          entry.tags.includes(FAILED_RENDER_TAG)
            ? runner.script(
                SET_UNLESS_GOOD,
                [entryKey(cacheKey)],
                [json, String(expiresAt), FAILED_RENDER_TAG],
              )
            : runner.send(['SET', entryKey(cacheKey), json, 'PXAT', String(expiresAt)]),
        )
      } finally {
        if (pendingSets.get(cacheKey) === settled) pendingSets.delete(cacheKey)
        done()
      }
    },

    // Every read asks Redis for the marks of its tags: there is no local manifest to refresh.
    async refreshTags() {},

    async getExpiration(softTags) {
      const marks = await tags.read(softTags)
      return Math.max(0, ...(marks ?? []).map(([, expiredAt]) => expiredAt ?? 0))
    },

    updateTags: (revalidated, durations) => tags.mark(revalidated, durations),
  }
}
