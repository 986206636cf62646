import { PermissionDeniedError, type PurchaseEventInput, ValidationError } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

function event(reference: string, overrides: Partial<PurchaseEventInput> = {}): PurchaseEventInput {
  return {
    purchase_reference: reference,
    purchase_date: '2026-03-01T10:00:00Z',
    price: 49.9,
    consumer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', language: 'en' },
    products: [{ product_ref: { sku: 'SKU-001', ean: '4006381333931' }, name: 'Mug', price: 49.9 }],
    sales_channel: { channel: 'online', delivery_type: 'home_delivery' },
    ...overrides,
  }
}

async function stored(): Promise<{ purchase_reference: string }[]> {
  return (await sb.admin('GET', 'purchase-events')) as { purchase_reference: string }[]
}

describe('purchaseEvents.submit against the sandbox', () => {
  it('creates each event and answers its result in input order', async () => {
    const results = await sb.client().purchaseEvents.submit({ events: [event('ORDER-1'), event('ORDER-2')] })
    expect(results.map((result) => result.status)).toEqual(['created', 'created'])
    expect(
      results.map((result) => (result.status === 'created' ? result.event.purchase_reference : '')),
    ).toEqual(['ORDER-1', 'ORDER-2'])
    const [first] = results
    expect(first?.status === 'created' && first.event.purchase_event_status).toBe('CREATED')
    expect(first?.status === 'created' && first.event.id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('sends any number of events in batches of 50, one after the other', async () => {
    const events = Array.from({ length: 120 }, (_, i) => event(`BATCH-${i}`))
    const results = await sb.client().purchaseEvents.submit({ events })
    expect(results.every((result) => result.status === 'created')).toBe(true)
    expect((await sb.stats()).operations['purchase-events.submit']).toBe(3)
    expect(await stored()).toHaveLength(120)
  })

  it('sends an event repeated in the input once and gives the repeat the same result', async () => {
    const results = await sb
      .client()
      .purchaseEvents.submit({ events: [event('DUP-1'), event('DUP-2'), event('DUP-1')] })
    expect(results[2]).toMatchObject({ status: 'created', duplicateOf: 0 })
    expect(results[2]?.status === 'created' && results[2].event.id).toBe(
      results[0]?.status === 'created' && results[0].event.id,
    )
    expect(await stored()).toHaveLength(2)
  })

  it('never creates an event twice when a batch is retried after its answer was cut short', async () => {
    await sb.faults([{ operation: 'purchase-events.submit', truncate: true, count: 1 }])
    const events = Array.from({ length: 10 }, (_, i) => event(`RETRY-${i}`))
    const results = await sb.client().purchaseEvents.submit({ events })
    expect(results.every((result) => result.status === 'created')).toBe(true)
    expect((await sb.stats()).operations['purchase-events.submit']).toBe(2)
    expect((await stored()).map((item) => item.purchase_reference).sort()).toEqual(
      events.map((item) => item.purchase_reference).sort(),
    )
  })

  it('never creates an event twice when a batch is retried after a timeout', async () => {
    await sb.faults([{ operation: 'purchase-events.submit', latencyMs: 600, count: 1 }])
    const results = await sb.client({ timeout: 200 }).purchaseEvents.submit({ events: [event('SLOW-1')] })
    expect(results[0]?.status).toBe('created')
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(await stored()).toHaveLength(1)
  })

  it('submits the same events again without creating any twice', async () => {
    const vr = sb.client()
    const events = [event('AGAIN-1'), event('AGAIN-2')]
    const first = await vr.purchaseEvents.submit({ events })
    const second = await vr.purchaseEvents.submit({ events })
    expect(second.map((result) => result.status === 'created' && result.event.id)).toEqual(
      first.map((result) => result.status === 'created' && result.event.id),
    )
    expect(await stored()).toHaveLength(2)
  })

  it('refuses invalid events by index and field before sending anything', async () => {
    const before = (await sb.stats()).total
    const events = [
      event('OK-1'),
      event('', { consumer: { email: 'not-an-email' } }),
      event('OK-3', { purchase_date: '2026-03-01' }),
    ]
    const error = (await sb
      .client()
      .purchaseEvents.submit({ events })
      .catch((e: unknown) => e)) as ValidationError
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.issues.map((issue) => [issue.index, issue.field])).toEqual([
      [1, 'events[1].purchase_reference'],
      [1, 'events[1].consumer.email'],
      [2, 'events[2].purchase_date'],
    ])
    expect((await sb.stats()).total).toBe(before)
  })

  it('throws PermissionDeniedError for another website than the credentials', async () => {
    const other = '00000000-0000-4000-8000-000000000000'
    await expect(
      sb.client().purchaseEvents.submit({ websiteId: other, events: [event('X-1')] }),
    ).rejects.toThrow(PermissionDeniedError)
  })
})
