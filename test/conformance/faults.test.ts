import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  admin,
  call,
  expectError,
  OPERATION_PROBES,
  PUBLISHED_TOKEN_FORM,
  PUBLISHED_TOKEN_PATH,
  PURCHASE_EVENTS_TOKEN_FORM,
  PURCHASE_EVENTS_TOKEN_PATH,
  type PublishedClient,
  publishedClient,
  type Sandbox,
  startSandbox,
  tokenRequest,
} from './helpers.ts'

interface FaultRule {
  operation: string
  status?: number
  rate?: number
  latencyMs?: number
  truncate?: boolean
  count?: number
}

let sb: Sandbox
let api: PublishedClient

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  api = await publishedClient(sb)
})

afterAll(async () => {
  await sb?.close()
})

afterEach(async () => {
  await admin(sb, 'DELETE', 'faults')
})

async function setFaults(rules: FaultRule[]): Promise<void> {
  const answer = await admin(sb, 'POST', 'faults', rules)
  expect(answer.status, answer.text).toBeLessThan(300)
}

async function statuses(path: string, times: number): Promise<number[]> {
  const seen: number[] = []
  for (let index = 0; index < times; index++) seen.push((await api.get(path, { limit: 1 })).status)
  return seen
}

describe('status rules', () => {
  it('a rule at rate 1 answers its status as a JSON server_error on its operation', async () => {
    await setFaults([{ operation: 'products.list', status: 500 }])
    expectError(await api.get('/products'), 500, 'server_error')
    expectError(await api.get('/products'), 500, 'server_error')
  })

  it.each(OPERATION_PROBES)('a rule on $operation fails the requests of that operation', async (probe) => {
    await setFaults([{ operation: probe.operation, status: 500 }])
    expectError(await probe.send(sb, api.token), 500, 'server_error')
  })

  it('a rule applies before authentication', async () => {
    await setFaults([{ operation: 'products.list', status: 503 }])
    expectError(await call(api.url('/products')), 503)
  })

  it('the first matching rule with hits left applies', async () => {
    await setFaults([
      { operation: 'products.list', status: 502, count: 1 },
      { operation: '*', status: 503 },
    ])
    expect(await statuses('/products', 3)).toEqual([502, 503, 503])
  })

  it('a rule leaves the other operations alone', async () => {
    await setFaults([{ operation: 'products.list', status: 500 }])
    expect((await api.get('/products/reviews')).status).toBe(200)
    expect((await api.get('/brands')).status).toBe(200)
  })

  it.each([502, 503, 404])('a rule can answer status %i, as a JSON error', async (status) => {
    await setFaults([{ operation: 'brands.reviews.list', status }])
    expectError(await api.get('/brands/reviews'), status)
  })

  it('count caps how many requests a rule hits', async () => {
    await setFaults([{ operation: 'products.list', status: 500, count: 2 }])
    expect(await statuses('/products', 4)).toEqual([500, 500, 200, 200])
  })

  it('rate 0.3 hits some requests and spares others', async () => {
    await setFaults([{ operation: 'products.reviews.list', status: 503, rate: 0.3 }])
    const seen = await statuses('/products/reviews', 60)
    const hits = seen.filter((status) => status === 503).length
    expect(hits + seen.filter((status) => status === 200).length).toBe(60)
    expect(hits).toBeGreaterThanOrEqual(5)
    expect(hits).toBeLessThanOrEqual(35)
  })

  it('rate 0 hits no request', async () => {
    await setFaults([{ operation: 'products.list', status: 500, rate: 0 }])
    expect(await statuses('/products', 8)).toEqual(Array(8).fill(200))
  })

  it('a 429 rule answers rate_limited with Retry-After: 1', async () => {
    await setFaults([{ operation: 'products.reviews.list', status: 429 }])
    const answer = await api.get('/products/reviews')
    expectError(answer, 429, 'rate_limited')
    expect(answer.headers.get('retry-after')).toBe('1')
  })

  it('the wildcard operation hits every operation, token endpoints included', async () => {
    await setFaults([{ operation: '*', status: 500 }])
    expectError(await api.get('/products'), 500)
    expectError(await api.get('/products/reviews'), 500)
    expectError(await api.get('/brands'), 500)
    const token = await tokenRequest(sb, PUBLISHED_TOKEN_PATH, PUBLISHED_TOKEN_FORM)
    expectError(token, 500)
  })

  it('the wildcard leaves the admin routes alone', async () => {
    await setFaults([{ operation: '*', status: 500 }])
    expect((await admin(sb, 'GET', 'faults')).status).toBe(200)
    expect((await admin(sb, 'GET', 'stats')).status).toBe(200)
  })

  it('requests answered by a fault are counted in the stats', async () => {
    await setFaults([{ operation: 'brands.list', status: 503 }])
    await admin(sb, 'DELETE', 'stats')
    await api.get('/brands')
    await api.get('/brands')
    const stats = await admin<{ total: number; operations: Record<string, number> }>(sb, 'GET', 'stats')
    expect(stats.body.operations['brands.list']).toBe(2)
  })

  it('a rule on token.published fails that token endpoint only', async () => {
    await setFaults([{ operation: 'token.published', status: 500 }])
    const published = await tokenRequest(sb, PUBLISHED_TOKEN_PATH, PUBLISHED_TOKEN_FORM)
    expectError(published, 500)
    const purchase = await tokenRequest(sb, PURCHASE_EVENTS_TOKEN_PATH, PURCHASE_EVENTS_TOKEN_FORM)
    expect(purchase.status).toBe(200)
  })
})

describe('latency and truncation', () => {
  it('a latency rule still answers the request', async () => {
    await setFaults([{ operation: 'brands.list', latencyMs: 40 }])
    const answer = await api.get('/brands')
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toHaveLength(6)
  })

  it('a latency rule is listed as given', async () => {
    await setFaults([{ operation: 'brands.list', latencyMs: 40 }])
    const listed = await admin<FaultRule[]>(sb, 'GET', 'faults')
    expect(listed.body).toEqual([expect.objectContaining({ operation: 'brands.list', latencyMs: 40 })])
  })

  it('truncate declares the full Content-Length but delivers less of the body', async () => {
    await setFaults([{ operation: 'products.reviews.list', truncate: true }])
    let outcome: { failed: true } | { failed: false; declared: number; received: number }
    try {
      const response = await fetch(api.url('/products/reviews', { limit: 50 }), {
        headers: { authorization: `Bearer ${api.token}` },
      })
      const declared = Number(response.headers.get('content-length'))
      try {
        const received = (await response.arrayBuffer()).byteLength
        outcome = { failed: false, declared, received }
      } catch {
        outcome = { failed: true }
      }
    } catch {
      outcome = { failed: true }
    }
    if (!outcome.failed) expect(outcome.received).toBeLessThan(outcome.declared)
  })

  it('a truncated answer leaves the next request whole', async () => {
    await setFaults([{ operation: 'products.reviews.list', truncate: true, count: 1 }])
    await fetch(api.url('/products/reviews', { limit: 50 }), {
      headers: { authorization: `Bearer ${api.token}` },
    })
      .then((response) => response.arrayBuffer())
      .catch(() => undefined)
    const answer = await api.get<unknown[]>('/products/reviews', { limit: 50 })
    expect(answer.status).toBe(200)
    expect(answer.body).toHaveLength(50)
  })
})

describe('/__sandbox/faults', () => {
  it('POST answers 200 with the stored rules', async () => {
    const answer = await admin<FaultRule[]>(sb, 'POST', 'faults', [
      { operation: 'products.list', status: 500 },
    ])
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body).toEqual([expect.objectContaining({ operation: 'products.list', status: 500 })])
  })

  it('GET tells how many requests each rule has hit', async () => {
    await setFaults([{ operation: 'products.list', status: 500, count: 5 }])
    await statuses('/products', 2)
    const listed = await admin<(FaultRule & { hits: number })[]>(sb, 'GET', 'faults')
    expect(listed.body[0]?.hits).toBe(2)
  })

  it.each([
    { name: 'a status below 400', rule: { operation: 'products.list', status: 200 }, field: '[0].status' },
    { name: 'a status above 599', rule: { operation: 'products.list', status: 600 }, field: '[0].status' },
    {
      name: 'a latency above 120000 ms',
      rule: { operation: 'products.list', latencyMs: 120001 },
      field: '[0].latencyMs',
    },
    {
      name: 'an unknown operation',
      rule: { operation: 'products.delete', status: 500 },
      field: '[0].operation',
    },
    { name: 'no effect at all', rule: { operation: 'products.list', count: 2 }, field: undefined },
    {
      name: 'an unknown member',
      rule: { operation: 'products.list', status: 500, colour: 'red' },
      field: '[0].colour',
    },
  ])('refuses a rule with $name with 400 invalid_body', async ({ rule, field }) => {
    expectError(await admin(sb, 'POST', 'faults', [rule]), 400, 'invalid_body', field)
  })

  it('a refused rule set leaves the rules in force unchanged', async () => {
    await setFaults([{ operation: 'brands.list', status: 502 }])
    await admin(sb, 'POST', 'faults', [{ operation: 'products.list', status: 200 }])
    const listed = await admin<FaultRule[]>(sb, 'GET', 'faults')
    expect(listed.body).toEqual([expect.objectContaining({ operation: 'brands.list', status: 502 })])
  })

  it('GET lists the rules in force', async () => {
    const rules = [
      { operation: 'products.list', status: 500, count: 3 },
      { operation: '*', status: 503, rate: 0.5 },
    ]
    await setFaults(rules)
    const listed = await admin<FaultRule[]>(sb, 'GET', 'faults')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual(rules.map((rule) => expect.objectContaining(rule)))
  })

  it('POST replaces the rules instead of adding to them', async () => {
    await setFaults([{ operation: 'products.list', status: 500 }])
    await setFaults([{ operation: 'brands.list', status: 502 }])
    const listed = await admin<FaultRule[]>(sb, 'GET', 'faults')
    expect(listed.body).toEqual([expect.objectContaining({ operation: 'brands.list', status: 502 })])
    expect((await api.get('/products')).status).toBe(200)
  })

  it('DELETE clears the rules', async () => {
    await setFaults([{ operation: 'products.list', status: 500 }])
    const deleted = await admin(sb, 'DELETE', 'faults')
    expect(deleted.status, deleted.text).toBe(204)
    expect((await admin(sb, 'GET', 'faults')).body).toEqual([])
    expect((await api.get('/products')).status).toBe(200)
  })
})
