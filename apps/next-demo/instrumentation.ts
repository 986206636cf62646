// Runs once in each server process before its first request. With REDIS_URL (several `next start`
// instances), the review clients share their access token and rate budget through Redis, and every
// instance reads the reviews from one replica in Redis, which the revalidate route keeps current.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || !process.env.REDIS_URL) return
  const { shareClientState } = await import('@verified-reviews/next/advanced')
  const { createRedisReplica, redisClientOptions } = await import('@verified-reviews/redis')
  const { redis } = await import('@/lib/redis')
  if (redis === undefined) return
  // Renders read the replica, so no cache of ours is needed for review data.
  shareClientState({ ...redisClientOptions(redis, { cache: false }), replica: createRedisReplica(redis) })
}
