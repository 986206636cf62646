import { describe, expect, it } from 'vitest'
import { newEntry, purchaseEvent, WEBSITE } from '../../../../../test/fixtures/outbox-store.ts'
import { purchaseEventsService } from '../../../../../test/fixtures/purchase-events-service.ts'
import { ValidationError } from '../base/errors.ts'
import { createMemoryOutboxStore } from './memory-store.ts'
import { drainOutbox } from './send.ts'

const refs = (count: number, prefix = 'E') =>
  Array.from({ length: count }, (_, index) => newEntry(`${prefix}${index}`))
const fast = { initialDelay: 1, maxDelay: 1 }

describe('drainOutbox', () => {
  it('sends every waiting event in batches of 50 and empties the outbox', async () => {
    const service = purchaseEventsService()
    const store = createMemoryOutboxStore()
    await store.add(refs(120))
    const report = await drainOutbox({ client: service.client, store })
    expect(report).toMatchObject({ sent: 120, deadLettered: 0, deferred: 0, calls: 3, stoppedBy: 'empty' })
    expect(service.batches.map((batch) => batch.length)).toEqual([50, 50, 20])
    expect((await store.stats()).pending).toBe(0)
  })

  it('puts a batch that got a 500 back with a backoff, counting the attempt and keeping the error', async () => {
    const service = purchaseEventsService([{ status: 500 }])
    let now = 1_000_000
    const store = createMemoryOutboxStore({ now: () => now })
    await store.add(refs(2))
    const report = await drainOutbox({ client: service.client, store, backoff: { initialDelay: 4_000 } })
    expect(report).toMatchObject({ sent: 0, deferred: 2, calls: 1, failures: 1, stoppedBy: 'waiting' })
    expect(report.lastError).toMatch(/InternalServerError: 500/)
    const stats = await store.stats()
    expect(stats.nextAttemptAt).toBeGreaterThanOrEqual(now + 2_000)
    expect(stats.nextAttemptAt).toBeLessThanOrEqual(now + 4_000)
    now += 4_000
    const [entry] = await store.claim({ owner: 'look', leaseMs: 1, limit: 1 })
    expect(entry).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/500/) })
  })

  it('answers waiting, and when the next attempt is due, when what waits is backing off', async () => {
    const service = purchaseEventsService([{ status: 503 }])
    const now = Date.UTC(2026, 2, 1, 10, 0, 0)
    const store = createMemoryOutboxStore({ now: () => now })
    await store.add(refs(1))
    await drainOutbox({ client: service.client, store, backoff: { initialDelay: 8_000, maxDelay: 8_000 } })
    // The service is back, but the retry delay has not passed: nothing is sent, and the answer says when.
    const report = await drainOutbox({ client: service.client, store })
    expect(report).toMatchObject({ sent: 0, calls: 0, stoppedBy: 'waiting' })
    const due = (await store.stats()).nextAttemptAt as number
    expect(due).toBeGreaterThan(now)
    expect(report.nextAttemptAt).toBe(new Date(due).toISOString())
  })

  it('answers empty, without nextAttemptAt, when nothing waits', async () => {
    const report = await drainOutbox({
      client: purchaseEventsService().client,
      store: createMemoryOutboxStore(),
    })
    expect(report.stoppedBy).toBe('empty')
    expect(report).not.toHaveProperty('nextAttemptAt')
  })

  it('still sends the events of a known website when those recorded without one wait for it', async () => {
    const service = purchaseEventsService()
    const store = createMemoryOutboxStore()
    await store.add([{ ...newEntry('NO-SITE'), websiteId: '' }, newEntry('SITE')])
    const report = await drainOutbox({ client: service.clientWith({ websiteId: undefined }), store })
    expect(report).toMatchObject({ sent: 1, deferred: 1, stoppedBy: 'not-configured' })
    expect(service.created).toEqual(['SITE'])
    const [waiting] = await store.claim({ owner: 'look', leaseMs: 1, limit: 1 })
    expect(waiting).toMatchObject({
      websiteId: '',
      lastError: expect.stringMatching(/websiteId: is required/),
    })
  })

  it('makes one request per batch, leaving retries to the backoff', async () => {
    const service = purchaseEventsService([{ status: 503 }])
    const store = createMemoryOutboxStore()
    await store.add(refs(1))
    await drainOutbox({ client: service.client, store })
    expect(service.batches.length).toBe(1)
  })

  it('stops after maxFailures batches in a row fail with a 5xx', async () => {
    const service = purchaseEventsService([{ status: 500 }, { status: 502 }, { status: 503 }])
    const store = createMemoryOutboxStore()
    await store.add(refs(200))
    const report = await drainOutbox({ client: service.client, store, maxFailures: 3, backoff: fast })
    expect(report).toMatchObject({ stoppedBy: 'unavailable', calls: 3, failures: 3, deferred: 150, sent: 0 })
  })

  it('goes on after a failed batch while the failures are fewer than maxFailures', async () => {
    const service = purchaseEventsService([{ status: 500 }])
    const store = createMemoryOutboxStore()
    await store.add(refs(100))
    const report = await drainOutbox({ client: service.client, store, backoff: { initialDelay: 60_000 } })
    expect(report).toMatchObject({ sent: 50, deferred: 50, calls: 2, stoppedBy: 'waiting' })
  })

  it('stops at a 429 and waits at least its Retry-After', async () => {
    const service = purchaseEventsService([{ status: 429, retryAfter: 7 }])
    let now = 1_000_000
    const store = createMemoryOutboxStore({ now: () => now })
    await store.add(refs(100))
    const report = await drainOutbox({ client: service.client, store, backoff: { initialDelay: 10 } })
    expect(report).toMatchObject({ stoppedBy: 'rate-limited', retryAfterMs: 7_000, calls: 1, deferred: 50 })
    // The batch that got the 429 waits 7 s; the 50 events not yet tried are due now.
    expect(
      (await store.claim({ owner: 'x', leaseMs: 60_000, limit: 100 })).map((entry) => entry.attempts),
    ).toEqual(Array(50).fill(0))
    now += 6_999
    expect(await store.claim({ owner: 'y', leaseMs: 1, limit: 100 })).toEqual([])
    now += 1
    expect(await store.claim({ owner: 'z', leaseMs: 1, limit: 100 })).toHaveLength(50)
  })

  it('caps a Retry-After at the backoff maxDelay', async () => {
    const service = purchaseEventsService([{ status: 429, retryAfter: 3600 }])
    const now = 1_000_000
    const store = createMemoryOutboxStore({ now: () => now })
    await store.add(refs(1))
    await drainOutbox({ client: service.client, store, backoff: { maxDelay: 60_000 } })
    expect((await store.stats()).nextAttemptAt).toBe(now + 60_000)
  })

  it('moves the events the service refuses to the dead-letter list and sends the others', async () => {
    const service = purchaseEventsService([{ refuse: ['E1'] }])
    const store = createMemoryOutboxStore()
    await store.add(refs(3))
    const report = await drainOutbox({ client: service.client, store })
    expect(report).toMatchObject({ sent: 2, deadLettered: 1, stoppedBy: 'empty' })
    expect(service.created).toEqual(['E0', 'E2'])
    const [dead] = await store.deadLetters()
    expect(dead).toMatchObject({
      event: { purchase_reference: 'E1' },
      reasons: [{ field: 'consumer.email', message: 'consumer.email is blocked' }],
    })
    expect((await store.stats()).pending).toBe(0)
  })

  it("moves the events the client's own checks refuse to the dead-letter list and sends the others", async () => {
    const service = purchaseEventsService()
    const store = createMemoryOutboxStore()
    await store.add([
      newEntry('A'),
      { websiteId: WEBSITE, orderKey: 'B', event: purchaseEvent('B', 'not an address') },
      newEntry('C'),
    ])
    const report = await drainOutbox({ client: service.client, store })
    expect(report).toMatchObject({ sent: 2, deadLettered: 1 })
    expect(service.created).toEqual(['A', 'C'])
    expect((await store.deadLetters())[0]?.reasons).toEqual([
      { field: 'consumer.email', message: 'must be an email address' },
    ])
  })

  it('sends the events of one order in the order they were recorded, across a failure', async () => {
    const service = purchaseEventsService([{ status: 500 }])
    let now = 1_000_000
    const store = createMemoryOutboxStore({ now: () => now })
    await store.add([newEntry('A1', 'A')])
    await drainOutbox({ client: service.client, store, backoff: { initialDelay: 1_000 } })
    await store.add([newEntry('B1', 'B'), newEntry('A2', 'A')])
    await drainOutbox({ client: service.client, store })
    expect(service.created).toEqual(['B1'])
    now += 1_000
    await drainOutbox({ client: service.client, store })
    expect(service.created).toEqual(['B1', 'A1', 'A2'])
  })

  it('stops at a refusal of the credentials and keeps the events', async () => {
    const service = purchaseEventsService([{ status: 403 }])
    const store = createMemoryOutboxStore()
    await store.add(refs(60))
    const report = await drainOutbox({ client: service.client, store })
    expect(report).toMatchObject({ stoppedBy: 'error', calls: 1, deferred: 50 })
    expect(report.lastError).toMatch(/PermissionDeniedError/)
    expect((await store.stats()).pending).toBe(60)
  })

  it('sends again the batch of a drain that died after sending, and the service keeps one event each', async () => {
    const service = purchaseEventsService()
    let now = 1_000_000
    const store = createMemoryOutboxStore({ now: () => now })
    await store.add(refs(3))
    const claimed = await store.claim({ owner: 'died', leaseMs: 60_000, limit: 50 })
    await service.client.purchaseEvents.submit({
      websiteId: WEBSITE,
      events: claimed.map((entry) => entry.event),
    })
    expect((await drainOutbox({ client: service.client, store })).sent).toBe(0)
    now += 60_000
    const report = await drainOutbox({ client: service.client, store })
    expect(report.sent).toBe(3)
    expect(service.batches).toEqual([
      ['E0', 'E1', 'E2'],
      ['E0', 'E1', 'E2'],
    ])
    expect(service.created).toEqual(['E0', 'E1', 'E2'])
    expect((await store.stats()).pending).toBe(0)
  })

  it('never sends one event from two drains running at once', async () => {
    const service = purchaseEventsService(Array.from({ length: 20 }, () => ({ delayMs: 5 })))
    const store = createMemoryOutboxStore()
    await store.add(refs(500))
    const reports = await Promise.all(
      [1, 2, 3].map(() => drainOutbox({ client: service.client, store, batchSize: 25 })),
    )
    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(500)
    const sent = service.batches.flat()
    expect(sent.length).toBe(500)
    expect(new Set(sent).size).toBe(500)
  })

  it('claims no batch once maxDuration has passed', async () => {
    const service = purchaseEventsService()
    const store = createMemoryOutboxStore()
    await store.add(refs(3))
    expect(await drainOutbox({ client: service.client, store, maxDuration: 0 })).toMatchObject({
      stoppedBy: 'time',
      calls: 0,
    })
  })

  it('claims no more than maxEvents', async () => {
    const service = purchaseEventsService()
    const store = createMemoryOutboxStore()
    await store.add(refs(70))
    const report = await drainOutbox({ client: service.client, store, maxEvents: 60 })
    expect(report).toMatchObject({ stoppedBy: 'max-events', sent: 60 })
    expect(service.batches.map((batch) => batch.length)).toEqual([50, 10])
  })

  it('puts the batch under way back without counting an attempt when its signal aborts', async () => {
    const service = purchaseEventsService([{ delayMs: 200 }])
    const store = createMemoryOutboxStore()
    await store.add(refs(2))
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 20)
    const report = await drainOutbox({ client: service.client, store, signal: controller.signal })
    expect(report).toMatchObject({ stoppedBy: 'aborted', sent: 0, deferred: 2 })
    const claimed = await store.claim({ owner: 'x', leaseMs: 1, limit: 10 })
    expect(claimed.map((entry) => entry.attempts)).toEqual([0, 0])
  })

  it('refuses a batchSize above 50, naming it', async () => {
    const service = purchaseEventsService()
    const drain = drainOutbox({ client: service.client, store: createMemoryOutboxStore(), batchSize: 51 })
    await expect(drain).rejects.toThrow(ValidationError)
    await expect(drain).rejects.toThrow(/^batchSize: must be an integer from 1 to 50/)
  })
})
