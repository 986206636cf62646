/**
 * The handler of Next.js's other cache in Redis, pages, route handlers and `fetch`
 * ({@link createRedisNextCacheHandler}), exported by `@verified-reviews/redis/next-cache-handler`.
 *
 * @module
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type RedisConnection, runnerOf } from '../connection.ts'
import { freshness, type RedisNextCacheOptions, tagManifest, unlessUnavailable } from './tag-manifest.ts'

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
 * import { NextFileSystemCache } from '@verified-reviews/next/cache-handlers'
 * import { createRedisConnection } from '@verified-reviews/redis'
 * import { createRedisNextCacheHandler } from '@verified-reviews/redis/next-cache-handler'
 *
 * export default createRedisNextCacheHandler(createRedisConnection(), {
 *   fallback: (context) => new NextFileSystemCache(context),
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
