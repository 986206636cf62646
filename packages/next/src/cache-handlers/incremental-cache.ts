// The incremental cache (pages, route answers, fetch) `withVerifiedReviews` installs when the config
// names none: Next.js's own `FileSystemCache`, which never stores a page rendered from an API failure over
// a good one. Next.js loads this file by its path.
import FileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
import { failSafeIncrementalCache, type IncrementalCacheHandler } from '../cache-handlers.ts'

// biome-ignore lint/suspicious/noExplicitAny: Next.js constructs it with its own context
type HandlerClass = new (...args: any[]) => IncrementalCacheHandler

// A CommonJS module: Node.js's default import is its `module.exports`, whose `default` is the class.
const Base = ((FileSystemCache as unknown as { default?: HandlerClass }).default ??
  FileSystemCache) as unknown as HandlerClass

export default failSafeIncrementalCache(Base)
