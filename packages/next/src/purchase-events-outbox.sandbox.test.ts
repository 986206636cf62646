import { createMemoryOutboxStore } from '@verified-reviews/core/outbox'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { purchaseEvent } from '../../../test/fixtures/outbox-store.ts'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { createOutboxDrainRoute, type OutboxDrainRouteBody } from './outbox-route.ts'
import { submitPurchaseEvent } from './purchase-events.ts'

const SECRET = 'a-secret-of-the-scheduler-0123456789'
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

function options() {
  return { websiteId: sb.sandbox.websiteId, client: sb.client({ websiteId: undefined }) }
}

async function received(): Promise<string[]> {
  const events = (await sb.admin('GET', 'purchase-events')) as Array<{ purchase_reference: string }>
  return events.map((event) => event.purchase_reference)
}

describe('submitPurchaseEvent with an outbox', () => {
  it('sends at once when the service answers and leaves nothing waiting', async () => {
    const outbox = createMemoryOutboxStore()
    const result = await submitPurchaseEvent(purchaseEvent('ORDER-1'), { ...options(), outbox })
    expect(result).toMatchObject({ ok: true, errors: {}, queued: [] })
    expect(result.created[0]).toMatchObject({
      purchase_reference: 'ORDER-1',
      purchase_event_status: 'CREATED',
    })
    expect((await outbox.stats()).pending).toBe(0)
  })

  it('keeps the event when the service fails, and the drain route sends it once', async () => {
    await sb.faults([{ operation: 'purchase-events.submit', status: 500, count: 1 }])
    let now = Date.now()
    const outbox = createMemoryOutboxStore({ now: () => now })
    const result = await submitPurchaseEvent(purchaseEvent('ORDER-1'), { ...options(), outbox })
    expect(result).toEqual({
      ok: true,
      created: [],
      errors: {},
      queued: ['ORDER-1'],
      message: 'Thank you. You will be invited to review your purchase.',
    })
    expect(await received()).toEqual([])
    now += 60_000 // past its backoff
    const route = createOutboxDrainRoute({ store: outbox, secret: SECRET, client: sb.client() })
    const answer = await route.POST(
      new Request('https://shop.example/api/outbox', {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}` },
      }),
    )
    expect(((await answer.json()) as { drain: { sent: number } }).drain.sent).toBe(1)
    expect(await received()).toEqual(['ORDER-1'])
  })

  it('keeps the event while VERIFIED_REVIEWS_WEBSITE_ID is not set, and the first drain after it is set sends it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    // The environment's client, as a shop's Server Action uses it, with every variable but the website.
    for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
    vi.stubEnv('VERIFIED_REVIEWS_WEBSITE_ID', '')
    const outbox = createMemoryOutboxStore()
    const result = await submitPurchaseEvent(purchaseEvent('ORDER-1'), { outbox, locale: 'fr' })
    expect(result).toEqual({
      ok: true,
      created: [],
      errors: {},
      queued: ['ORDER-1'],
      message: 'Merci. Vous serez invité à donner votre avis sur votre achat.',
    })
    expect(String(logged.mock.lastCall?.[0])).toMatch(
      /^\[@verified-reviews\/next\] .*1 purchase event\(s\) .* wait for a setting \(.*VERIFIED_REVIEWS_WEBSITE_ID/,
    )
    const route = createOutboxDrainRoute({ store: outbox, secret: SECRET })
    const drain = () =>
      route.POST(
        new Request('https://shop.example/api/outbox', {
          method: 'POST',
          headers: { authorization: `Bearer ${SECRET}` },
        }),
      )
    const unset = (await (await drain()).json()) as OutboxDrainRouteBody
    expect(unset.drain).toMatchObject({ sent: 0, stoppedBy: 'not-configured' })
    expect(unset.drain.lastError).toMatch(/VERIFIED_REVIEWS_WEBSITE_ID/)
    expect(unset.outbox.pending).toBe(1)
    expect(await received()).toEqual([])
    vi.stubEnv('VERIFIED_REVIEWS_WEBSITE_ID', sb.sandbox.websiteId)
    const set = (await (await drain()).json()) as OutboxDrainRouteBody
    expect(set.drain).toMatchObject({ sent: 1, stoppedBy: 'empty' })
    expect(await received()).toEqual(['ORDER-1'])
  })

  it('keeps the event while the credentials are not set', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', '')
    const outbox = createMemoryOutboxStore()
    const result = await submitPurchaseEvent(purchaseEvent('ORDER-1'), {
      outbox,
      websiteId: sb.sandbox.websiteId,
    })
    expect(result).toMatchObject({ ok: true, queued: ['ORDER-1'] })
    const [entry] = await outbox.claim({ owner: 'look', leaseMs: 1, limit: 1 })
    expect(entry?.lastError).toMatch(
      /clientSecret: is required: pass it or set VERIFIED_REVIEWS_CLIENT_SECRET/,
    )
  })

  it('loses the event when the service fails and no outbox is given', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await sb.faults([{ operation: 'purchase-events.submit', status: 500 }])
    const result = await submitPurchaseEvent(purchaseEvent('ORDER-1'), options())
    expect(result).toMatchObject({ ok: false, created: [], message: expect.any(String) })
    expect(result.queued).toBeUndefined()
  })

  it('answers what is wrong by field and records nothing', async () => {
    const outbox = createMemoryOutboxStore()
    const result = await submitPurchaseEvent(purchaseEvent('ORDER-1', 'not an email'), {
      ...options(),
      outbox,
    })
    expect(result).toMatchObject({ ok: false, errors: { 'consumer.email': 'must be an email address' } })
    expect((await outbox.stats()).pending).toBe(0)
    expect(await received()).toEqual([])
  })

  it("answers the field errors in the shopper's language and records nothing", async () => {
    const outbox = createMemoryOutboxStore()
    const event = purchaseEvent('ORDER-1', 'not an email')
    const result = await submitPurchaseEvent(
      { ...event, consumer: { ...event.consumer, language: 'de-AT' } },
      { ...options(), outbox },
    )
    expect(result).toMatchObject({
      ok: false,
      errors: { 'consumer.email': 'muss eine E-Mail-Adresse sein' },
      message: 'Bitte korrigieren Sie die unten markierten Felder.',
    })
    expect((await outbox.stats()).pending).toBe(0)
  })

  it('answers the service refusal by field and keeps the event in the dead-letter list', async () => {
    const outbox = createMemoryOutboxStore()
    const result = await submitPurchaseEvent([purchaseEvent('ORDER-1'), purchaseEvent('ORDER-2')], {
      ...options(),
      outbox,
      client: refusingSecond(sb.client({ websiteId: undefined })),
    })
    expect(result).toMatchObject({ ok: false, errors: { 'events[1].consumer.email': 'blocked' }, queued: [] })
    expect((await outbox.deadLetters()).map((dead) => dead.event.purchase_reference)).toEqual(['ORDER-2'])
  })
})

/** A client whose service refuses the second event of each submission, as the real one may for its own rules. */
function refusingSecond(client: ReturnType<typeof sb.client>) {
  return {
    purchaseEvents: {
      submit: async (params: Parameters<typeof client.purchaseEvents.submit>[0]) => {
        const [first] = await client.purchaseEvents.submit({ ...params, events: params.events.slice(0, 1) })
        return [
          first as Awaited<ReturnType<typeof client.purchaseEvents.submit>>[number],
          { status: 'rejected' as const, reasons: [{ field: 'consumer.email', message: 'blocked' }] },
        ]
      },
    },
  }
}
