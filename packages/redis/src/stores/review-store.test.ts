import type { BrandReview, ProductReview } from '@verified-reviews/core'
import { syncProductReviews } from '@verified-reviews/core/sync'
import { describe, expect, it } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { reviewStoreContract } from '../../../../test/fixtures/review-store-contract.ts'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { RedisUnavailableError } from '../redis-unavailable-error.ts'
import { createRedisReviewStore } from './review-store.ts'

const redis = redisForFile()
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

const connect = connectionsFor(redis)

// Each store of the contract gets a name of its own: the contract expects a new store to be empty.
let stores = 0
const names = new WeakMap<object, string>()
reviewStoreContract('createRedisReviewStore', {
  products: () => {
    const name = `contract-${++stores}`
    const store = createRedisReviewStore(connect(), { name })
    names.set(store, name)
    return store
  },
  brands: () => createRedisReviewStore<BrandReview>(connect(), { name: `contract-${++stores}` }),
  // Another connection, as another server would open it.
  reopen: (store) => createRedisReviewStore(connect(), { name: names.get(store) ?? '' }),
})

describe('createRedisReviewStore', () => {
  it('lets a sync started on one server go on incrementally on another', async () => {
    const first = await syncProductReviews({ client: sb.client(), store: createRedisReviewStore(connect()) })
    expect(first.mode).toBe('full')
    await sb.admin('POST', 'product-reviews', [{ product_variation_id: 'SKU-007' }])
    const second = await syncProductReviews({ client: sb.client(), store: createRedisReviewStore(connect()) })
    expect(second).toMatchObject({
      mode: 'incremental',
      newReviews: 1,
      calls: 1,
      affectedProductIds: ['SKU-007'],
    })
  })

  it('keeps a product store and a brand store of one Redis apart by name', async () => {
    const connection = connect()
    await createRedisReviewStore(connection).putMany([
      { review_id: 'a', product_variation_id: 'P1', publish_date: '2025-01-01' } as never,
    ])
    expect(await createRedisReviewStore<BrandReview>(connection, { name: 'brand-reviews' }).count()).toBe(0)
  })

  it('throws RedisUnavailableError when Redis does not answer, keeping what it holds', async () => {
    const store = createRedisReviewStore(connect({ commandTimeout: 200 }))
    await store.setCheckpoint({ phase: 'idle', newReviews: 0, updatedReviews: 0, affected: [] })
    redis.pause()
    try {
      await expect(store.getCheckpoint()).rejects.toBeInstanceOf(RedisUnavailableError)
    } finally {
      redis.resume()
    }
    expect((await createRedisReviewStore(connect()).getCheckpoint())?.phase).toBe('idle')
  })

  it('holds each review in its stored form, and reads the JSON text earlier versions wrote', async () => {
    const connection = connect()
    const store = createRedisReviewStore(connection, { name: 'stored-form' })
    const review = {
      review_id: 'a',
      product_variation_id: 'P1',
      publish_date: '2025-01-01T00:00:00Z',
      review_content: 'Très bien 👍🏽, 很好, ممتاز, \u2028 and a lone \uD800',
    } as ProductReview
    await store.putMany([review])
    const stored = (await connection.client.sendCommand(['HGET', `${connection.prefix}stored-form:r`, 'a'], {
      typeMapping: { 36: Buffer },
    })) as Buffer
    expect(stored[0]).toBe(1)
    expect(stored.length).toBeLessThan(Buffer.byteLength(JSON.stringify(review)))
    expect(JSON.stringify(await store.get('a'))).toBe(JSON.stringify(review))

    // A review as the previous version wrote it: its JSON text, in the hash and in its group.
    const older = { ...review, review_id: 'b', review_content: 'Écrit avant' }
    await connection.client.sendCommand([
      'HSET',
      `${connection.prefix}stored-form:r`,
      'b',
      JSON.stringify(older),
    ])
    await connection.client.sendCommand(['HSET', `${connection.prefix}stored-form:g`, 'b', 'P1'])
    await connection.client.sendCommand(['SADD', `${connection.prefix}stored-form:k:P1`, 'b'])
    expect(await store.getMany(['a', 'b'])).toEqual([review, older])
    expect(await store.list('P1')).toEqual([review, older])
    expect((await store.all()).sort((x, y) => x.review_id.localeCompare(y.review_id))).toEqual([
      review,
      older,
    ])
  })
})
