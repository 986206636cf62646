import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type Answer,
  admin,
  call,
  expectError,
  publishedToken,
  purchaseEventsPath,
  purchaseEventsToken,
  type Sandbox,
  startSandbox,
} from './helpers.ts'

interface EventProblem {
  index: number
  field: string
  message: string
}

interface ValidationError {
  status: number
  error: string
  message: string
  errors: EventProblem[]
}

type Event = Record<string, unknown>

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const OTHER_WEBSITE = '11111111-2222-4333-8444-555555555555'

let sb: Sandbox
let token: string
let counter = 0

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
})

afterAll(async () => {
  await sb?.close()
})

beforeEach(async () => {
  // Each test starts from the seeded state with a fresh token (a reset revokes tokens).
  const reset = await admin(sb, 'POST', 'reset')
  expect(reset.status, reset.text).toBeLessThan(300)
  token = await purchaseEventsToken(sb)
})

function event(overrides: Event = {}): Event {
  counter += 1
  return {
    purchase_reference: `ORDER-${counter}`,
    purchase_date: '2025-03-01T10:00:00Z',
    consumer: { first_name: 'Ana', last_name: 'Lee', email: 'ana@example.com' },
    sales_channel: { channel: 'online', delivery_type: 'home_delivery' },
    ...overrides,
  }
}

function submit(
  body: unknown,
  options: { token?: string | null; websiteId?: string; raw?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const bearer = options.token === undefined ? token : options.token
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`
  return call(`${sb.origin}${purchaseEventsPath(options.websiteId ?? sb.websiteId)}`, {
    method: 'POST',
    headers,
    body: options.raw ? String(body) : JSON.stringify(body),
  })
}

async function stored(): Promise<Event[]> {
  const answer = await admin<Event[]>(sb, 'GET', 'purchase-events')
  expect(answer.status, answer.text).toBe(200)
  return answer.body
}

function problems(answer: Answer): string[] {
  expectError(answer, 400, 'invalid_body')
  return (answer.body as ValidationError).errors.map((p) => `${p.index}:${p.field}`)
}

describe('submitting purchase events', () => {
  it('answers 201 with the created event, its uuid id and status CREATED', async () => {
    const answer = await submit([event()])
    expect(answer.status, answer.text).toBe(201)
    const [created] = answer.body as Event[]
    expect(created?.id).toMatch(UUID)
    expect(created?.purchase_event_status).toBe('CREATED')
    expect(created?.website_id).toBe(sb.websiteId)
  })

  it.each([
    '2025-03-01T10:00Z',
    '2025-03-01T10:00:00.5+02:00',
    '2025-03-01T10:00:00,250-03:30',
    '2025-03-01T10:00+0100',
    '2025-03-01T10:00+01',
    '2025-03-01T10:00',
  ])('takes the ISO 8601 purchase_date %s and echoes it as sent', async (purchaseDate) => {
    const answer = await submit([event({ purchase_date: purchaseDate })])
    expect(answer.status, answer.text).toBe(201)
    expect((answer.body as Event[])[0]?.purchase_date).toBe(purchaseDate)
  })

  it('echoes every submitted member and adds the consumer flags', async () => {
    const full = event({
      price: 49.9,
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
      },
      products: [
        {
          product_ref: { ean: '3000000000017', sku: 'SKU-001', reference: 'R1' },
          name: 'Kettle',
          brand: 'Acme',
          price: 49.9,
          not_received: false,
          custom_fields: [{ label: 'color', value: 'red', category: 'variant' }],
          category: 'kitchen',
        },
      ],
      sales_channel: { channel: 'offline', website_id: sb.websiteId, shop_id: 'paris' },
      solicitation_parameters: { delay: 3, delay_product: 10, purchase_event_type: 'BRAND_AND_PRODUCT' },
      custom_fields: [{ label: 'campaign', value: 'spring', category: 'marketing' }],
    })
    const answer = await submit([full])
    expect(answer.status, answer.text).toBe(201)
    const [created] = answer.body as Event[]
    const { id, ...rest } = created as Event
    expect(rest).toEqual({
      ...full,
      website_id: sb.websiteId,
      purchase_event_status: 'CREATED',
      consumer: { ...(full.consumer as Event), hide_personal_data: false, anonymize_data: false },
    })
  })

  it('defaults price to 0 and leaves out the optional members that were not sent', async () => {
    const answer = await submit([event()])
    const [created] = answer.body as Event[]
    expect(created?.price).toBe(0)
    expect(Object.keys(created ?? {}).sort()).toEqual(
      [
        'consumer',
        'id',
        'price',
        'purchase_date',
        'purchase_event_status',
        'purchase_reference',
        'sales_channel',
        'website_id',
      ].sort(),
    )
  })

  it('keeps hide_personal_data and anonymize_data when they are given', async () => {
    const answer = await submit([event({ consumer: { hide_personal_data: true, anonymize_data: true } })])
    const [created] = answer.body as Event[]
    expect(created?.consumer).toEqual({ hide_personal_data: true, anonymize_data: true })
  })

  it('keeps products and custom_fields given as null', async () => {
    const answer = await submit([event({ products: null, custom_fields: null })])
    const [created] = answer.body as Event[]
    expect([created?.products, created?.custom_fields]).toEqual([null, null])
  })

  it('answers one created event per submitted event, in order', async () => {
    const events = [event(), event(), event()]
    const answer = await submit(events)
    expect((answer.body as Event[]).map((e) => e.purchase_reference)).toEqual(
      events.map((e) => e.purchase_reference),
    )
  })

  it('accepts 50 events', async () => {
    const answer = await submit(Array.from({ length: 50 }, () => event()))
    expect(answer.status, answer.text).toBe(201)
    expect(answer.body).toHaveLength(50)
  })

  it('lists the stored events at GET /__sandbox/purchase-events', async () => {
    const answer = await submit([event(), event()])
    const ids = (answer.body as Event[]).map((e) => e.id)
    expect((await stored()).map((e) => e.id)).toEqual(ids)
  })

  it('does not answer the internal received_at', async () => {
    const answer = await submit([event()])
    expect(Object.keys((answer.body as Event[])[0] ?? {})).not.toContain('received_at')
  })

  it('counts a submission as purchase-events.submit in the stats', async () => {
    await admin(sb, 'DELETE', 'stats')
    await submit([event()])
    const stats = await admin<{ operations: Record<string, number> }>(sb, 'GET', 'stats')
    expect(stats.body.operations['purchase-events.submit']).toBe(1)
  })
})

describe('idempotent resubmission', () => {
  it('returns the stored event again for a purchase_reference already submitted', async () => {
    const first = await submit([event({ purchase_reference: 'SAME-1' })])
    const again = await submit([event({ purchase_reference: 'SAME-1', price: 12 })])
    expect(again.status, again.text).toBe(201)
    expect(again.body).toEqual(first.body)
  })

  it('does not store a second event for a resubmitted purchase_reference', async () => {
    await submit([event({ purchase_reference: 'SAME-2' })])
    await submit([event({ purchase_reference: 'SAME-2' }), event()])
    const refs = (await stored()).map((e) => e.purchase_reference)
    expect(refs.filter((ref) => ref === 'SAME-2')).toHaveLength(1)
    expect(refs).toHaveLength(2)
  })

  it('stores a reference repeated within one body once and answers it twice', async () => {
    const answer = await submit([
      event({ purchase_reference: 'TWICE' }),
      event({ purchase_reference: 'TWICE' }),
    ])
    const [a, b] = answer.body as Event[]
    expect(a?.id).toBe(b?.id)
    expect(await stored()).toHaveLength(1)
  })
})

describe('body checks', () => {
  it('refuses an empty array', async () => {
    expectError(await submit([]), 400, 'invalid_body', 'body')
  })

  it('refuses 51 events and stores none of them', async () => {
    expectError(await submit(Array.from({ length: 51 }, () => event())), 400, 'invalid_body', 'body')
    expect(await stored()).toEqual([])
  })

  it('refuses a body that is not JSON', async () => {
    expectError(await submit('[{"purchase_reference":', { raw: true }), 400, 'invalid_body', 'body')
  })

  it('refuses a JSON object instead of an array', async () => {
    expectError(await submit(event()), 400, 'invalid_body', 'body')
  })

  it('refuses an empty body', async () => {
    expectError(await submit('', { raw: true }), 400, 'invalid_body', 'body')
  })
})

describe('event validation', () => {
  const cases: { name: string; overrides: Event; field: string }[] = [
    {
      name: 'a missing purchase_reference',
      overrides: { purchase_reference: undefined },
      field: 'purchase_reference',
    },
    {
      name: 'an empty purchase_reference',
      overrides: { purchase_reference: '' },
      field: 'purchase_reference',
    },
    {
      name: 'a purchase_reference of 51 characters',
      overrides: { purchase_reference: 'x'.repeat(51) },
      field: 'purchase_reference',
    },
    {
      name: 'a numeric purchase_reference',
      overrides: { purchase_reference: 42 },
      field: 'purchase_reference',
    },
    { name: 'a missing purchase_date', overrides: { purchase_date: undefined }, field: 'purchase_date' },
    {
      name: 'a purchase_date that is a plain date',
      overrides: { purchase_date: '2025-03-01' },
      field: 'purchase_date',
    },
    {
      name: 'a purchase_date that is no date',
      overrides: { purchase_date: 'yesterday' },
      field: 'purchase_date',
    },
    {
      name: 'an impossible purchase_date',
      overrides: { purchase_date: '2025-02-30T10:00:00Z' },
      field: 'purchase_date',
    },
    {
      name: 'a purchase_date with the hour alone',
      overrides: { purchase_date: '2025-03-01T10Z' },
      field: 'purchase_date',
    },
    {
      name: 'a purchase_date in the basic format',
      overrides: { purchase_date: '20250301T100000Z' },
      field: 'purchase_date',
    },
    { name: 'a negative price', overrides: { price: -0.01 }, field: 'price' },
    { name: 'a price given as a string', overrides: { price: '10' }, field: 'price' },
    { name: 'a missing consumer', overrides: { consumer: undefined }, field: 'consumer' },
    { name: 'a consumer that is an array', overrides: { consumer: [] }, field: 'consumer' },
    {
      name: 'a numeric consumer.first_name',
      overrides: { consumer: { first_name: 1 } },
      field: 'consumer.first_name',
    },
    {
      name: 'a consumer.birth_date with a time',
      overrides: { consumer: { birth_date: '1990-05-04T00:00:00Z' } },
      field: 'consumer.birth_date',
    },
    {
      name: 'a consumer.email without a domain',
      overrides: { consumer: { email: 'ana@' } },
      field: 'consumer.email',
    },
    {
      name: 'a consumer.custom_fields that is an object',
      overrides: { consumer: { custom_fields: {} } },
      field: 'consumer.custom_fields',
    },
    {
      name: 'a consumer custom field without label',
      overrides: { consumer: { custom_fields: [{ value: 'v' }] } },
      field: 'consumer.custom_fields[0].label',
    },
    {
      name: 'a non-boolean consumer.hide_personal_data',
      overrides: { consumer: { hide_personal_data: 'yes' } },
      field: 'consumer.hide_personal_data',
    },
    {
      name: 'an unknown consumer member',
      overrides: { consumer: { nickname: 'A' } },
      field: 'consumer.nickname',
    },
    { name: 'products given as an object', overrides: { products: {} }, field: 'products' },
    {
      name: 'a product price given as a string',
      overrides: { products: [{ price: '3' }] },
      field: 'products[0].price',
    },
    {
      name: 'a non-boolean not_received',
      overrides: { products: [{}, { not_received: 1 }] },
      field: 'products[1].not_received',
    },
    {
      name: 'a numeric product_ref member',
      overrides: { products: [{ product_ref: { ean: 3000000000017 } }] },
      field: 'products[0].product_ref.ean',
    },
    {
      name: 'a product_ref that is a string',
      overrides: { products: [{ product_ref: 'SKU-001' }] },
      field: 'products[0].product_ref',
    },
    { name: 'a numeric product name', overrides: { products: [{ name: 5 }] }, field: 'products[0].name' },
    { name: 'a missing sales_channel', overrides: { sales_channel: undefined }, field: 'sales_channel' },
    {
      name: 'a numeric sales_channel.channel',
      overrides: { sales_channel: { channel: 1 } },
      field: 'sales_channel.channel',
    },
    {
      name: 'a sales_channel.website_id that is no uuid',
      overrides: { sales_channel: { website_id: 'shop' } },
      field: 'sales_channel.website_id',
    },
    {
      name: 'a sales_channel.website_id of another website',
      overrides: { sales_channel: { website_id: OTHER_WEBSITE } },
      field: 'sales_channel.website_id',
    },
    {
      name: 'a negative solicitation delay',
      overrides: { solicitation_parameters: { delay: -1 } },
      field: 'solicitation_parameters.delay',
    },
    {
      name: 'a fractional delay_product',
      overrides: { solicitation_parameters: { delay_product: 1.5 } },
      field: 'solicitation_parameters.delay_product',
    },
    {
      name: 'a numeric purchase_event_type',
      overrides: { solicitation_parameters: { purchase_event_type: 1 } },
      field: 'solicitation_parameters.purchase_event_type',
    },
    { name: 'custom_fields given as a string', overrides: { custom_fields: 'a' }, field: 'custom_fields' },
    {
      name: 'a custom field with a numeric value',
      overrides: { custom_fields: [{ label: 'a', value: 1 }] },
      field: 'custom_fields[0].value',
    },
    { name: 'an unknown event member', overrides: { purchase_ref: 'A' }, field: 'purchase_ref' },
  ]

  it.each(cases)('names the field of $name', async ({ overrides, field }) => {
    const bad = JSON.parse(JSON.stringify(event(overrides))) as Event
    expect(problems(await submit([event(), bad]))).toEqual([`1:${field}`])
  })

  it('lists every problem of every event, with its index, in member order', async () => {
    const answer = await submit([
      event({ consumer: { email: 'nope' }, price: 'free' }),
      event(),
      event({ purchase_reference: '', sales_channel: [] }),
    ])
    expect(problems(answer)).toEqual([
      '0:consumer.email',
      '0:price',
      '2:purchase_reference',
      '2:sales_channel',
    ])
  })

  it('names an element that is not an object as the event', async () => {
    expect(problems(await submit([event(), 7]))).toEqual(['1:event'])
  })

  it('gives each problem a message', async () => {
    const answer = await submit([event({ price: -1 })])
    expect((answer.body as ValidationError).errors[0]?.message).toMatch(/price/)
  })

  it('stores nothing when one event of the body is invalid', async () => {
    await submit([event(), event(), event({ purchase_date: 'now' })])
    expect(await stored()).toEqual([])
  })
})

describe('authentication and website', () => {
  it('refuses a request without a token with 401 and WWW-Authenticate: Bearer', async () => {
    const answer = await submit([event()], { token: null })
    expectError(answer, 401, 'unauthorized')
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
  })

  it('refuses a Published API token', async () => {
    const answer = await submit([event()], { token: await publishedToken(sb) })
    expectError(answer, 401, 'unauthorized')
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
  })

  it('refuses an unknown token', async () => {
    expectError(await submit([event()], { token: 'not-a-token' }), 401, 'unauthorized')
  })

  it('refuses an expired token', async () => {
    await admin(sb, 'POST', 'tokens/expire')
    expectError(await submit([event()]), 401, 'unauthorized')
  })

  it('stores nothing for a refused token', async () => {
    await submit([event()], { token: 'not-a-token' })
    expect(await stored()).toEqual([])
  })

  it('refuses a website_id that is no uuid with 400 naming website_id', async () => {
    expectError(await submit([event()], { websiteId: 'my-shop' }), 400, 'invalid_parameter', 'website_id')
  })

  it('refuses another website with 403 forbidden', async () => {
    expectError(await submit([event()], { websiteId: OTHER_WEBSITE }), 403, 'forbidden')
  })

  it('accepts the website id in upper case', async () => {
    const answer = await submit([event()], { websiteId: sb.websiteId.toUpperCase() })
    expect(answer.status, answer.text).toBe(201)
  })
})

describe('rate limit', () => {
  it('applies the per-client limit to purchase events', async () => {
    const tight = await startSandbox({ rateLimit: 3 })
    try {
      const tightToken = await purchaseEventsToken(tight)
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(`${tight.origin}${purchaseEventsPath(tight.websiteId)}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tightToken}`, 'content-type': 'application/json' },
            body: JSON.stringify([event()]),
          }),
        ),
      )
      const limited = answers.filter((a) => a.status === 429)
      expect(limited.length).toBeGreaterThan(0)
      expectError(limited[0] as Answer, 429, 'rate_limited')
    } finally {
      await tight.close()
    }
  })
})
