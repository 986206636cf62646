// Runs once in each server process before its first request. With REDIS_URL (several `next start`
// instances), the review clients share their access token and rate budget through Redis.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || !process.env.REDIS_URL) return
  const { shareClientState } = await import('@verified-reviews/next/advanced')
  const { redisClientOptions } = await import('@verified-reviews/redis')
  const { redis } = await import('@/lib/redis')
  if (redis === undefined) return
  // Review data goes through Next.js's data cache, which the cache handler shares: no cache of ours.
  shareClientState(redisClientOptions(redis, { cache: false }))
}
