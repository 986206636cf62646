import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrandReview } from '@verified-reviews/core'
import { createSqliteReviewStore, syncProductReviews } from '@verified-reviews/core/sync'
import { createRedisReviewStore } from '@verified-reviews/redis'
import { describe, expect, it, vi } from 'vitest'
import { createRevalidateRoute, type RevalidateRouteBody } from '../../packages/next/src/revalidate-route.ts'
import { connectionsFor, redisForFile } from '../fixtures/redis.ts'
import { sandboxForFile } from '../fixtures/sandbox.ts'

vi.mock('next/cache.js', () => ({ revalidateTag: vi.fn() }))

const SECRET = 'a-secret-of-the-scheduler-0123456789'
const redis = redisForFile()
const connect = connectionsFor(redis)
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

/**
 * The revalidate route of one server (or one cold start of a serverless function): its own
 * connection to the Redis every server shares, nothing kept in memory or in files.
 */
function server(revalidated: string[] = [], distDir?: string) {
  const connection = connect()
  return createRevalidateRoute({
    ...(distDir === undefined ? {} : { distDir }),
    secret: SECRET,
    client: sb.client(),
    store: createRedisReviewStore(connection),
    brandStore: createRedisReviewStore<BrandReview>(connection, { name: 'brand-reviews' }),
    revalidate: (tag) => void revalidated.push(tag),
  })
}

async function call(route: ReturnType<typeof server>): Promise<RevalidateRouteBody> {
  const response = await route.POST(
    new Request('https://shop.example/api/revalidate-reviews', {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}` },
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as RevalidateRouteBody
}

describe('the Next.js revalidate route with a Redis review store', () => {
  it('goes on incrementally on another server from the checkpoint the first one left', async () => {
    const first = await call(server())
    expect(first.sync.products.mode).toBe('full')
    await sb.admin('POST', 'product-reviews', [{ product_variation_id: 'SKU-002' }])
    const revalidated: string[] = []
    const second = await call(server(revalidated))
    expect(second.sync.products).toEqual({
      mode: 'incremental',
      newReviews: 1,
      updatedReviews: 0,
      removedReviews: 0,
      calls: 1,
    })
    expect(revalidated).toEqual(['verified-reviews:product:SKU-002'])
  })

  it('makes each cold start of a serverless function incremental, with one call when nothing changed', async () => {
    await call(server())
    const before = (await sb.stats()).operations['products.reviews.list'] ?? 0
    const cold = await call(server())
    expect(cold.sync.products).toMatchObject({ mode: 'incremental', newReviews: 0, calls: 1 })
    expect(cold.revalidated).toEqual([])
    expect((await sb.stats()).operations['products.reviews.list']).toBe(before + 1)
  })

  it('keeps the brand reviews in a store of their own', async () => {
    await call(server())
    await sb.admin('POST', 'brand-reviews', [{ shop_key: 'shop-lyon' }])
    const revalidated: string[] = []
    await call(server(revalidated))
    expect(revalidated).toEqual(['verified-reviews:brand', 'verified-reviews:shop:shop-lyon'])
  })

  it("starts an empty Redis from the build's review store, so that two servers' first calls are incremental", async () => {
    const distDir = await mkdtemp(join(tmpdir(), 'vr-redis-dist-'))
    try {
      const built = createSqliteReviewStore(join(distDir, 'verified-reviews', 'reviews.sqlite'))
      await syncProductReviews({ client: sb.client(), store: built })
      await sb.admin('POST', 'product-reviews', [{ product_variation_id: 'SKU-003' }])
      const answers = await Promise.all([call(server([], distDir)), call(server([], distDir))])
      for (const answer of answers) expect(answer.sync.products.mode).toBe('incremental')
      expect(answers.flatMap((answer) => answer.products)).toContain('SKU-003')
      expect(await createRedisReviewStore(connect()).count()).toBe((await built.count()) + 1)
    } finally {
      await rm(distDir, { recursive: true, force: true })
    }
  })
})
