import type { ClientOptions, VerifiedReviewsClient } from '@verified-reviews/core'
import { createMemoryReviewStore, syncProductReviews } from '@verified-reviews/core/sync'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { redisForFile } from '../../../test/fixtures/redis.ts'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { redisClientOptions } from './client-options.ts'
import { createRedisConnection, type RedisConnection } from './connection.ts'
import { RedisUnavailableError } from './redis-unavailable-error.ts'
import { createRedisCache } from './stores/cache.ts'
import { createRedisReviewStore } from './stores/review-store.ts'

const redis = redisForFile()
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

interface Instance {
  connection: RedisConnection
  client: VerifiedReviewsClient
  warn: ReturnType<typeof vi.fn>
  info: ReturnType<typeof vi.fn>
}

const opened: RedisConnection[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()))
})

/** One server of the site: its client shares cache, token and budget through its own connection. */
function instance(url = redis.url, options: ClientOptions = {}): Instance {
  const warn = vi.fn()
  const info = vi.fn()
  const connection = createRedisConnection({
    url,
    // Long enough for a loaded machine; a hung server is noticed after it.
    commandTimeout: 1000,
    connectTimeout: 1000,
    retryInterval: 300,
    logger: { warn, info },
  })
  opened.push(connection)
  const client = sb.client({ ...redisClientOptions(connection), ...options })
  return { connection, client, warn, info }
}

/** Renders a "page": the reviews and the rating of one product. */
async function renderPage(client: VerifiedReviewsClient, product: string): Promise<number> {
  const [page, ratings] = await Promise.all([
    client.products.reviews.list({ product_variation_id: [product], limit: 5 }),
    client.products.ratings.list({ type: 'product_variation_id', value: [product] }),
  ])
  return page.data.length + ratings.length
}

const products = ['SKU-001', 'SKU-002', 'SKU-003', 'SKU-058']

async function renderAll(instances: Instance[]): Promise<void> {
  for (const { client } of instances) {
    for (const product of products) expect(await renderPage(client, product)).toBeGreaterThan(0)
  }
}

/** Waits until Redis answers the connection again (a command is what tries it). */
async function recovered(connection: RedisConnection): Promise<void> {
  const probe = createRedisCache(connection, { name: 'probe' })
  await vi.waitFor(
    async () => {
      await probe.get('x')
      expect(connection.available).toBe(true)
    },
    { timeout: 10_000, interval: 100 },
  )
}

describe('Redis stopped mid-run', () => {
  it('keeps rendering pages when the server hangs (SIGSTOP), with one warning per instance', async () => {
    const servers = [instance(), instance()]
    await renderAll(servers)
    redis.pause()
    try {
      await renderAll(servers)
      await renderAll(servers)
      // A server that starts during the outage fetches its own token and renders too.
      const late = instance()
      await renderAll([late])
      for (const server of [...servers, late]) {
        expect(server.connection.available).toBe(false)
        expect(server.warn).toHaveBeenCalledTimes(1)
        expect(server.warn.mock.calls[0]?.[0]).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ is unavailable/)
      }
    } finally {
      redis.resume()
    }
    for (const server of servers) await recovered(server.connection)
    await renderAll(servers)
    for (const server of servers) {
      expect(server.warn).toHaveBeenCalledTimes(1)
      expect(server.info).toHaveBeenCalledWith(expect.stringMatching(/answers again/))
    }
  })

  it('keeps rendering pages when the server is killed, and shares again once it is back', async () => {
    const servers = [instance(), instance()]
    await renderAll(servers)
    await redis.kill()
    await renderAll(servers)
    for (const server of servers) expect(server.warn).toHaveBeenCalledTimes(1)
    await redis.restart()
    for (const server of servers) await recovered(server.connection)
    // The restarted server is empty: the first instance fills it, the second reads what it stored.
    await renderAll(servers.slice(0, 1))
    const before = (await sb.stats()).total
    await renderAll(servers.slice(1))
    expect((await sb.stats()).total).toBe(before)
    for (const server of servers) expect(server.warn).toHaveBeenCalledTimes(1)
  })

  it('renders pages with one warning when Redis is down from the start', async () => {
    await redis.kill()
    const server = instance()
    await renderAll([server])
    await renderAll([server])
    expect(server.warn).toHaveBeenCalledTimes(1)
  })

  it('serves repeated reads from the local cache while Redis is down, not from the API', async () => {
    const server = instance()
    redis.pause()
    try {
      await renderPage(server.client, 'SKU-001')
      const before = (await sb.stats()).total
      await renderPage(server.client, 'SKU-001')
      expect((await sb.stats()).total).toBe(before)
    } finally {
      redis.resume()
    }
  })

  it('applies a tag invalidation made during the outage to Redis once it answers again', async () => {
    const connection = instance().connection
    const cache = createRedisCache(connection)
    await cache.set('page', 'old', { ttl: 600, tags: ['product:SKU-001'] })
    redis.pause()
    try {
      await cache.deleteByTag('product:SKU-001')
      await cache.delete('other')
    } finally {
      redis.resume()
    }
    await recovered(connection)
    await vi.waitFor(async () => expect(await redis.command('EXISTS', 'vr:cache:v:page')).toBe(':0\r\n'))
  })

  it('loses no review when Redis goes down in the middle of a sync: the next sync resumes it', async () => {
    const connection = instance().connection
    const store = createRedisReviewStore(connection)
    const client = sb.client()
    // Redis hangs as the sync writes its fourth page.
    let writes = 0
    const pausing: typeof store = {
      ...store,
      putMany: (reviews, checkpoint) => {
        if (++writes === 4) redis.pause()
        return store.putMany(reviews, checkpoint)
      },
    }
    try {
      await expect(syncProductReviews({ client, store: pausing, limit: 100 })).rejects.toBeInstanceOf(
        RedisUnavailableError,
      )
    } finally {
      redis.resume()
    }
    await recovered(connection)
    const resumed = await syncProductReviews({ client, store, limit: 100 })
    expect(resumed.resumed).toBe(true)
    const reference = createMemoryReviewStore()
    await syncProductReviews({ client: sb.client(), store: reference })
    expect(await store.count()).toBe(await reference.count())
    expect(await store.keys()).toEqual(await reference.keys())
  })
})
