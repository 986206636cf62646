// The `'use cache'` handler (`cacheHandlers.default` and `.remote`) `withVerifiedReviews` installs when
// the config names none: Next.js's own in-memory handler, of Next.js's default size (50 MB), serving an
// entry stale until its expire, and never storing a render from an API failure over a good entry.
// Next.js loads this file by its path, once per server, and uses one instance for both kinds.
import { failSafeUseCacheHandler } from '../cache-handlers.ts'
import { createNextDefaultCacheHandler } from '../internal/next-internals.ts'
import { serveStaleUntilExpire, type TimedUseCacheEntry } from '../internal/serve-stale-until-expire.ts'

/** Next.js's default `cacheMaxMemorySize`, the size of its own in-memory handler. */
const MEMORY_SIZE = 50 * 1024 * 1024

export default failSafeUseCacheHandler(
  serveStaleUntilExpire(createNextDefaultCacheHandler<TimedUseCacheEntry>(MEMORY_SIZE)),
)
