import { createClient } from '@verified-reviews/core'
import { describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { submitPurchaseEvent } from './purchase-events.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

function options() {
  return {
    websiteId: sb.sandbox.websiteId,
    // No website id on the client, so the one of the options is the one the event gets.
    client: sb.client({ websiteId: undefined }),
  }
}

function checkoutForm(fields: Record<string, string> = {}): FormData {
  const form = new FormData()
  const values: Record<string, string> = {
    $ACTION_ID_0123456789abcdef: '',
    purchase_reference: 'ORDER-1001',
    price: '49,90',
    'consumer.first_name': 'Ada',
    'consumer.last_name': 'Lovelace',
    'consumer.email': 'ada@example.com',
    'consumer.language': 'en',
    'products[0].product_ref.sku': 'SKU-001',
    'products[0].name': 'Merino Wool Sweater',
    'products[0].price': '49.90',
    ...fields,
  }
  for (const [name, value] of Object.entries(values)) form.append(name, value)
  return form
}

async function received(): Promise<Array<Record<string, unknown>>> {
  return (await sb.admin('GET', 'purchase-events')) as Array<Record<string, unknown>>
}

describe('submitPurchaseEvent', () => {
  it('sends the event a checkout form describes', async () => {
    const result = await submitPurchaseEvent(checkoutForm(), options())
    expect(result.ok).toBe(true)
    expect(result.errors).toEqual({})
    expect(result.created[0]).toMatchObject({
      purchase_reference: 'ORDER-1001',
      purchase_event_status: 'CREATED',
    })
    const [event] = await received()
    expect(event).toMatchObject({
      purchase_reference: 'ORDER-1001',
      price: 49.9,
      consumer: { first_name: 'Ada', email: 'ada@example.com', language: 'en' },
      products: [{ product_ref: { sku: 'SKU-001' }, name: 'Merino Wool Sweater', price: 49.9 }],
      sales_channel: { channel: 'online' },
    })
  })

  it('dates the event now when the form gives no purchase date', async () => {
    const before = Date.now() - 1000
    await submitPurchaseEvent(checkoutForm(), options())
    const [event] = await received()
    expect(Date.parse(String(event?.purchase_date))).toBeGreaterThanOrEqual(before)
  })

  it('answers what is wrong by form field, and sends nothing', async () => {
    const result = await submitPurchaseEvent(
      checkoutForm({ 'consumer.email': 'not an email', purchase_reference: 'X'.repeat(60) }),
      options(),
    )
    expect(result.ok).toBe(false)
    expect(Object.keys(result.errors).sort()).toEqual(['consumer.email', 'purchase_reference'])
    expect(await received()).toEqual([])
  })

  it('answers a price that is not a number by its field', async () => {
    const result = await submitPurchaseEvent(checkoutForm({ price: 'cheap' }), options())
    expect(result.errors).toEqual({ price: 'must be a number' })
  })

  it('answers a field that is no member of a purchase event by its name', async () => {
    const result = await submitPurchaseEvent(checkoutForm({ 'consumer.shoe_size': '42' }), options())
    expect(Object.keys(result.errors)).toEqual(['consumer.shoe_size'])
  })

  it('names the fields of several events with their index', async () => {
    const event = {
      purchase_reference: 'ORDER-2',
      purchase_date: '2026-03-01T10:00:00Z',
      consumer: { email: 'ada@example.com' },
      sales_channel: { channel: 'online' },
    }
    const result = await submitPurchaseEvent([event, { ...event, purchase_reference: '' }], options())
    expect(Object.keys(result.errors)).toEqual(['events[1].purchase_reference'])
  })

  it('answers a message, not field errors, when the service cannot be reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const result = await submitPurchaseEvent(checkoutForm(), {
      websiteId: sb.sandbox.websiteId,
      client: createClient({ origin: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b', maxRetries: 0 }),
    })
    expect(result).toEqual({
      ok: false,
      created: [],
      errors: {},
      message: 'The purchase could not be sent for review invitations.',
    })
  })
})
