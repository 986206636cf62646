// The incremental cache (pages, route answers, fetch) `withVerifiedReviews` installs when the config
// names none: Next.js's own `FileSystemCache`, which never stores a page rendered from an API failure over
// a good one. Next.js loads this file by its path.
import { failSafeIncrementalCache } from '../cache-handlers.ts'
import { NextFileSystemCache } from '../internal/next-internals.ts'

export default failSafeIncrementalCache(NextFileSystemCache)
