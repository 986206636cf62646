/**
 * `@verified-reviews/next/cache-handlers`: Next.js cache handlers that never let a render made from an
 * API failure replace a good one. `withVerifiedReviews` installs them around Next.js's own handlers (the
 * incremental cache, and the in-memory `'use cache'` handler of the `default` and `remote` kinds) where
 * the config names none; wrap your own handlers (Redis, for several instances) with these functions.
 *
 * A data component whose API call fails at request time renders without reviews and tags its render
 * `verified-reviews:failed-render`, kept 30 s at most. The handlers below refuse to store such a render
 * over a good entry of the same key (a page, or a `'use cache'` entry, that has its reviews): the good
 * one goes on being served, stale, and is rendered again at a later request, so a page recovers by
 * itself once the API answers. Where no good entry exists (a first render), the failed one is stored, for
 * those 30 s.
 *
 * A handler whose entries several instances read calls `markRenderCacheShared()` when its module loads
 * (the Redis handlers of `withRedisCache` do): pages then read a replica every instance shares, or the
 * API, never a replica of this server's own.
 *
 * @module
 */
import type {
  IncrementalCacheHandler,
  IncrementalCacheSetContext,
  IncrementalCacheValue,
  UseCacheEntry,
  UseCacheHandler,
} from './internal/cache-handler-types.ts'
import { isFailedRender } from './internal/failed-render-tag.ts'
import { isTagFetch, isTagFetchLookup, tagFetchEntry } from './internal/render-tags.ts'

// What the modules of a shared cache give besides: the replica the build writes into (the Redis package's).
export type { BuildReplicaTarget } from './internal/build-replica.ts'
export type {
  IncrementalCacheHandler,
  IncrementalCacheSetContext,
  IncrementalCacheValue,
  UseCacheEntry,
  UseCacheHandler,
} from './internal/cache-handler-types.ts'
// Next.js's own incremental cache handler, which Next.js does not export: for a handler that reads the build's pages.
export { NextFileSystemCache } from './internal/next-internals.ts'
export { markRenderCacheShared } from './internal/render-cache-sharing.ts'

/** Most keys whose good entry one wrapper remembers; past it, the oldest is forgotten. */
const REMEMBERED_GOOD_KEYS = 10_000

/**
 * `handler`, except that an entry rendered from an API failure never replaces a good entry of the same
 * key that `handler` stored:
 *
 * - while `handler` serves the good entry (fresh, or stale), the failed one is dropped: the good one goes
 *   on being served, and the next request that finds it stale renders it again;
 * - while `handler` holds a good entry it no longer serves (its tag was revalidated with `expire: 0`, or
 *   `updateTag`; a handler that hides entries past their `revalidate`), the failed render is served to the
 *   request that made it and not stored, so every request renders again until the API answers. This
 *   wrapper knows of such an entry when it stored it itself (up to 10,000 keys, each until its `expire`);
 *   a handler shared by several servers needs the same rule of its own, as the Redis handler of
 *   `@verified-reviews/redis` has;
 * - where no good entry exists (a first render), the failed one is stored, and revalidates after 30 s.
 *
 * @example
 * // cache-handlers/use-cache.mjs
 * import { failSafeUseCacheHandler } from '@verified-reviews/next/cache-handlers'
 * import { createRedisConnection } from '@verified-reviews/redis'
 * import { createRedisUseCacheHandler } from '@verified-reviews/redis/next-cache-handler'
 * export default failSafeUseCacheHandler(createRedisUseCacheHandler(createRedisConnection()))
 */
export function failSafeUseCacheHandler<Entry extends UseCacheEntry>(
  handler: UseCacheHandler<Entry>,
): UseCacheHandler<Entry> {
  // Key → when the good entry this wrapper last stored for it expires (ms since the epoch).
  const goodUntil = new Map<string, number>()
  const holdsGood = (cacheKey: string): boolean => {
    const until = goodUntil.get(cacheKey)
    if (until === undefined) return false
    if (until > Date.now()) return true
    goodUntil.delete(cacheKey)
    return false
  }
  const rememberGood = (cacheKey: string, entry: Entry): void => {
    goodUntil.delete(cacheKey)
    if (entry.timestamp === undefined || entry.expire === undefined) return
    if (goodUntil.size >= REMEMBERED_GOOD_KEYS) {
      const oldest = goodUntil.keys().next().value
      if (oldest !== undefined) goodUntil.delete(oldest)
    }
    goodUntil.set(cacheKey, entry.timestamp + entry.expire * 1000)
  }
  return {
    get: (cacheKey, softTags) => handler.get(cacheKey, softTags),
    async set(cacheKey, pendingEntry) {
      const entry = await pendingEntry
      if (!isFailedRender(entry.tags)) {
        await handler.set(cacheKey, Promise.resolve(entry))
        rememberGood(cacheKey, entry)
        return
      }
      const current = await handler.get(cacheKey, [])
      const keepsGood = current !== undefined ? !isFailedRender(current.tags) : holdsGood(cacheKey)
      if (keepsGood) {
        // Neither stream is read further: Next.js has what it serves, and nothing is stored.
        await Promise.allSettled([current?.value.cancel(), entry.value.cancel()])
        return
      }
      await current?.value.cancel()
      await handler.set(cacheKey, Promise.resolve(entry))
    },
    refreshTags: () => handler.refreshTags(),
    getExpiration: (tags) => handler.getExpiration(tags),
    updateTags: (tags, durations) => handler.updateTags(tags, durations),
  }
}

/** The tags of a page, route or fetch answer in the incremental cache. */
function tagsOfValue(value: IncrementalCacheValue | null | undefined): string[] {
  const header = value?.headers?.['x-next-cache-tags']
  if (typeof header === 'string') return header.split(',')
  return Array.isArray(value?.tags) ? value.tags : []
}

const RENDERED_KINDS = new Set(['APP_PAGE', 'APP_ROUTE', 'PAGES'])

/**
 * A subclass of the incremental cache handler `Base` (Next.js's `FileSystemCache`, or a Redis one) that
 * does not store a page rendered from an API failure over a good page of the same key: the good page
 * goes on being served, stale, and is rendered again at a later request. It stores no answer of the
 * `data:` fetch through which the components tag a render (it carries no data; a view rendered per
 * request would otherwise leave one entry per product in a shared cache), and answers that fetch's
 * lookup itself, with an empty answer, without asking `Base` (a file read, or a Redis round trip, at
 * every such render): Next.js then makes no fetch, and stores nothing, for it.
 *
 * @example
 * // cache-handlers/next-cache.mjs
 * import { failSafeIncrementalCache } from '@verified-reviews/next/cache-handlers'
 * import { createRedisConnection } from '@verified-reviews/redis'
 * import { createRedisNextCacheHandler } from '@verified-reviews/redis/next-cache-handler'
 * export default failSafeIncrementalCache(createRedisNextCacheHandler(createRedisConnection()))
 */
// biome-ignore lint/suspicious/noExplicitAny: a class of any constructor, as Next.js constructs it
export function failSafeIncrementalCache<Base extends new (...args: any[]) => IncrementalCacheHandler>(
  BaseHandler: Base,
): Base {
  return class FailSafeIncrementalCache extends BaseHandler {
    // The tagging fetch of a render is never stored (below): its lookup is answered here, with no read
    // of the cache (a file, or a Redis round trip) at every render that tags itself, each page of a build,
    // and with an entry, so that Next.js does not make the fetch, copy its answer and offer it to `set`.
    override get(key: string, context: never): ReturnType<IncrementalCacheHandler['get']> {
      if (isTagFetchLookup(context)) return Promise.resolve(tagFetchEntry(context))
      return super.get(key, context)
    }

    override async set(
      key: string,
      value: IncrementalCacheValue | null,
      context: IncrementalCacheSetContext,
    ): Promise<void> {
      // The tagging fetch of a render (a `data:` URL, no data): stored, it would be an entry per product.
      if (isTagFetch(value)) return
      if (value !== null && RENDERED_KINDS.has(value.kind) && isFailedRender(tagsOfValue(value))) {
        const current = await this.get(key, {
          kind: value.kind,
          isRoutePPREnabled: context.isRoutePPREnabled,
          isFallback: context.isFallback ?? false,
        } as never)
        if (current?.value != null && !isFailedRender(tagsOfValue(current.value))) return
      }
      await super.set(key, value, context)
    }
  }
}
