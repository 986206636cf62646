// The replica `next build` writes into, which `withRedisCache` (`@verified-reviews/redis/next-config`) names
// for the build workers when REDIS_URL is set: the replica of `createRedisReplica` on a connection of
// REDIS_URL with the default prefix, which the servers read through `shareClientState({ replica })`. The
// build process that fetched the review data imports this file by its path (`@verified-reviews/next` never
// imports this package) and copies its store into it. Plain ESM in dist, like the cache handler modules.
import type { BuildReplicaTarget } from '@verified-reviews/next/cache-handlers'
import { createRedisConnection, describeUrl, redisUrlFromEnvironment } from './connection.ts'
import { createRedisReplica } from './stores/summary-store.ts'

/**
 * Milliseconds one write of the copy may take: a few hundred reviews in one script, more than a page's
 * read (the connection's default, 500 ms) over a network.
 */
const WRITE_TIMEOUT = 10_000

export default function buildReplica(): BuildReplicaTarget {
  const connection = createRedisConnection({ commandTimeout: WRITE_TIMEOUT })
  return {
    replica: createRedisReplica(connection),
    where: `Redis ${describeUrl(redisUrlFromEnvironment() ?? 'redis://127.0.0.1:6379')} (keys ${connection.prefix}…)`,
    close: () => connection.close(),
  }
}
