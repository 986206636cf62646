import type { BrandReview, ProductReview, ReviewRate } from '@verified-reviews/core'
import {
  queryByList,
  type ReviewPosition,
  type ReviewStore,
  type ReviewStoreQuery,
  type StoreOrder,
  syncProductReviews,
} from '@verified-reviews/core/sync'
import { describe, expect, it, vi } from 'vitest'

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

const ORDERS: readonly StoreOrder[] = ['newest', 'oldest', 'highest', 'lowest']

const productReview = (id: string, product: string, publish_date: string, rate: number) =>
  ({
    review_id: id,
    product_variation_id: product,
    publish_date,
    review_rate: rate as ReviewRate,
  }) as ProductReview

/** The position of a review in `order` (as the core's view computes it). */
const positionOf = (order: StoreOrder, review: ProductReview): ReviewPosition => ({
  value: order === 'newest' || order === 'oldest' ? Date.parse(review.publish_date) : review.review_rate,
  id: review.review_id,
})

/** A deterministic generator of numbers in [0, 1), so that a failure comes back the same. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

/**
 * Walks a view page by page forwards (after the last review while `more`) and backwards from the end
 * (before the first while `less`), expecting every page to be what `queryByList` gives, and the walks
 * to go over the whole view.
 */
async function expectWalks(store: ReviewStore<ProductReview>, first: ReviewStoreQuery): Promise<void> {
  const label = `${first.order} rates=${first.rates} keys=${first.keys} limit=${first.limit}`
  const whole = await queryByList(store, { ...first, limit: 1_000_000 })
  let page = await store.query?.(first)
  expect(page, label).toEqual(await queryByList(store, first))
  const forwards = [...(page?.data ?? [])]
  while (page?.more) {
    const last = page.data.at(-1) as ProductReview
    const next: ReviewStoreQuery = {
      ...first,
      from: { direction: 'after', position: positionOf(first.order, last) },
    }
    page = await store.query?.(next)
    expect(page, `${label} after ${last.review_id}`).toEqual(await queryByList(store, next))
    forwards.push(...(page?.data ?? []))
  }
  expect(
    forwards.map((r) => r.review_id),
    label,
  ).toEqual(whole.data.map((r) => r.review_id))
  if (first.limit === 0 || forwards.length === 0) return
  // From past the last review, backwards.
  const backwards: ProductReview[] = []
  let cursor = forwards.at(-1) as ProductReview
  const end: ReviewStoreQuery = {
    ...first,
    from: { direction: 'after', position: positionOf(first.order, cursor) },
  }
  expect(await store.query?.(end)).toEqual(await queryByList(store, end))
  backwards.unshift(cursor)
  for (;;) {
    const previous: ReviewStoreQuery = {
      ...first,
      from: { direction: 'before', position: positionOf(first.order, cursor) },
    }
    const got = await store.query?.(previous)
    expect(got, `${label} before ${cursor.review_id}`).toEqual(await queryByList(store, previous))
    backwards.unshift(...(got?.data ?? []))
    if (!got?.less) break
    cursor = got.data[0] as ProductReview
  }
  expect(
    backwards.map((r) => r.review_id),
    label,
  ).toEqual(whole.data.map((r) => r.review_id))
}

/** Raw commands to the test's Redis, for what the store keeps under its name. */
function raw(connection: ReturnType<typeof connect>) {
  const send = async (...args: string[]) => connection.client.sendCommand(args)
  return {
    send,
    /** The keys of the store's view indexes: `d:` (by date) and `t:` (by rate) of each product. */
    indexKeys: async (name: string) => ((await send('KEYS', `vr:${name}:[dt]:*`)) as string[]).sort(),
    /** Entries in the store's view indexes, over every product. */
    indexEntries: async (name: string) => {
      let entries = 0
      for (const key of (await send('KEYS', `vr:${name}:[dt]:*`)) as string[])
        entries += Number(await send('ZCARD', key))
      return entries
    },
  }
}

describe('createRedisReviewStore query (view indexes)', () => {
  it('breaks ties by ascending review id in all four orders, forwards and backwards', async () => {
    const store = createRedisReviewStore(connect(), { name: 'ties' })
    // Two dates and two rates over 90 reviews, ids whose byte order is not a locale's (case, dashes).
    const ids = Array.from(
      { length: 90 },
      (_, i) => `${['a', 'B', '-', 'b', 'A_', 'z'][i % 6]}${(i * 37) % 90}-x`,
    )
    await store.putMany(
      ids.map((id, i) =>
        productReview(
          id,
          i % 3 === 0 ? 'P2' : 'P1',
          i % 2 === 0 ? '2025-01-01T00:00:00Z' : '2025-02-01',
          4 + (i % 5 === 0 ? 1 : 0),
        ),
      ),
    )
    for (const order of ORDERS) {
      for (const rates of [[], [5], [4, 5], [3]]) {
        for (const keys of [['P1'], ['P1', 'P2'], ['P2', 'missing']]) {
          for (const limit of [1, 7, 100]) await expectWalks(store, { keys, order, rates, limit })
        }
      }
    }
  })

  it('answers as queryByList on random reviews and positions, held or not', async () => {
    const next = random(28)
    const store = createRedisReviewStore(connect(), { name: 'random' })
    const reviews = Array.from({ length: 300 }, (_, i) =>
      productReview(
        `id-${Math.floor(next() * 1e6).toString(36)}-${i}`,
        `P${Math.floor(next() * 3)}`,
        new Date(Date.UTC(2025, 0, 1 + Math.floor(next() * 10), 0, 0, Math.floor(next() * 3))).toISOString(),
        1 + Math.floor(next() * 5),
      ),
    )
    await store.putMany(reviews)
    for (let i = 0; i < 300; i++) {
      const order = ORDERS[i % 4] as StoreOrder
      const byDate = order === 'newest' || order === 'oldest'
      const query: ReviewStoreQuery = {
        keys: next() < 0.5 ? ['P0'] : ['P0', 'P1', 'P2'],
        order,
        rates: next() < 0.5 ? [] : [1 + Math.floor(next() * 5), 1 + Math.floor(next() * 5)],
        limit: Math.floor(next() * 12),
        from: {
          direction: next() < 0.5 ? 'after' : 'before',
          position: {
            // A held review's position, or one between and beyond them.
            value: byDate
              ? Date.UTC(2025, 0, Math.floor(next() * 12), 0, 0, Math.floor(next() * 3))
              : Math.floor(next() * 7),
            id:
              next() < 0.5
                ? (reviews[Math.floor(next() * 300)]?.review_id ?? '')
                : `id-${next().toString(36).slice(2, 5)}`,
          },
        },
      }
      expect(await store.query?.(query), JSON.stringify(query)).toEqual(await queryByList(store, query))
    }
  })

  it('goes on after and before a position whose review was removed since', async () => {
    const store = createRedisReviewStore(connect(), { name: 'removed' })
    const reviews = Array.from({ length: 30 }, (_, i) =>
      productReview(`r${String(i).padStart(2, '0')}`, 'P1', `2025-01-0${1 + (i % 3)}`, 1 + (i % 5)),
    )
    await store.putMany(reviews)
    for (const order of ORDERS) {
      const first = await store.query?.({ keys: ['P1'], order, rates: [], limit: 10 })
      const gone = first?.data.at(-1) as ProductReview
      const position = positionOf(order, gone)
      await store.removeExcept?.(new Set(reviews.filter((r) => r !== gone).map((r) => r.review_id)))
      for (const direction of ['after', 'before'] as const) {
        const query: ReviewStoreQuery = {
          keys: ['P1'],
          order,
          rates: [],
          limit: 10,
          from: { direction, position },
        }
        const page = await store.query?.(query)
        expect(page).toEqual(await queryByList(store, query))
        expect(page?.data.length).toBeGreaterThan(0)
        expect(page?.data.map((r) => r.review_id)).not.toContain(gone.review_id)
      }
      await store.putMany([gone])
    }
  })

  it('moves a rewritten review between rates, dates and products, leaving no entry behind', async () => {
    const connection = connect()
    const store = createRedisReviewStore(connection, { name: 'moved' })
    await store.putMany([
      productReview('a', 'P1', '2025-01-01', 5),
      productReview('b', 'P1', '2025-01-02', 3),
      productReview('c', 'P2', '2025-01-03', 1),
    ])
    await store.putMany([productReview('a', 'P2', '2025-01-04', 1)])
    const ids = async (query: Omit<ReviewStoreQuery, 'limit'>) =>
      (await store.query?.({ ...query, limit: 10 }))?.data.map((r) => r.review_id)
    expect(await ids({ keys: ['P1'], order: 'highest', rates: [] })).toEqual(['b'])
    expect(await ids({ keys: ['P1'], order: 'newest', rates: [5] })).toEqual([])
    expect(await ids({ keys: ['P2'], order: 'newest', rates: [1] })).toEqual(['a', 'c'])
    expect(await ids({ keys: ['P2'], order: 'lowest', rates: [] })).toEqual(['a', 'c'])
    // Same product, another rate and date.
    await store.putMany([productReview('a', 'P2', '2025-01-02', 4)])
    expect(await ids({ keys: ['P2'], order: 'oldest', rates: [] })).toEqual(['a', 'c'])
    expect(await ids({ keys: ['P2'], order: 'highest', rates: [] })).toEqual(['a', 'c'])
    expect(await ids({ keys: ['P1', 'P2'], order: 'lowest', rates: [1, 3] })).toEqual(['c', 'b'])
    // Three reviews, each in both indexes of its product.
    expect(await raw(connection).indexEntries('moved')).toBe(6)
  })

  it('takes the reviews removeExcept removes out of the indexes, and a product left empty', async () => {
    const connection = connect()
    const store = createRedisReviewStore(connection, { name: 'except' })
    await store.putMany([
      productReview('a', 'P1', '2025-01-01', 5),
      productReview('b', 'P1', '2025-01-02', 3),
      productReview('c', 'P2', '2025-01-03', 1),
    ])
    expect(await store.removeExcept?.(new Set(['b']))).toEqual(['P1', 'P2'])
    expect(await raw(connection).indexKeys('except')).toEqual(['vr:except:d:P1', 'vr:except:t:P1'])
    expect(await raw(connection).indexEntries('except')).toBe(2)
    for (const order of ORDERS) {
      expect(
        (await store.query?.({ keys: ['P1', 'P2'], order, rates: [], limit: 5 }))?.data.map(
          (r) => r.review_id,
        ),
      ).toEqual(['b'])
    }
  })

  it('reads about a page of a product of 5,000 reviews, not the product', async () => {
    const connection = connect()
    const store = createRedisReviewStore(connection, { name: 'large' })
    const reviews = Array.from({ length: 5000 }, (_, i) =>
      productReview(
        `r${String(i).padStart(4, '0')}`,
        'P1',
        new Date(Date.UTC(2025, 0, 1 + (i % 50))).toISOString(),
        1 + (i % 5),
      ),
    )
    for (let start = 0; start < reviews.length; start += 1000)
      await store.putMany(reviews.slice(start, start + 1000))
    const { send } = raw(connection)
    for (const order of ORDERS) {
      const first: ReviewStoreQuery = { keys: ['P1'], order, rates: [], limit: 20 }
      const page = await store.query?.(first)
      const last = page?.data.at(-1) as ProductReview
      const query: ReviewStoreQuery = {
        ...first,
        from: { direction: 'after', position: positionOf(order, last) },
      }
      await send('CONFIG', 'RESETSTAT')
      const got = await store.query?.(query)
      // What the store's script called for this query alone.
      const stats = String(await send('INFO', 'commandstats'))
      expect(got).toEqual(await queryByList(store, query))
      const calls = (command: string) =>
        Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0)
      expect(calls('hget'), order).toBe(20)
      expect(calls('smembers') + calls('hmget'), order).toBe(0)
    }
  })

  it('serves a store written before the indexes, from the lists, then builds them once', async () => {
    const connection = connect()
    const store = createRedisReviewStore(connection, { name: 'old' })
    const reviews = Array.from({ length: 2500 }, (_, i) =>
      productReview(`r${i}`, `P${i % 4}`, `2025-01-${String(1 + (i % 28)).padStart(2, '0')}`, 1 + (i % 5)),
    )
    await store.putMany(reviews)
    // What an earlier version left: no index mark, no view index.
    const { send, indexKeys, indexEntries } = raw(connection)
    await send('DEL', 'vr:old:index', ...(await indexKeys('old')))
    const old = createRedisReviewStore(connection, { name: 'old' })
    const query: ReviewStoreQuery = { keys: ['P1', 'P2'], order: 'highest', rates: [2, 5], limit: 12 }
    expect(await old.query?.(query)).toEqual(await queryByList(old, query))
    await vi.waitFor(async () => expect(await send('GET', 'vr:old:index')).toBe('1'), { timeout: 10_000 })
    expect(await indexEntries('old')).toBe(2 * 2500)
    expect(await send('EXISTS', 'vr:old:index:build')).toBe(0)
    for (const order of ORDERS) await expectWalks(old, { ...query, order, limit: 300 })
  })

  it('indexes a store written before the indexes when a sync writes to it', async () => {
    const connection = connect()
    const store = createRedisReviewStore(connection, { name: 'old-sync' })
    await store.putMany([
      productReview('a', 'P1', '2025-01-01', 5),
      productReview('b', 'P1', '2025-01-02', 3),
    ])
    const { send, indexKeys, indexEntries } = raw(connection)
    await send('DEL', 'vr:old-sync:index', ...(await indexKeys('old-sync')))
    // A review rewritten by this version before the build: indexed from its latest form, once.
    await store.putMany([productReview('a', 'P2', '2025-01-03', 1)])
    expect(await send('GET', 'vr:old-sync:index')).toBe('1')
    expect(await indexEntries('old-sync')).toBe(4)
    expect(
      (await store.query?.({ keys: ['P1', 'P2'], order: 'lowest', rates: [], limit: 5 }))?.data.map(
        (r) => r.review_id,
      ),
    ).toEqual(['a', 'b'])
  })
})
