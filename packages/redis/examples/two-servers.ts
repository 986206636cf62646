/**
 * Two servers of one site sharing one Redis, against the sandbox (rate limit 10 requests per second):
 * both render the same 20 product pages at once. Run it from the repository root with a Redis running:
 *
 *   redis-server --port 6390 --save '' --appendonly no &
 *   REDIS_URL=redis://127.0.0.1:6390 node --conditions=@verified-reviews/source packages/redis/examples/two-servers.ts
 *
 * With `--alone`, each server keeps its own state instead, for comparison.
 */
import { createClient, type VerifiedReviewsClient } from '@verified-reviews/core'
import { createRedisConnection, redisClientOptions } from '@verified-reviews/redis'
import { createSandbox } from '@verified-reviews/sandbox'

const sandbox = await createSandbox({ seed: 1, rateLimit: 10 })
const alone = process.argv.includes('--alone')
let refused = 0

function server(): { client: VerifiedReviewsClient; close: () => Promise<void> } {
  const redis = createRedisConnection({ prefix: `example-${sandbox.origin}:` }) // REDIS_URL
  const client = createClient({
    origin: sandbox.origin,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    ...(alone ? {} : redisClientOptions(redis)),
    onRateLimit: (event) => {
      if (event.reason === 'refused') refused++
      return undefined
    },
  })
  return { client, close: () => redis.close() }
}

const servers = [server(), server()]
const products = Array.from({ length: 20 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`)
const started = Date.now()
// Each server renders every product page: its reviews and its rating.
const pages = await Promise.allSettled(
  servers.flatMap(({ client }) =>
    products.map((id) =>
      Promise.all([
        client.products.reviews.list({ product_variation_id: [id], limit: 5 }),
        client.products.ratings.list({ type: 'product_variation_id', value: [id] }),
      ]),
    ),
  ),
)
const stats = (await (await fetch(`${sandbox.origin}/__sandbox/stats`)).json()) as {
  operations: Record<string, number>
}
console.log(`2 servers${alone ? ' (alone)' : ''} x ${products.length} pages in ${Date.now() - started} ms`)
console.log(`pages that failed: ${pages.filter((page) => page.status === 'rejected').length}`)
console.log(`token requests: ${stats.operations['token.published'] ?? 0}`)
console.log(`review list calls: ${stats.operations['products.reviews.list'] ?? 0}`)
console.log(`rating calls: ${stats.operations['products.ratings.list'] ?? 0}`)
console.log(`429 answers retried: ${refused}`)
await Promise.all(servers.map(({ close }) => close()))
await sandbox.close()
