import { describe, expect, it } from 'vitest'
import type { SandboxState } from '../context.ts'
import { fakeState as emptyState } from '../testing/fake-state.ts'
import type { StoredPurchaseEvent } from '../types.ts'
import { publicEvent, storePurchaseEvents, toStoredEvent, validatePurchaseEvents } from './purchase-events.ts'

const WEBSITE = '0b6f4a52-8a3b-4d7e-9f1c-2d3e4f5a6b7c'

function event(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    purchase_reference: 'ORDER-1',
    purchase_date: '2025-03-01T10:00:00Z',
    consumer: { first_name: 'Ana', email: 'ana@example.com' },
    sales_channel: { channel: 'online' },
    ...overrides,
  }
}

function fakeState(): SandboxState & { purchaseEvents: StoredPurchaseEvent[] } {
  let n = 0
  return emptyState(WEBSITE, {
    uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  })
}

function fields(events: unknown[]): string[] {
  return validatePurchaseEvents(events, WEBSITE).map((p) => `${p.index}:${p.field}`)
}

describe('validatePurchaseEvents', () => {
  it('finds no problem in a minimal event', () => {
    expect(validatePurchaseEvents([event()], WEBSITE)).toEqual([])
  })

  it.each([
    '2025-03-01T10:00Z',
    '2025-03-01T10:00:00.5+02:00',
    '2025-03-01T10:00:00,250-0330',
    '2025-03-01T10:00+01',
    '2025-03-01T10:00:00',
  ])('takes the ISO 8601 purchase_date %s', (purchaseDate) => {
    expect(validatePurchaseEvents([event({ purchase_date: purchaseDate })], WEBSITE)).toEqual([])
  })

  it.each(['2025-03-01', '2025-03-01T10Z', '20250301T1000Z', '2025-02-29T10:00Z', '2025-03-01T10:00+24:00'])(
    'refuses the purchase_date %s',
    (purchaseDate) => {
      expect(fields([event({ purchase_date: purchaseDate })])).toEqual(['0:purchase_date'])
    },
  )

  it('finds no problem in an event using every documented member', () => {
    const full = event({
      price: 12.5,
      consumer: {
        first_name: 'Ana',
        last_name: 'Lee',
        birth_date: '1990-05-04',
        email: 'ana@example.com',
        phone: '+33100000000',
        courtesy_title: 'Ms',
        custom_fields: [{ label: 'tier', value: 'gold', category: 'crm' }],
        language: 'fr',
        country: 'FR',
        hide_personal_data: true,
        anonymize_data: false,
      },
      products: [
        {
          product_ref: { ean: '1', sku: 'S', upc: 'U', isbn: 'I', jan: 'J', mpn: 'M', reference: 'R' },
          name: 'Kettle',
          brand: 'Acme',
          price: 30,
          not_received: false,
          custom_fields: [],
          category: 'kitchen',
        },
      ],
      sales_channel: {
        channel: 'offline',
        delivery_type: 'home_delivery',
        website_id: WEBSITE,
        shop_id: 'S1',
      },
      solicitation_parameters: { delay: 3, delay_product: 10, purchase_event_type: 'BRAND_AND_PRODUCT' },
      custom_fields: null,
    })
    expect(validatePurchaseEvents([full], WEBSITE)).toEqual([])
  })

  it('names each missing required member', () => {
    expect(fields([{}])).toEqual(['0:purchase_reference', '0:purchase_date', '0:consumer', '0:sales_channel'])
  })

  it('rejects a purchase_reference of 51 characters', () => {
    expect(fields([event({ purchase_reference: 'x'.repeat(51) })])).toEqual(['0:purchase_reference'])
  })

  it('counts purchase_reference characters, not UTF-16 units', () => {
    expect(fields([event({ purchase_reference: '😀'.repeat(50) })])).toEqual([])
  })

  it('rejects an empty purchase_reference', () => {
    expect(fields([event({ purchase_reference: '' })])).toEqual(['0:purchase_reference'])
  })

  it('rejects a negative price', () => {
    expect(fields([event({ price: -1 })])).toEqual(['0:price'])
  })

  it('names nested members with dotted paths and array indexes', () => {
    const bad = event({
      consumer: {
        email: 'not-an-email',
        birth_date: '1990-13-01',
        custom_fields: [{ label: 1, value: 'v' }],
      },
      products: [{}, { price: 'free', product_ref: { sku: 5 }, not_received: 'no' }],
    })
    expect(fields([bad])).toEqual([
      '0:consumer.email',
      '0:consumer.birth_date',
      '0:consumer.custom_fields[0].label',
      '0:products[1].price',
      '0:products[1].product_ref.sku',
      '0:products[1].not_received',
    ])
  })

  it('reports members the contract does not know', () => {
    expect(fields([event({ purchase_ref: 'A' })])).toEqual(['0:purchase_ref'])
  })

  it('rejects negative and fractional solicitation delays', () => {
    expect(fields([event({ solicitation_parameters: { delay: -1, delay_product: 1.5 } })])).toEqual([
      '0:solicitation_parameters.delay',
      '0:solicitation_parameters.delay_product',
    ])
  })

  it('rejects a sales_channel.website_id of another website', () => {
    const other = '11111111-2222-4333-8444-555555555555'
    expect(fields([event({ sales_channel: { website_id: other } })])).toEqual(['0:sales_channel.website_id'])
  })

  it('reports an element that is not an object as the whole event', () => {
    expect(fields([event(), 'text'])).toEqual(['1:event'])
  })

  it('collects the problems of every event', () => {
    expect(fields([event({ price: 'x' }), event(), event({ consumer: null })])).toEqual([
      '0:price',
      '2:consumer',
    ])
  })
})

describe('toStoredEvent', () => {
  it('adds the generated members and the consumer flags', () => {
    const stored = toStoredEvent(event(), 'id-1', WEBSITE, '2025-01-01T00:00:00.000Z')
    expect(stored).toEqual({
      id: 'id-1',
      website_id: WEBSITE,
      purchase_reference: 'ORDER-1',
      purchase_date: '2025-03-01T10:00:00Z',
      price: 0,
      purchase_event_status: 'CREATED',
      consumer: {
        first_name: 'Ana',
        email: 'ana@example.com',
        hide_personal_data: false,
        anonymize_data: false,
      },
      sales_channel: { channel: 'online' },
      received_at: '2025-01-01T00:00:00.000Z',
    })
  })

  it('keeps a null products member as null', () => {
    expect(toStoredEvent(event({ products: null }), 'id', WEBSITE, '').products).toBeNull()
  })

  it('keeps consumer flags that were given', () => {
    const given = event({ consumer: { hide_personal_data: true, anonymize_data: true } })
    expect(toStoredEvent(given, 'id', WEBSITE, '').consumer).toEqual({
      hide_personal_data: true,
      anonymize_data: true,
    })
  })
})

describe('storePurchaseEvents', () => {
  it('stores each new event with a generated id', () => {
    const state = fakeState()
    const stored = storePurchaseEvents(state, WEBSITE, [event(), event({ purchase_reference: 'ORDER-2' })])
    expect(state.purchaseEvents.map((e) => e.id)).toEqual(stored.map((e) => e.id))
  })

  it('returns the stored event for a purchase_reference submitted before', () => {
    const state = fakeState()
    const [first] = storePurchaseEvents(state, WEBSITE, [event()])
    const [again] = storePurchaseEvents(state, WEBSITE, [event({ price: 99 })])
    expect({ again, count: state.purchaseEvents.length }).toEqual({ again: first, count: 1 })
  })

  it('stores a reference repeated within one body once', () => {
    const state = fakeState()
    const [a, b] = storePurchaseEvents(state, WEBSITE, [event(), event()])
    expect({ same: a === b, count: state.purchaseEvents.length }).toEqual({ same: true, count: 1 })
  })
})

describe('publicEvent', () => {
  it('leaves out received_at', () => {
    const stored = toStoredEvent(event(), 'id', WEBSITE, '2025-01-01T00:00:00.000Z')
    expect(Object.keys(publicEvent(stored))).not.toContain('received_at')
  })
})
