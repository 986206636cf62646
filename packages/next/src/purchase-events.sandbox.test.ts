import { createClient, type PurchaseEventInput } from '@verified-reviews/core'
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

// What a shop builds on the server from the confirmed order.
function order(fields: Partial<PurchaseEventInput> = {}): PurchaseEventInput {
  return {
    purchase_reference: 'ORDER-1001',
    purchase_date: '2026-03-01T10:00:00Z',
    price: 49.9,
    consumer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', language: 'en' },
    products: [{ product_ref: { sku: 'SKU-001' }, name: 'Merino Wool Sweater', price: 49.9 }],
    sales_channel: { channel: 'online' },
    ...fields,
  }
}

async function received(): Promise<Array<Record<string, unknown>>> {
  return (await sb.admin('GET', 'purchase-events')) as Array<Record<string, unknown>>
}

describe('submitPurchaseEvent', () => {
  it('sends the event the server built from the order', async () => {
    const result = await submitPurchaseEvent(order(), options())
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

  it("answers the shopper's thanks in the event's consumer.language, or the locale option's", async () => {
    expect((await submitPurchaseEvent(order(), options())).message).toBe(
      'Thank you. You will be invited to review your purchase.',
    )
    const german = order({
      purchase_reference: 'ORDER-1002',
      consumer: { email: 'ada@example.com', language: 'de' },
    })
    expect((await submitPurchaseEvent(german, options())).message).toBe(
      'Vielen Dank. Sie werden eingeladen, Ihren Kauf zu bewerten.',
    )
    const inPolish = await submitPurchaseEvent(order({ purchase_reference: 'ORDER-1003' }), {
      ...options(),
      locale: 'pl-PL',
    })
    expect(inPolish.message).toBe('Dziękujemy. Otrzymasz zaproszenie do wystawienia opinii o zakupie.')
  })

  it('answers what is wrong by field, named as a form names it, and sends nothing', async () => {
    const result = await submitPurchaseEvent(
      order({
        consumer: { email: 'not an email' },
        purchase_reference: 'X'.repeat(60),
      }),
      options(),
    )
    expect(result.ok).toBe(false)
    expect(Object.keys(result.errors).sort()).toEqual(['consumer.email', 'purchase_reference'])
    expect(result.message).toBe('Please correct the fields marked below.')
    expect(await received()).toEqual([])
  })

  it("says the field errors a shopper can cause in the shopper's language, the others in English", async () => {
    const french = order({
      consumer: { email: 'ada@exemple', birth_date: '01/03/1990', language: 'fr' },
      price: -1,
    })
    const result = await submitPurchaseEvent(french, options())
    expect(result.errors).toEqual({
      'consumer.email': 'doit être une adresse e-mail',
      'consumer.birth_date': 'doit être une date au format AAAA-MM-JJ',
      price: 'doit être un nombre supérieur ou égal à 0',
    })
    expect(result.message).toBe('Veuillez corriger les champs signalés ci-dessous.')
    // The locale option wins over the event's language; a member no form has stays in English.
    const forged = { ...french, consumer: { email: 'x', language: 'fr', nickname: 'Ada' } }
    const inGreek = await submitPurchaseEvent(forged as PurchaseEventInput, { ...options(), locale: 'el' })
    expect(inGreek.errors).toEqual({
      'consumer.email': 'πρέπει να είναι διεύθυνση email',
      'consumer.nickname': 'is not a known member',
      price: 'πρέπει να είναι αριθμός μεγαλύτερος ή ίσος του 0',
    })
    // Several events: the first one's language, for every field.
    const second = order({ purchase_reference: '', consumer: { email: 'ada@example.com', language: 'en' } })
    const both = await submitPurchaseEvent([order({ consumer: { language: 'tr' } }), second], options())
    expect(both.errors).toEqual({ 'events[1].purchase_reference': 'zorunludur' })
    expect(await received()).toEqual([])
  })

  it('refuses a FormData, which anyone can forge, and sends nothing', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const form = new FormData()
    form.set('purchase_reference', 'ORDER-1001')
    form.set('consumer.email', 'stranger@example.com')
    const result = await submitPurchaseEvent(form as unknown as PurchaseEventInput, options())
    expect(result).toMatchObject({ ok: false, created: [], errors: {} })
    expect(result.message).toBeDefined()
    expect(await received()).toEqual([])
    expect(String(logged.mock.lastCall?.[0])).toMatch(
      /^\[@verified-reviews\/next\] submitPurchaseEvent takes events/,
    )
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
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const result = await submitPurchaseEvent(order(), {
      websiteId: sb.sandbox.websiteId,
      client: createClient({ origin: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b', maxRetries: 0 }),
    })
    expect(result).toEqual({
      ok: false,
      created: [],
      errors: {},
      message: 'Your purchase could not be registered for review invitations.',
    })
    expect(String(logged.mock.lastCall?.[0])).toMatch(
      /^\[@verified-reviews\/next\] submitPurchaseEvent could not send/,
    )
  })
})
