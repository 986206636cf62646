import { describe, expect, it } from 'vitest'
import { BadRequestError, ValidationError } from '../internal/base/errors.ts'
import { createClient } from '../internal/client/client.ts'
import type { PurchaseEventInput } from '../types/purchase-events.ts'

const websiteId = '3f2b1c9e-8d7a-4e6f-9a1b-2c3d4e5f6a7b'

function event(reference: string): PurchaseEventInput {
  return {
    purchase_reference: reference,
    purchase_date: '2026-03-01T10:00:00Z',
    consumer: { email: `${reference.toLowerCase()}@example.com` },
    sales_channel: { channel: 'online' },
  }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * A purchase events service that refuses, by batch position, the events whose reference is in
 * `refused`, and otherwise creates every event it is sent. Records each batch it receives.
 */
function service(refused: Set<string>) {
  const batches: string[][] = []
  const fetch = async (url: string, init: RequestInit) => {
    if (url.endsWith('/access_token')) return json(200, { access_token: 'token', expires_in: 3600 })
    const events = JSON.parse(init.body as string) as PurchaseEventInput[]
    batches.push(events.map((item) => item.purchase_reference))
    const errors = events.flatMap((item, index) =>
      refused.has(item.purchase_reference)
        ? [{ index, field: 'consumer.email', message: 'consumer.email is blocked' }]
        : [],
    )
    if (errors.length > 0) return json(400, { status: 400, error: 'invalid_body', field: 'body', errors })
    return json(
      201,
      events.map((item, index) => ({
        ...item,
        id: `id-${item.purchase_reference}-${index}`,
        purchase_event_status: 'CREATED',
      })),
    )
  }
  return { fetch, batches }
}

function client(fetch: (url: string, init: RequestInit) => Promise<Response>) {
  return createClient({
    clientId: 'id',
    clientSecret: 'secret',
    websiteId,
    fetch,
    origin: 'https://sandbox.test',
  })
}

describe('purchaseEvents.submit when the service refuses some events', () => {
  it('marks the refused events rejected with the reasons and creates the others', async () => {
    const { fetch } = service(new Set(['B']))
    const results = await client(fetch).purchaseEvents.submit({
      events: [event('A'), event('B'), event('C')],
    })
    expect(results).toMatchObject([
      { status: 'created', event: { purchase_reference: 'A' } },
      { status: 'rejected', reasons: [{ field: 'consumer.email', message: 'consumer.email is blocked' }] },
      { status: 'created', event: { purchase_reference: 'C' } },
    ])
  })

  it('sends the batch again without the refused events', async () => {
    const { fetch, batches } = service(new Set(['B']))
    await client(fetch).purchaseEvents.submit({ events: [event('A'), event('B'), event('C')] })
    expect(batches).toEqual([
      ['A', 'B', 'C'],
      ['A', 'C'],
    ])
  })

  it('sends nothing more when the service refuses every event of a batch', async () => {
    const { fetch, batches } = service(new Set(['A', 'B']))
    const results = await client(fetch).purchaseEvents.submit({ events: [event('A'), event('B')] })
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected'])
    expect(batches).toHaveLength(1)
  })

  it('throws a 400 that names no event', async () => {
    const fetch = async (url: string) =>
      url.endsWith('/access_token')
        ? json(200, { access_token: 'token' })
        : json(400, { status: 400, error: 'invalid_body', message: 'more than 50 events' })
    await expect(client(fetch).purchaseEvents.submit({ events: [event('A')] })).rejects.toThrow(
      BadRequestError,
    )
  })

  it('answers an empty list without sending anything', async () => {
    const { fetch, batches } = service(new Set())
    expect(await client(fetch).purchaseEvents.submit({ events: [] })).toEqual([])
    expect(batches).toHaveLength(0)
  })
})

describe('purchaseEvents.submit and purchase_date', () => {
  it('sends each purchase_date as an RFC 3339 date-time', async () => {
    const sent: unknown[] = []
    const { fetch } = service(new Set())
    const recording = async (url: string, init: RequestInit) => {
      if (!url.endsWith('/access_token')) sent.push(...(JSON.parse(init.body as string) as unknown[]))
      return fetch(url, init)
    }
    await client(recording).purchaseEvents.submit({
      events: [
        { ...event('A'), purchase_date: '2026-01-02T10:00' },
        { ...event('B'), purchase_date: '2026-01-02T10:00:00,5+0200' },
        { ...event('C'), purchase_date: new Date(Date.UTC(2026, 0, 2, 8, 0)) },
      ],
    })
    expect(sent.map((item) => (item as PurchaseEventInput).purchase_date)).toEqual([
      '2026-01-02T10:00:00Z',
      '2026-01-02T10:00:00.500+02:00',
      '2026-01-02T08:00:00.000Z',
    ])
  })

  it('refuses a purchase_date it cannot read as a date-time, naming the event and the field', async () => {
    const { fetch, batches } = service(new Set())
    const error = await client(fetch)
      .purchaseEvents.submit({ events: [event('A'), { ...event('B'), purchase_date: '2026-01-02' }] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).issues).toEqual([
      { field: 'events[1].purchase_date', index: 1, message: expect.stringMatching(/date-time/) },
    ])
    expect(batches).toEqual([])
  })
})
