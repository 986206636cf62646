/**
 * The modules of Next.js this package uses that Next.js does not publish (`next/dist/…`), all here:
 * Next.js 16 exports neither of its default cache handlers (the incremental cache's `FileSystemCache`
 * and the in-memory `'use cache'` handler), and `withVerifiedReviews` wraps them where the config names
 * none. Each is checked when this module loads, so that a Next.js release that moves or reshapes one
 * stops the server with a message saying which, rather than failing at a request;
 * `next-internals.test.ts` runs a real round trip through each.
 */
import defaultCacheHandlers from 'next/dist/server/lib/cache-handlers/default.js'
import fileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
import type { IncrementalCacheHandler, UseCacheEntry, UseCacheHandler } from './cache-handler-types.ts'

/** The Next.js modules below, by the path this module imports them from. */
const FILE_SYSTEM_CACHE = 'next/dist/server/lib/incremental-cache/file-system-cache.js'
const DEFAULT_CACHE_HANDLERS = 'next/dist/server/lib/cache-handlers/default.js'

/** The error that says a Next.js module this package relies on is not what it was. */
function changed(path: string, wanted: string): Error {
  return new Error(
    `[@verified-reviews/next] ${path} has no ${wanted} in this version of Next.js: the cache handlers of @verified-reviews/next need a release that supports it`,
  )
}

/** `module.exports` of a CommonJS module (Node.js's default import), or its `default` where it has one. */
function commonJsDefault(imported: unknown): unknown {
  const exports = imported as { default?: unknown } | undefined
  return exports?.default ?? exports
}

/** A class of an incremental cache handler, as Next.js constructs it (`new Handler(context)`). */
// biome-ignore lint/suspicious/noExplicitAny: Next.js constructs it with its own context
export type IncrementalCacheHandlerClass = new (...args: any[]) => IncrementalCacheHandler

function loadFileSystemCache(): IncrementalCacheHandlerClass {
  const found = commonJsDefault(fileSystemCache)
  const methods = ['get', 'set', 'revalidateTag'] as const
  const prototype = (found as { prototype?: Record<string, unknown> } | undefined)?.prototype
  if (typeof found !== 'function' || methods.some((name) => typeof prototype?.[name] !== 'function')) {
    throw changed(FILE_SYSTEM_CACHE, `class FileSystemCache with ${methods.join(', ')}`)
  }
  return found as unknown as IncrementalCacheHandlerClass
}

/**
 * Next.js's own incremental cache handler (`FileSystemCache`), the one it uses where the config names no
 * `cacheHandler`: pages, route answers and `fetch` answers in memory and in the build output, where it
 * also reads the pages `next build` prerendered; a handler of your own can read those through it (the
 * `fallback` of `createRedisNextCacheHandler` in `@verified-reviews/redis/next-cache-handler`).
 *
 * Next.js does not export it: this package imports it from inside `next`
 * (`next/dist/server/lib/incremental-cache/file-system-cache.js`), checks its shape when it loads, and
 * tests a round trip through it, so that a Next.js release that moves it fails there, with a message
 * that names it.
 */
export const NextFileSystemCache: IncrementalCacheHandlerClass = loadFileSystemCache()

type CreateDefaultCacheHandler = <Entry extends UseCacheEntry>(maxSize: number) => UseCacheHandler<Entry>

function loadDefaultCacheHandler(): CreateDefaultCacheHandler {
  const create = (defaultCacheHandlers as unknown as { createDefaultCacheHandler?: unknown })
    ?.createDefaultCacheHandler
  if (typeof create !== 'function')
    throw changed(DEFAULT_CACHE_HANDLERS, 'createDefaultCacheHandler(maxSize)')
  return create as CreateDefaultCacheHandler
}

/**
 * Next.js's own `'use cache'` handler, the one it uses where the config names no `cacheHandlers`: in
 * memory, of at most `maxSize` bytes.
 */
export const createNextDefaultCacheHandler: CreateDefaultCacheHandler = loadDefaultCacheHandler()
