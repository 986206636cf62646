/**
 * `@verified-reviews/redis/next-config`: one function for `next.config.ts` that puts Next.js's caches in
 * Redis, for a site served by several `next start` instances. This entry opens no connection and
 * imports nothing of the server, so the config file can import it.
 *
 * @module
 */
import { fileURLToPath } from 'node:url'
import { redisUrlFromEnvironment } from './connection.ts'

/** What `next.config` may export: a config, or a function of the phase that gives one. */
export type NextConfigExport<C extends object> =
  | C
  | ((phase: string, context: { defaultConfig: C }) => C | Promise<C>)

/** The options {@link withRedisCache} sets, as Next.js 16 names them. */
export interface RedisCacheConfig {
  cacheHandler: string
  cacheHandlers: { default: string; remote: string; [name: string]: string }
  cacheMaxMemorySize: 0
}

/**
 * A module this package ships for Next.js, by its path beside this file (in `dist/` once built): the
 * cache handlers, and the replica the build writes into.
 */
function modulePath(
  name: 'next-cache-handlers/incremental-cache' | 'next-cache-handlers/use-cache' | 'next-build-replica',
): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
  return fileURLToPath(new URL(`./${name}${extension}`, import.meta.url))
}

/**
 * The variable through which the build workers of `@verified-reviews/next` find the module of the
 * replica they write into: set here, read by that package's build hand-off (`internal/build-handoff.ts`,
 * which says why the environment is the channel: the workers are processes Next.js starts, which
 * inherit only the environment). Neither package imports the other (`@verified-reviews/next` is an
 * optional peer of this one).
 */
const BUILD_REPLICA_VARIABLE = '__VERIFIED_REVIEWS_BUILD_REPLICA'

let saidNoRedis = false

/**
 * Wraps the Next.js config so that, when `REDIS_URL` is set in the environment that loads the config
 * (`next start` loads it when the server starts), both of Next.js's caches live in that Redis, shared by
 * every instance: pages, route handlers and `fetch` (`cacheHandler`), and `'use cache'` entries
 * (`cacheHandlers.default` and `.remote`), with the tags `revalidateTag` marks, so a revalidation through
 * one instance reaches all of them. The handler modules ship with this package (Redis handlers of
 * `@verified-reviews/redis/next-cache-handler`, wrapped by `failSafeIncrementalCache` and
 * `failSafeUseCacheHandler` of `@verified-reviews/next/cache-handlers`, pages of the build read from the
 * build output), and `cacheMaxMemorySize` is `0` (no copy in each instance's memory in front of Redis).
 * It replaces a `cacheHandler`, and the `default` and `remote` handlers, of the config.
 *
 * `next build` with `REDIS_URL` also writes the review data it fetched into the site's replica in that
 * Redis (the keys of `createRedisReplica` with the default prefix `vr:`), when that replica is empty or
 * older than the build's sync, and says so in one line of the build log: servers that have no build
 * files (`output: 'standalone'`, serverless functions) then read the build's reviews from their first
 * request. The handlers mark the render cache as shared: a server whose `instrumentation.ts` gives
 * `shareClientState` no replica (`createRedisReplica`) says so at its start, and its pages read the API
 * rather than a replica of their own, which the other instances would not share.
 *
 * Without `REDIS_URL` the config is left as it is (one server, Next.js's own caches), and `next start`
 * says so in one log line: a server missing the variable serves pages that a revalidation through
 * another may not refresh, which is better than not serving at all. `next build` and `next dev` need no
 * Redis (a build without it writes no replica; the servers then fill theirs from the build's files,
 * where they have them). With `output: 'standalone'`, `server.js` keeps the config of the build: set `REDIS_URL` at build
 * too.
 *
 * It composes with `withVerifiedReviews` of `@verified-reviews/next/config` in either order.
 *
 * @example
 * // next.config.ts
 * import { withVerifiedReviews } from '@verified-reviews/next/config'
 * import { withRedisCache } from '@verified-reviews/redis/next-config'
 * export default withVerifiedReviews(withRedisCache({ cacheComponents: true }))
 */
export function withRedisCache<C extends object>(
  config: NextConfigExport<C>,
): (phase: string, context: { defaultConfig: C }) => Promise<C & Partial<RedisCacheConfig>> {
  return async (phase, context) => {
    const resolved = typeof config === 'function' ? await config(phase, context) : config
    if (redisUrlFromEnvironment() === undefined) {
      if (phase === 'phase-production-server' && !saidNoRedis) {
        saidNoRedis = true
        console.info(
          "[@verified-reviews/redis] REDIS_URL is not set: Next.js's caches stay in this server; set it on every instance to share them.",
        )
      }
      return resolved
    }
    // Set before Next.js starts its build workers, which inherit it: the one that fetches the review data
    // writes it into the replica in Redis that the servers read.
    if (phase === 'phase-production-build')
      process.env[BUILD_REPLICA_VARIABLE] = modulePath('next-build-replica')
    const own = (resolved as { cacheHandlers?: Record<string, string> }).cacheHandlers
    const useCache = modulePath('next-cache-handlers/use-cache')
    const shared: RedisCacheConfig = {
      cacheHandler: modulePath('next-cache-handlers/incremental-cache'),
      cacheHandlers: { ...own, default: useCache, remote: useCache },
      cacheMaxMemorySize: 0,
    }
    return { ...resolved, ...shared }
  }
}
