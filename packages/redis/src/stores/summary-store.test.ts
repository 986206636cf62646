import type { BrandRating, ProductSummary } from '@verified-reviews/core'
import { cursorSigner } from '@verified-reviews/core/endpoint'
import { loadProductView, replicaSource } from '@verified-reviews/core/internal'
import { syncProductReviews } from '@verified-reviews/core/sync'
import { describe, expect, it } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { createRedisBrandRatingStore, createRedisReplica, createRedisSummaryStore } from './summary-store.ts'

const redis = redisForFile()
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const connect = connectionsFor(redis)

const summary = (id: string, count: number) =>
  ({ product_variation_id: id, ratings: { average: 4, count_total: count } }) as unknown as ProductSummary

describe('createRedisSummaryStore', () => {
  it('holds summaries by product, replaces them, and reads them in the order asked from another server', async () => {
    const store = createRedisSummaryStore(connect(), { name: 'summaries-a' })
    await store.putMany([summary('P1', 1), summary('P2', 2)])
    await store.putMany([summary('P1', 3)])
    const other = createRedisSummaryStore(connect(), { name: 'summaries-a' })
    expect((await other.getMany(['P2', 'none', 'P1'])).map((found) => found?.ratings?.count_total)).toEqual([
      2,
      undefined,
      3,
    ])
    expect(await other.count()).toBe(2)
    await other.removeMany?.(['P1', 'none'])
    expect((await store.getMany(['P1', 'P2'])).map((found) => found?.ratings?.count_total)).toEqual([
      undefined,
      2,
    ])
    expect(await store.count()).toBe(1)
  })
})

describe('createRedisBrandRatingStore', () => {
  it('replaces every statistic at once with its fetch time, read by another server', async () => {
    const store = createRedisBrandRatingStore(connect(), { name: 'ratings-a' })
    const other = createRedisBrandRatingStore(connect(), { name: 'ratings-a' })
    expect(await other.fetchedAt()).toBeUndefined()
    const rating = (shopKey: string, count: number) =>
      ({ shop_key: shopKey, count_total_since_creation: count }) as unknown as BrandRating
    await store.replaceAll(
      [rating('', 10), rating('shop-a', 4), rating('shop-b', 2)],
      '2026-11-01T00:00:00.000Z',
    )
    await store.replaceAll([rating('', 11), rating('shop-a', 5)], '2026-11-02T00:00:00.000Z')
    expect(await other.fetchedAt()).toBe('2026-11-02T00:00:00.000Z')
    expect(
      (await other.getMany(['shop-b', 'shop-a', ''])).map((held) => held?.count_total_since_creation),
    ).toEqual([undefined, 5, 11])
  })
})

describe('createRedisReplica', () => {
  it('serves every page of a view that a sync filled, with no API call', async () => {
    const replica = createRedisReplica(connect())
    await syncProductReviews({ client: sb.client(), store: replica.reviews })
    await sb.admin('DELETE', 'stats')
    const signer = cursorSigner(sb.client())
    const view = { sort: 'highest' as const, rates: [] }
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await loadProductView({
        source: replicaSource(replica),
        ids: ['SKU-058'],
        view: { ...view, cursor },
        limit: 5,
        signer,
      })
      seen.push(...page.data.map((review) => review.review_id))
      cursor = page.nextCursor
    } while (cursor !== undefined)
    expect(seen).toEqual(
      (await replica.reviews.list('SKU-058'))
        .sort((a, b) => b.review_rate - a.review_rate || (a.review_id < b.review_id ? -1 : 1))
        .map((review) => review.review_id),
    )
    expect((await sb.stats()).total).toBe(0)
  })

  it('keeps the replicas of two accounts apart in one Redis', async () => {
    const connection = connect()
    const first = createRedisReplica(connection, { account: 'client-a@https://api.example' })
    const second = createRedisReplica(connection, { account: 'client-b@https://api.example' })
    await syncProductReviews({ client: sb.client(), store: first.reviews })
    expect(await first.reviews.count()).toBeGreaterThan(0)
    expect(await second.reviews.count()).toBe(0)
    expect(await second.reviews.getCheckpoint()).toBeUndefined()
    // The same account, named again (another instance), reads the same replica.
    const again = createRedisReplica(connect(), { account: 'client-a@https://api.example' })
    expect(await again.reviews.count()).toBe(await first.reviews.count())
  })
})
