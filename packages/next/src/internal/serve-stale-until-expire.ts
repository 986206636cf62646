import type { UseCacheEntry, UseCacheHandler } from '../cache-handlers.ts'

/** An entry of a `'use cache'` handler with the times Next.js always gives it. */
export interface TimedUseCacheEntry extends UseCacheEntry {
  timestamp: number
  expire: number
  revalidate: number
}

/** Most keys whose `revalidate` is remembered; past it, the oldest is forgotten (and served as stale). */
const REMEMBERED_KEYS = 10_000

/**
 * `handler` (Next.js's in-memory `'use cache'` handler), made to serve an entry past its `revalidate`
 * until its `expire`, with its own `revalidate`, so that Next.js serves it stale and renders it again in
 * the background, as it does with a shared handler. Next.js's handler drops such an entry instead, in
 * production, and the next request renders it in the foreground: during an outage that render fails, and
 * the reviews the site had are no longer served. `handler` is given each entry with `revalidate` raised
 * to its `expire`; the real one is kept here and given back on each read.
 */
export function serveStaleUntilExpire<Entry extends TimedUseCacheEntry>(
  handler: UseCacheHandler<Entry>,
): UseCacheHandler<Entry> {
  const revalidateOf = new Map<string, number>()
  const remember = (cacheKey: string, revalidate: number): void => {
    revalidateOf.delete(cacheKey)
    if (revalidateOf.size >= REMEMBERED_KEYS) {
      const oldest = revalidateOf.keys().next().value
      if (oldest !== undefined) revalidateOf.delete(oldest)
    }
    revalidateOf.set(cacheKey, revalidate)
  }
  return {
    async get(cacheKey, softTags) {
      const found = await handler.get(cacheKey, softTags)
      if (found === undefined) return undefined
      // -1 from `handler`: a tag of the entry was revalidated. A key forgotten here: stale, to be safe.
      const revalidate = found.revalidate === -1 ? -1 : (revalidateOf.get(cacheKey) ?? -1)
      return { ...found, revalidate }
    },
    set(cacheKey, pendingEntry) {
      // Handed on at once, so that `handler` makes a read of this key wait for the value.
      return handler.set(
        cacheKey,
        pendingEntry.then((entry) => {
          remember(cacheKey, entry.revalidate)
          return { ...entry, revalidate: Math.max(entry.revalidate, entry.expire) }
        }),
      )
    },
    refreshTags: () => handler.refreshTags(),
    getExpiration: (tags) => handler.getExpiration(tags),
    updateTags: (tags, durations) => handler.updateTags(tags, durations),
  }
}
