/**
 * `@verified-reviews/redis/next-cache-handler`: Next.js 16's two caches in Redis, so that several
 * `next start` instances of one build share what they cached and the tags that `revalidateTag` (and
 * `updateTag`) revalidate. {@link createRedisUseCacheHandler} is the handler of `'use cache'` entries
 * (the `cacheHandlers` option), {@link createRedisNextCacheHandler} the handler of pages, route
 * handlers and `fetch` (the `cacheHandler` option); both read one tag manifest in Redis. They follow
 * the rules of Next.js's built-in handlers, and need no dependency on Next.js. `withRedisCache` of
 * `@verified-reviews/redis/next-config` wires both, wrapped and with the build's pages as fallback; use
 * these for a wiring of your own.
 *
 * @module
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type RedisConnection, runnerOf } from './connection.ts'
import { defineScript, type Runner } from './internal/runner.ts'
import { RedisUnavailableError } from './redis-unavailable-error.ts'

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

/** Options of {@link createRedisUseCacheHandler} and {@link createRedisNextCacheHandler}. */
export interface RedisNextCacheOptions {
  /**
   * Names the keys of both handlers under the connection's prefix; give both the same name, so that
   * they share one tag manifest. Builds need no names of their own: Next.js puts the build id in every
   * key of `'use cache'`, and the page handler puts the one of `<distDir>/BUILD_ID` in its keys.
   * @default 'next'
   */
  name?: string
  /**
   * The clock, in milliseconds since the epoch. The instances' clocks should agree to within a small
   * part of a second: a tag revalidated on one instance expires the entries another made before it.
   * @default Date.now
   */
  now?: () => number
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

/** Most tag marks remembered while Redis is unavailable. */
const MAX_PENDING_TAGS = 10_000

/** The marks `revalidateTag` leaves on tags, in one hash that both handlers and every instance share. */
interface TagManifest {
  /** `[staleAt, expiredAt]` of each tag (undefined where never marked); undefined when Redis is unavailable. */
  read(tags: readonly string[]): Promise<[number | undefined, number | undefined][] | undefined>
  /** Marks the tags: expired at once, or, with `durations`, stale at once and expired after `expire` seconds. */
  mark(tags: readonly string[], durations?: { expire?: number }): Promise<void>
}

/** Milliseconds before marks Redis refused are written again: doubled at each refusal, up to 30 s. */
const MARK_RETRY = { first: 500, max: 30_000 } as const

function tagManifest(runner: Runner, key: string, now: () => number): TagManifest {
  // Marks Redis did not take (unavailable, or a refused write such as OOM): field → value, written on
  // recovery or at the next retry; until then this instance reads them as if Redis held them.
  const pending = new Map<string, number>()
  let retry: ReturnType<typeof setTimeout> | undefined
  let retryDelay: number = MARK_RETRY.first
  const write = async (marks: Map<string, number>): Promise<void> => {
    if (marks.size === 0) return
    await runner.send(['HSET', key, ...[...marks].flatMap(([field, at]) => [field, String(at)])])
  }
  const keep = (marks: Map<string, number>): void => {
    for (const [field, value] of marks) {
      if (pending.size < MAX_PENDING_TAGS || pending.has(field)) pending.set(field, value)
    }
  }
  const flush = async (): Promise<void> => {
    const marks = new Map(pending)
    await write(marks)
    for (const [field, at] of marks) if (pending.get(field) === at) pending.delete(field)
  }
  const scheduleRetry = (): void => {
    if (retry !== undefined) return
    retry = setTimeout(() => {
      retry = undefined
      flush().then(
        () => {
          retryDelay = MARK_RETRY.first
        },
        () => {
          retryDelay = Math.min(retryDelay * 2, MARK_RETRY.max)
          scheduleRetry()
        },
      )
    }, retryDelay)
    retry.unref?.()
  }
  runner.onRecovery(flush)
  return {
    async read(tags) {
      if (tags.length === 0) return []
      const fields = tags.flatMap((tag) => [`s:${tag}`, `x:${tag}`])
      const values = await unlessUnavailable(async () => times(await runner.send(['HMGET', key, ...fields])))
      if (values === undefined) return undefined
      // A mark not written yet is newer than what Redis holds for its field.
      const marked = (index: number): number | undefined => {
        const local = pending.get(fields[index] as string)
        const stored = values[index]
        return local === undefined ? stored : Math.max(local, stored ?? 0)
      }
      return tags.map((_, index) => [marked(index * 2), marked(index * 2 + 1)])
    },
    async mark(tags, durations) {
      if (tags.length === 0) return
      const at = Math.round(now())
      const marks = new Map<string, number>()
      for (const tag of tags) {
        if (durations === undefined) {
          marks.set(`x:${tag}`, at)
        } else {
          // Stale at once, so the next read regenerates it; expired when the profile's expire has passed.
          marks.set(`s:${tag}`, at)
          if (durations.expire !== undefined) marks.set(`x:${tag}`, at + durations.expire * 1000)
        }
      }
      try {
        await write(marks)
      } catch (error) {
        // No revalidation is lost: kept, and written on recovery (unavailable) or by a retry (a refusal).
        keep(marks)
        if (!(error instanceof RedisUnavailableError)) scheduleRetry()
      }
    },
  }
}

/** Whether the marks say an entry made at `madeAt` is expired, stale, or neither. */
function freshness(
  marks: readonly [number | undefined, number | undefined][],
  madeAt: number,
  at: number,
): 'expired' | 'stale' | 'fresh' {
  let stale = false
  for (const [staleAt, expiredAt] of marks) {
    // Expired by a tag revalidated after the entry was made, and whose expiry has come.
    if (expiredAt !== undefined && expiredAt <= at && expiredAt > madeAt) return 'expired'
    if (staleAt !== undefined && staleAt > madeAt) stale = true
  }
  return stale ? 'stale' : 'fresh'
}

/** Runs a read in Redis; undefined when Redis is unavailable. */
async function unlessUnavailable<T>(task: () => Promise<T>): Promise<T | undefined> {
  try {
    return await task()
  } catch (error) {
    if (error instanceof RedisUnavailableError) return undefined
    throw error
  }
}

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

function times(values: unknown): (number | undefined)[] {
  return (Array.isArray(values) ? values : []).map((value) =>
    typeof value === 'string' && value !== '' ? Number(value) : undefined,
  )
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

/**
 * What Next.js's other cache stores (`cacheHandler`): a prerendered or regenerated page, a route
 * handler's answer, a `fetch` answer. Its fields are Next.js's; the handler stores them as they are.
 */
export interface NextCacheEntry {
  /** When the value was made, in milliseconds since the epoch; `-1` makes Next.js render it again before answering. */
  lastModified: number
  value: { kind: string; [field: string]: unknown } | null
  cacheControl?: { revalidate?: number | false; expire?: number }
}

/** What Next.js tells the handler of a read or a write: the entry's kind, its tags and so on. */
export interface NextCacheContext {
  kind?: string
  tags?: string[]
  softTags?: string[]
  fetchCache?: boolean
  cacheControl?: { revalidate?: number | false; expire?: number }
  [field: string]: unknown
}

/** A handler of Next.js's `cacheHandler` option, as Next.js builds one (`new Handler(context)`) per request. */
export interface NextCacheHandler {
  get(key: string, context: NextCacheContext): Promise<NextCacheEntry | null>
  set(key: string, value: NextCacheEntry['value'], context: NextCacheContext): Promise<void>
  revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void>
  resetRequestCache(): void
}

/** The class Next.js's `cacheHandler` module exports as its default. */
export type NextCacheHandlerClass = new (context: Record<string, unknown>) => NextCacheHandler

/** Options of {@link createRedisNextCacheHandler}. */
export interface RedisNextCacheHandlerOptions extends RedisNextCacheOptions {
  /**
   * Where an entry Redis does not hold is read from: Next.js's own `FileSystemCache`, built with the
   * context Next.js gives the handler, reads the pages `next build` prerendered (every instance serves
   * the same build output). Its entries are checked against the tags revalidated in Redis, as Redis's are.
   * @default none: an entry Redis does not hold is rendered again
   */
  fallback?: (context: Record<string, unknown>) => Pick<NextCacheHandler, 'get'>
  /**
   * Seconds an entry with no `expire` of its own stays in Redis.
   * @default 2_592_000 (30 days)
   */
  ttl?: number
}

const TAGS_HEADER = 'x-next-cache-tags'

interface StoredNextEntry {
  lastModified: number
  tags: string[]
  value: unknown
  cacheControl?: NextCacheEntry['cacheControl']
}

/** JSON cannot hold bytes or maps: they are kept as `{ $bytes: base64 }` and `{ $map: [[key, value]] }`. */
function encode(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') }
  if (value instanceof Map) return { $map: [...value].map(([key, item]) => [key, encode(item)]) }
  if (Array.isArray(value)) return value.map(encode)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, encode(item)]))
  }
  return value
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode)
  if (typeof value !== 'object' || value === null) return value
  const record = value as Record<string, unknown>
  if (typeof record.$bytes === 'string' && Object.keys(record).length === 1) {
    return Buffer.from(record.$bytes, 'base64')
  }
  if (Array.isArray(record.$map) && Object.keys(record).length === 1) {
    return new Map((record.$map as [unknown, unknown][]).map(([key, item]) => [key, decode(item)]))
  }
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, decode(item)]))
}

/** Whether a page or route answer is a "not found" (status 404). */
function isNotFound(value: NonNullable<NextCacheEntry['value']>): boolean {
  return (
    (value.kind === 'APP_PAGE' || value.kind === 'PAGES' || value.kind === 'APP_ROUTE') &&
    value.status === 404
  )
}

/**
 * Seconds an entry stays in Redis: its own `expire`; for a `fetch` answer, twice its `revalidate` (past
 * it, Next.js sends the fetch again); `ttl` at most, and `ttl` for an entry that says neither.
 */
function lifetime(
  value: NonNullable<NextCacheEntry['value']>,
  context: NextCacheContext,
  ttl: number,
): number {
  if (value.kind === 'FETCH') {
    const revalidate = typeof value.revalidate === 'number' ? value.revalidate : context.revalidate
    if (typeof revalidate === 'number' && revalidate > 0) return Math.min(ttl, revalidate * 2)
    return ttl
  }
  const expire = context.cacheControl?.expire
  return typeof expire === 'number' && expire > 0 ? Math.min(ttl, expire) : ttl
}

/**
 * The build id `next build` wrote beside the server output (`<distDir>/BUILD_ID`), as a key part, so that
 * the pages of one build are never served by the next; empty when Next.js does not say where it is.
 */
function buildIdOf(context: Record<string, unknown>): string {
  const serverDistDir = context.serverDistDir
  if (typeof serverDistDir !== 'string') return ''
  let id = buildIds.get(serverDistDir)
  if (id === undefined) {
    try {
      id = `${readFileSync(join(serverDistDir, '..', 'BUILD_ID'), 'utf8').trim()}:`
    } catch {
      id = ''
    }
    // Next.js builds a handler per request: the file is read once per folder.
    buildIds.set(serverDistDir, id)
  }
  return id
}
const buildIds = new Map<string, string>()

/** The tags of an entry: those a page or route answer names in its headers, those of a `fetch`. */
function tagsOf(value: NextCacheEntry['value'], context: NextCacheContext): string[] {
  const headers = value?.headers as Record<string, unknown> | undefined
  const header = headers?.[TAGS_HEADER]
  if (typeof header === 'string' && header !== '') return header.split(',')
  const own = Array.isArray(value?.tags) ? (value.tags as string[]) : []
  return [...new Set([...own, ...(context.tags ?? [])])]
}

/**
 * Next.js's other cache in Redis: the `cacheHandler` option of `next.config`, which holds prerendered
 * and regenerated pages (ISR and Cache Components alike), route handler answers and `fetch` answers.
 * Every instance reads what another stored, and a tag revalidated through one instance is revalidated
 * for all: its entries are rendered again at their next request (a page blocks that request; a
 * `fetch` is sent again). Pages of the build are read through `fallback` (Next.js's `FileSystemCache`
 * on the build output every instance serves) and checked against the same tags. Give it the `name` of
 * the {@link createRedisUseCacheHandler} of the site, so that both read one tag manifest.
 *
 * ```js
 * // cache-handlers/next-cache.mjs
 * import FileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
 * import { createRedisConnection } from '@verified-reviews/redis'
 * import { createRedisNextCacheHandler } from '@verified-reviews/redis/next-cache-handler'
 *
 * export default createRedisNextCacheHandler(createRedisConnection(), {
 *   fallback: (context) => new FileSystemCache.default(context),
 * })
 * ```
 *
 * While Redis is unavailable, reads go to `fallback` alone (the build's pages), writes are dropped, and
 * revalidated tags are remembered (up to 10,000) and written when Redis answers again.
 */
export function createRedisNextCacheHandler(
  connection: RedisConnection,
  options: RedisNextCacheHandlerOptions = {},
): NextCacheHandlerClass {
  const runner = runnerOf(connection)
  const now = options.now ?? Date.now
  const ttl = options.ttl ?? 2_592_000
  const base = `${runner.prefix}${options.name ?? 'next'}:`
  const entryKey = (key: string) => `${base}cache:${key}`
  const manifest = tagManifest(runner, `${base}tags`, now)
  const makeFallback = options.fallback

  const stored = async (key: string): Promise<NextCacheEntry | undefined> => {
    const text = await unlessUnavailable(() => runner.send(['GET', entryKey(key)]))
    if (typeof text !== 'string') return undefined
    try {
      const entry = JSON.parse(text) as StoredNextEntry
      const result: NextCacheEntry = {
        lastModified: entry.lastModified,
        value: decode(entry.value) as NextCacheEntry['value'],
      }
      if (entry.cacheControl !== undefined) result.cacheControl = entry.cacheControl
      return result
    } catch {
      return undefined
    }
  }

  return class RedisNextCacheHandler implements NextCacheHandler {
    readonly #fallback: Pick<NextCacheHandler, 'get'> | undefined
    readonly #build: string

    constructor(context: Record<string, unknown>) {
      this.#fallback = makeFallback?.(context)
      this.#build = buildIdOf(context)
    }

    async get(key: string, context: NextCacheContext): Promise<NextCacheEntry | null> {
      const entry =
        (await stored(`${this.#build}${key}`)) ?? (await this.#fallback?.get(key, context)) ?? null
      if (entry === null) return null
      const isFetch = entry.value?.kind === 'FETCH'
      const tags = isFetch
        ? [...new Set([...tagsOf(entry.value, context), ...(context.softTags ?? [])])]
        : tagsOf(entry.value, context)
      const marks = await manifest.read(tags)
      const at = now()
      const state = marks === undefined ? 'fresh' : freshness(marks, entry.lastModified, at)
      if (state === 'fresh') return entry
      // Revalidated on some instance since it was made: a fetch is sent again. An expired page is rendered
      // again before the answer; a stale one is served as it is while Next.js renders it again.
      if (isFetch || state === 'expired') return isFetch ? null : { ...entry, lastModified: -1 }
      const revalidate = entry.cacheControl?.revalidate
      if (typeof revalidate === 'number') {
        return { ...entry, lastModified: Math.min(entry.lastModified, at - revalidate * 1000 - 1) }
      }
      // A page of the build says no lifetime of its own (Next.js has it from the prerender manifest): it
      // gets one that makes it stale now, and good for `ttl`, until its new render replaces it.
      return { ...entry, lastModified: at - 2000, cacheControl: { revalidate: 1, expire: ttl } }
    }

    async set(key: string, value: NextCacheEntry['value'], context: NextCacheContext): Promise<void> {
      if (value === null) return
      // A page of an unknown id: every visitor can make one, so none is kept.
      if (isNotFound(value)) return
      const seconds = lifetime(value, context, ttl)
      if (seconds <= 0) return
      const entry: StoredNextEntry = {
        lastModified: Math.round(now()),
        tags: tagsOf(value, context),
        value: encode(value),
      }
      if (context.cacheControl !== undefined) entry.cacheControl = context.cacheControl
      await unlessUnavailable(() =>
        runner.send([
          'SET',
          entryKey(`${this.#build}${key}`),
          JSON.stringify(entry),
          'PX',
          String(Math.ceil(seconds * 1000)),
        ]),
      )
    }

    async revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void> {
      await manifest.mark(typeof tags === 'string' ? [tags] : tags, durations)
    }

    resetRequestCache(): void {}
  }
}
