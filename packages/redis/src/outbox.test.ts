import { drainOutbox } from '@verified-reviews/core/outbox'
import { describe, expect, it } from 'vitest'
import { describeOutboxStore, newEntry } from '../../../test/fixtures/outbox-store.ts'
import { purchaseEventsService } from '../../../test/fixtures/purchase-events-service.ts'
import { connectionsFor, redisForFile } from '../../../test/fixtures/redis.ts'
import { createRedisOutboxStore } from './outbox.ts'
import { RedisUnavailableError } from './redis-unavailable-error.ts'

const redis = redisForFile()
const connect = connectionsFor(redis)

describeOutboxStore('createRedisOutboxStore', async (clock) => ({
  store: createRedisOutboxStore(connect(), { now: () => clock.now }),
}))

describe('createRedisOutboxStore', () => {
  it('shares one outbox between the connections of several servers', async () => {
    await createRedisOutboxStore(connect()).add([newEntry('A'), newEntry('B')])
    const claimed = await createRedisOutboxStore(connect()).claim({
      owner: 'other',
      leaseMs: 60_000,
      limit: 10,
    })
    expect(claimed.map((entry) => entry.event.purchase_reference)).toEqual(['A', 'B'])
  })

  it('never gives one entry to two servers claiming at once', async () => {
    await createRedisOutboxStore(connect()).add(
      Array.from({ length: 300 }, (_, index) => newEntry(`E${index}`)),
    )
    const servers = Array.from({ length: 6 }, () => createRedisOutboxStore(connect()))
    const claims = await Promise.all(
      servers.flatMap((store, server) =>
        [0, 1, 2, 3, 4].map((round) =>
          store.claim({ owner: `s${server}-${round}`, leaseMs: 60_000, limit: 20 }),
        ),
      ),
    )
    const ids = claims.flat().map((entry) => entry.id)
    expect(ids.length).toBe(300)
    expect(new Set(ids).size).toBe(300)
  })

  it('lets drains on several servers send every event once', async () => {
    const service = purchaseEventsService()
    await createRedisOutboxStore(connect()).add(
      Array.from({ length: 400 }, (_, index) => newEntry(`E${index}`)),
    )
    await Promise.all(
      [1, 2, 3].map(() =>
        drainOutbox({ client: service.client, store: createRedisOutboxStore(connect()), batchSize: 20 }),
      ),
    )
    const sent = service.batches.flat()
    expect(sent.length).toBe(400)
    expect(new Set(sent).size).toBe(400)
  })

  it('keeps each outbox apart by name', async () => {
    const connection = connect()
    await createRedisOutboxStore(connection, { name: 'shop-a' }).add([newEntry('A')])
    expect((await createRedisOutboxStore(connection, { name: 'shop-b' }).stats()).pending).toBe(0)
  })

  it('keeps an event whose JSON Lua would mangle (empty arrays, nulls, large numbers) as it was added', async () => {
    const store = createRedisOutboxStore(connect())
    const event = { ...newEntry('A').event, products: [], custom_fields: null, price: 1234567890.125 }
    await store.add([{ ...newEntry('A'), event }])
    const [claimed] = await store.claim({ owner: 'x', leaseMs: 1000, limit: 1 })
    expect(claimed?.event).toEqual(event)
  })

  it('throws RedisUnavailableError while Redis does not answer, and holds the events when it is back', async () => {
    const store = createRedisOutboxStore(connect({ commandTimeout: 200, retryInterval: 50 }))
    await store.add([newEntry('A')])
    redis.pause()
    try {
      await expect(store.add([newEntry('B')])).rejects.toBeInstanceOf(RedisUnavailableError)
    } finally {
      redis.resume()
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await createRedisOutboxStore(connect()).stats()).pending).toBeGreaterThanOrEqual(1)
  })
})
