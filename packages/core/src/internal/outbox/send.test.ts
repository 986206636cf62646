import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { purchaseEvent, WEBSITE } from '../../../../../test/fixtures/outbox-store.ts'
import { purchaseEventsService } from '../../../../../test/fixtures/purchase-events-service.ts'
import { ValidationError } from '../base/errors.ts'
import { createMemoryOutboxStore } from './memory-store.ts'
import { drainOutbox, sendPurchaseEvents } from './send.ts'
import type { OutboxStore } from './store.ts'

const orderOf = (event: { purchase_reference: string }) => event.purchase_reference.split('/')[0] as string

function failingStore(): OutboxStore {
  const fail = async () => {
    throw new Error('disk full')
  }
  return {
    add: fail,
    claim: fail,
    complete: fail,
    release: fail,
    deadLetter: fail,
    deadLetters: fail,
    removeDeadLetters: fail,
    stats: fail,
  }
}

describe('sendPurchaseEvents', () => {
  it('sends the events at once and leaves nothing in the outbox', async () => {
    const service = purchaseEventsService()
    const store = createMemoryOutboxStore()
    const results = await sendPurchaseEvents({
      client: service.client,
      store,
      websiteId: WEBSITE,
      events: [purchaseEvent('A'), purchaseEvent('B')],
    })
    expect(results).toEqual([
      { status: 'created', event: expect.objectContaining({ id: 'id-A' }) },
      { status: 'created', event: expect.objectContaining({ id: 'id-B' }) },
    ])
    expect((await store.stats()).pending).toBe(0)
  })

  it('keeps an event the service could not take, for the drain to send', async () => {
    const service = purchaseEventsService([{ status: 500 }])
    const store = createMemoryOutboxStore()
    const [result] = await sendPurchaseEvents({
      client: service.client,
      store,
      websiteId: WEBSITE,
      events: [purchaseEvent('A')],
      backoff: { initialDelay: 1, maxDelay: 1 },
    })
    expect(result).toEqual({
      status: 'queued',
      entryId: expect.any(String),
      reason: expect.stringMatching(/500/),
    })
    expect(service.created).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 2))
    expect((await drainOutbox({ client: service.client, store })).sent).toBe(1)
    expect(service.created).toEqual(['A'])
  })

  it('makes one attempt at once, without the client retries', async () => {
    const service = purchaseEventsService([{ status: 503 }, { status: 503 }])
    await sendPurchaseEvents({
      client: service.client,
      store: createMemoryOutboxStore(),
      websiteId: WEBSITE,
      events: [purchaseEvent('A')],
    })
    expect(service.batches.length).toBe(1)
  })

  it('answers rejected, and keeps in the dead-letter list, an event the service refuses', async () => {
    const service = purchaseEventsService([{ refuse: ['B'] }])
    const store = createMemoryOutboxStore()
    const results = await sendPurchaseEvents({
      client: service.client,
      store,
      websiteId: WEBSITE,
      events: [purchaseEvent('A'), purchaseEvent('B')],
    })
    expect(results.map((result) => result.status)).toEqual(['created', 'rejected'])
    expect(results[1]).toEqual({
      status: 'rejected',
      reasons: [{ field: 'consumer.email', message: 'consumer.email is blocked' }],
    })
    expect((await store.deadLetters()).map((dead) => dead.event.purchase_reference)).toEqual(['B'])
  })

  it('records nothing when an event is invalid, naming every problem', async () => {
    const service = purchaseEventsService()
    const store = createMemoryOutboxStore()
    const sending = sendPurchaseEvents({
      client: service.client,
      store,
      websiteId: WEBSITE,
      events: [purchaseEvent('A'), purchaseEvent('B', 'nope')],
    })
    await expect(sending).rejects.toThrow(ValidationError)
    await expect(sending).rejects.toThrow(/^events\[1\]\.consumer\.email: must be an email address/)
    expect((await store.stats()).pending).toBe(0)
    expect(service.batches).toEqual([])
  })

  describe('without a setting it needs to send', () => {
    beforeEach(() => {
      vi.stubEnv('VERIFIED_REVIEWS_WEBSITE_ID', '')
    })
    afterEach(() => {
      vi.unstubAllEnvs()
    })
    const quiet = () => {
      const warnings: string[] = []
      return { warnings, logger: { warn: (message: string) => warnings.push(message) } }
    }

    it('records the event without VERIFIED_REVIEWS_WEBSITE_ID, with the reason, and the first drain after it is set sends it', async () => {
      const service = purchaseEventsService()
      const store = createMemoryOutboxStore()
      const { warnings, logger } = quiet()
      const [result] = await sendPurchaseEvents({
        client: service.clientWith({ websiteId: undefined }),
        store,
        events: [purchaseEvent('A')],
        logger,
      })
      expect(result).toEqual({
        status: 'queued',
        entryId: expect.any(String),
        reason: expect.stringMatching(/websiteId: is required: .*VERIFIED_REVIEWS_WEBSITE_ID/),
      })
      expect(warnings).toEqual([expect.stringMatching(/1 purchase event\(s\) .* wait for a setting/)])
      expect(service.batches).toEqual([])
      // Still not set: the drain stops at once, saying why, and the event waits.
      const unset = await drainOutbox({ client: service.clientWith({ websiteId: undefined }), store })
      expect(unset).toMatchObject({ sent: 0, calls: 1, stoppedBy: 'not-configured' })
      expect(unset.lastError).toMatch(/VERIFIED_REVIEWS_WEBSITE_ID/)
      expect(await store.stats()).toMatchObject({ pending: 1, deadLetters: 0 })
      // Set: sent at once, to the client's website.
      const set = await drainOutbox({ client: service.client, store })
      expect(set).toMatchObject({ sent: 1, stoppedBy: 'empty' })
      expect(service.created).toEqual(['A'])
    })

    it('records the event without credentials, due again as soon as they are set', async () => {
      const service = purchaseEventsService()
      const store = createMemoryOutboxStore()
      const [result] = await sendPurchaseEvents({
        client: service.clientWith({ clientId: undefined }),
        store,
        websiteId: WEBSITE,
        events: [purchaseEvent('A')],
        logger: quiet().logger,
      })
      expect(result).toMatchObject({
        status: 'queued',
        reason: expect.stringMatching(/clientId: is required/),
      })
      // No request was made, so there is no backoff to wait through: the next drain sends it.
      expect((await drainOutbox({ client: service.client, store })).sent).toBe(1)
      expect(service.created).toEqual(['A'])
    })

    it('still refuses a websiteId option that is not a uuid, recording nothing', async () => {
      const store = createMemoryOutboxStore()
      await expect(
        sendPurchaseEvents({
          client: purchaseEventsService().client,
          store,
          websiteId: 'not-a-uuid',
          events: [purchaseEvent('A')],
        }),
      ).rejects.toThrow(/^websiteId: must be a uuid/)
      expect((await store.stats()).pending).toBe(0)
    })
  })

  it('keeps a later event of an order waiting while an earlier one waits, even when the service answers', async () => {
    const service = purchaseEventsService([{ status: 500 }])
    const store = createMemoryOutboxStore()
    const send = (reference: string) =>
      sendPurchaseEvents({
        client: service.client,
        store,
        websiteId: WEBSITE,
        events: [purchaseEvent(reference)],
        orderKey: orderOf,
        backoff: { initialDelay: 1, maxDelay: 1 },
      })
    expect((await send('ORDER-1/1'))[0]?.status).toBe('queued')
    expect((await send('ORDER-2/1'))[0]?.status).toBe('created')
    expect((await send('ORDER-1/2'))[0]).toMatchObject({
      status: 'queued',
      reason: expect.stringMatching(/earlier/),
    })
    await new Promise((resolve) => setTimeout(resolve, 2))
    await drainOutbox({ client: service.client, store })
    expect(service.created).toEqual(['ORDER-2/1', 'ORDER-1/1', 'ORDER-1/2'])
  })

  it('sends the events of one order together and in order when nothing is ahead of them', async () => {
    const service = purchaseEventsService()
    const results = await sendPurchaseEvents({
      client: service.client,
      store: createMemoryOutboxStore(),
      websiteId: WEBSITE,
      events: [purchaseEvent('O/1'), purchaseEvent('O/2')],
      orderKey: orderOf,
    })
    expect(results.map((result) => result.status)).toEqual(['created', 'created'])
    expect(service.batches).toEqual([['O/1', 'O/2']])
  })

  it('answers an event given twice once, with the same result for both', async () => {
    const service = purchaseEventsService()
    const results = await sendPurchaseEvents({
      client: service.client,
      store: createMemoryOutboxStore(),
      websiteId: WEBSITE,
      events: [purchaseEvent('A'), purchaseEvent('A')],
    })
    expect(results.map((result) => result.status === 'created' && result.event.id)).toEqual(['id-A', 'id-A'])
    expect(service.batches).toEqual([['A']])
  })

  it('sends directly, with a warning, when the store cannot record the events', async () => {
    const service = purchaseEventsService()
    const warnings: string[] = []
    const results = await sendPurchaseEvents({
      client: service.client,
      store: failingStore(),
      websiteId: WEBSITE,
      events: [purchaseEvent('A')],
      logger: { warn: (message) => warnings.push(message) },
    })
    expect(results[0]?.status).toBe('created')
    expect(warnings).toEqual([expect.stringMatching(/could not record 1 purchase event\(s\) \(disk full\)/)])
  })

  it('throws, naming both failures, when the store cannot record the events nor the service take them', async () => {
    const service = purchaseEventsService([{ status: 400 }])
    await expect(
      sendPurchaseEvents({
        client: service.client,
        store: failingStore(),
        websiteId: WEBSITE,
        events: [purchaseEvent('A')],
        logger: { warn: () => {} },
      }),
    ).rejects.toThrow(/could not be recorded in the outbox \(disk full\) nor sent \(400/)
  })
})
