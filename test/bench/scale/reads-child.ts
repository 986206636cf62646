/**
 * A child of the `reads` step: `--reads` concurrent identical cold reads of one product's first page of
 * reviews through a client with a cache: in memory, or Redis (`--redis <url>`) shared with another
 * process. Waits for `--start-at` (epoch ms) first, so that two processes start together.
 */
import { parseArgs } from 'node:util'
import { createClient } from '@verified-reviews/core'
import { createMemoryCache } from '@verified-reviews/core/cache'
import { createRedisCache, createRedisConnection } from '@verified-reviews/redis'

const { values } = parseArgs({
  options: {
    reads: { type: 'string', default: '1000' },
    product: { type: 'string', default: 'SKU-001' },
    redis: { type: 'string' },
    'start-at': { type: 'string' },
  },
})
const redis = values.redis === undefined ? undefined : createRedisConnection({ url: values.redis })
const store = redis === undefined ? createMemoryCache() : createRedisCache(redis)
const client = createClient({ cache: { store, ttl: 300 } })
// The token first, so that only the reads race each other.
await client.products.ratings.list({ type: 'product_variation_id', value: ['none'] }, { cache: false })
const startAt = Number(values['start-at'] ?? Date.now())
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())))
const started = performance.now()
const pages = await Promise.all(
  Array.from({ length: Number(values.reads) }, () =>
    client.products.reviews.list({ product_variation_id: values.product as string, limit: 20 }),
  ),
)
const milliseconds = performance.now() - started
console.log(JSON.stringify({ reads: pages.length, items: pages[0]?.data.length, milliseconds }))
await redis?.close()
