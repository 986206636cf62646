import { request } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  basicAuthorization,
  PUBLISHED,
  PUBLISHED_TOKEN_PATH,
  PURCHASE_EVENTS_TOKEN_PATH,
  publishedToken,
  purchaseEventsToken,
  type Sandbox,
  startSandbox,
} from './helpers.ts'

/** How many random requests one run sends; the seed makes every run send the same ones. */
const REQUESTS = 400
const SEED = 20_250_601

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

interface Outgoing {
  method: string
  path: string
  headers: Record<string, string>
  body?: Buffer
}

interface Target {
  method: string
  /** The path, given the website id to put in it. */
  path: (websiteId: string) => string
  /** Query parameter names the route knows. */
  params: readonly string[]
  /** A plausible body, which the fuzzer then damages. */
  body?: () => unknown
  /** Whether a 2xx answer may be something else than JSON (files, images, scripts). */
  text?: boolean
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const random = mulberry32(SEED)
const chance = (p: number) => random() < p
const int = (max: number) => Math.floor(random() * max)
function pick<T>(items: readonly T[]): T {
  return items[int(items.length)] as T
}

const purchaseEvent = () => ({
  purchase_reference: `FUZZ-${int(1e6)}`,
  purchase_date: '2025-03-01T10:00:00Z',
  price: 10,
  consumer: { first_name: 'Ana', email: 'ana@example.com', custom_fields: [{ label: 'a', value: 'b' }] },
  products: [{ product_ref: { sku: 'SKU-001' }, price: 3, not_received: false }],
  sales_channel: { channel: 'online' },
  solicitation_parameters: { delay: 1, delay_product: 2 },
})

const PAGING = ['cursor', 'limit', 'sort', 'desc']
const TARGETS: readonly Target[] = [
  { method: 'POST', path: () => PUBLISHED_TOKEN_PATH, params: [] },
  { method: 'POST', path: () => PURCHASE_EVENTS_TOKEN_PATH, params: [] },
  { method: 'GET', path: () => `${PUBLISHED}/products`, params: [...PAGING, 'product_variation_id'] },
  {
    method: 'GET',
    path: () => `${PUBLISHED}/products/reviews`,
    params: [
      ...PAGING,
      'product_variation_id',
      'product_ean',
      'order_reference',
      'review_rate',
      'publish_date.gte',
      'review_date.lt',
      'order_date.gt',
      'search',
      'incentivization',
      'syndicated_review',
      'is_verified',
    ],
  },
  { method: 'GET', path: () => `${PUBLISHED}/products/ratings`, params: ['type', 'value', 'sort', 'desc'] },
  {
    method: 'GET',
    path: () => `${PUBLISHED}/products/structured-datas`,
    params: ['product_variation_id', 'canonical_url', 'filters', 'reviews_limit'],
    text: true,
  },
  {
    method: 'GET',
    path: () => `${PUBLISHED}/brands/reviews`,
    params: [
      ...PAGING,
      'search',
      'is_verified',
      'is_personal_data_disclosed',
      'shop_key',
      'review_rate',
      'linked_to_shop',
    ],
  },
  { method: 'GET', path: () => `${PUBLISHED}/brands`, params: [...PAGING, 'shop_key', 'linked_to_shop'] },
  {
    method: 'POST',
    path: (w) => `/purchase-event/websites/${w}/purchase-events`,
    params: [],
    body: () => [purchaseEvent(), purchaseEvent()],
  },
  { method: 'GET', path: (w) => `/v1/websites/${w}/products/ratings`, params: ['ref'] },
  {
    method: 'GET',
    path: (w) => `/v1/websites/${w}/products/reviews`,
    params: ['ref', 'rate', 'sortBy', 'sortDirection', 'limit', 'offset'],
  },
  {
    method: 'GET',
    path: () => '/genesis/website',
    params: [
      'idWebsite',
      'token',
      'format',
      'range',
      'p',
      'order_by',
      'order_type',
      'iso_code',
      'plateforme',
      'field',
      'sign',
      'compare',
    ],
  },
  {
    method: 'POST',
    path: () => '/genesis/product',
    params: ['idWebsite', 'token'],
    body: () => ({
      query: pick(['reviews', 'average']),
      product: ['SKU-001', 'SKU-002'],
      limit: 5,
      order: 'rate_asc',
    }),
  },
  { method: 'GET', path: (w) => `/genesis/static/${w}/infosite.txt`, params: [], text: true },
  { method: 'GET', path: (w) => `/genesis/static/${w}/infoshops.txt`, params: [], text: true },
  {
    method: 'POST',
    path: () => '/__sandbox/product-reviews',
    params: [],
    body: () => [{ product_variation_id: pick(['SKU-001', 'SKU-FUZZ']), review_rate: 1 + int(5) }],
  },
  {
    method: 'POST',
    path: () => '/__sandbox/brand-reviews',
    params: [],
    body: () => [{ review_rate: 1 + int(5) }],
  },
  { method: 'GET', path: () => '/__sandbox/purchase-events', params: [] },
  { method: 'GET', path: () => '/__sandbox/stats', params: [] },
  { method: 'DELETE', path: () => '/__sandbox/stats', params: [] },
  { method: 'POST', path: () => '/__sandbox/reset', params: [] },
  { method: 'GET', path: () => '/__sandbox/faults', params: [] },
  { method: 'DELETE', path: () => '/__sandbox/faults', params: [] },
  // Valid rules are never generated on purpose; should a random body be one, the loop clears it at once.
  {
    method: 'POST',
    path: () => '/__sandbox/faults',
    params: [],
    body: () => [{ operation: 'nope', status: 700 }],
  },
  { method: 'POST', path: () => '/__sandbox/tokens/expire', params: [] },
  {
    method: 'GET',
    path: () => `/__sandbox/media/${pick(['a.svg', 'x', '..%2F..%2Fetc%2Fpasswd'])}`,
    params: [],
    text: true,
  },
  {
    method: 'GET',
    path: () => pick(['/', '/nope', '/verified-reviews/v1/published', '/v1', '/genesis']),
    params: [],
  },
]

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

function randomString(max: number): string {
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz0123456789',
    ' ,;:=&?#/%+-_.~!*()\'"<>[]{}|\\^`@$',
    'éàüßçñøå€😀👍🏽中文日本語한국어ΑΒΓ\u202e\u2028\u0000\u0007\ufeff',
  ]
  let text = ''
  const length = int(max + 1)
  for (let i = 0; i < length; i++) {
    const chars = [...pick(alphabets)]
    text += pick(chars)
  }
  return text
}

function randomValue(): string {
  return pick([
    () => randomString(12),
    () => randomString(200),
    () => 'x'.repeat(1000 + int(3000)),
    () => String(int(300) - 50),
    () => pick(['0', '-1', '1.5', '1e309', 'NaN', 'Infinity', '9007199254740993', '00010', '+1', ' 1']),
    () => pick(['true', 'false', 'TRUE', 'yes', '', 'null', 'undefined']),
    () => pick(['2025-01-01', '2025-13-45T99:99:99Z', '2025-01-01T00:00:00Z', 'yesterday']),
    () => pick(['SKU-001', 'SKU-001,SKU-002', ',,,', 'SKU-001,'.repeat(300), 'product_ean', 'publish_date']),
    () => pick(['%', '%E0%A4%A', '%00', '%FF%FE', '%2C', '%252C', '..%2F']),
    () => pick(['>=', '<', '=', '!=', 'rate', 'date', 'asc', 'DESC', 'json', 'xml', 'reviews', 'average']),
  ])()
}

function encodeSometimesRaw(text: string): string {
  if (chance(0.85)) return encodeURIComponent(text)
  // Raw '%' sequences and other request-target characters the server must cope with.
  return text.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c)).replace(/#/g, '%23')
}

function randomQuery(target: Target): string {
  const parts: string[] = []
  const count = int(5)
  for (let i = 0; i < count; i++) {
    const name = target.params.length > 0 && chance(0.7) ? pick(target.params) : randomString(8)
    parts.push(
      chance(0.1)
        ? encodeSometimesRaw(name)
        : `${encodeSometimesRaw(name)}=${encodeSometimesRaw(randomValue())}`,
    )
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`
}

function randomJson(depth = 0): unknown {
  const kinds = depth > 3 ? 4 : 6
  switch (int(kinds)) {
    case 0:
      return null
    case 1:
      return chance(0.5)
    case 2:
      return pick([0, -1, 1.5, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 51, 200, 201])
    case 3:
      return chance(0.2) ? 'y'.repeat(20_000) : randomString(30)
    case 4:
      return Array.from({ length: int(6) }, () => randomJson(depth + 1))
    default: {
      const entries = Array.from({ length: int(6) }, () => [
        pick([
          '__proto__',
          'constructor',
          'purchase_reference',
          'query',
          'product',
          'review_rate',
          randomString(6),
        ]),
        randomJson(depth + 1),
      ])
      return Object.fromEntries(entries)
    }
  }
}

/** Sets one member somewhere in a plausible body to a random value. */
function damage(value: unknown): unknown {
  if (Array.isArray(value) && value.length > 0) {
    const copy = [...value]
    const i = int(copy.length)
    copy[i] = chance(0.3) ? randomJson() : damage(copy[i])
    return copy
  }
  if (typeof value === 'object' && value !== null) {
    const copy = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    const key = keys.length > 0 && chance(0.8) ? pick(keys) : randomString(6)
    copy[key] = chance(0.5) ? randomJson() : damage(copy[key])
    return copy
  }
  return randomJson()
}

function randomBody(target: Target): Buffer | undefined {
  const kind = int(10)
  if (kind === 0) return undefined
  if (kind === 1) return Buffer.from(Array.from({ length: int(2000) }, () => int(256)))
  if (kind === 2)
    return Buffer.from(pick(['{', '[', '[{"a":}]', '{"query":"reviews",}', 'null', '"', '\u0000', '[1,2']))
  if (kind === 3) return Buffer.from(JSON.stringify(randomJson()))
  if (kind === 4) return Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`)
  if (kind === 5 && chance(0.2)) return Buffer.alloc(1_000_000 + int(100_000), 'a')
  if (kind === 6) return Buffer.from(new URLSearchParams({ [randomString(8)]: randomValue() }).toString())
  if (target.body) return Buffer.from(JSON.stringify(chance(0.2) ? target.body() : damage(target.body())))
  return Buffer.from(JSON.stringify(randomJson()))
}

function headerValue(): string {
  return randomValue().replace(/[^\t\x20-\x7e]/g, '?')
}

function send(origin: string, out: Outgoing): Promise<Raw> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: out.method,
        path: out.path,
        // Node frames a GET or DELETE body only when told its length.
        headers: out.body ? { 'content-length': String(out.body.length), ...out.headers } : out.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')))
    req.end(out.body)
  })
}

function describeRequest(out: Outgoing): string {
  const body = out.body ? out.body.subarray(0, 300).toString('latin1') : ''
  return `${out.method} ${out.path.slice(0, 500)}\nheaders: ${JSON.stringify(out.headers).slice(0, 500)}\nbody (${out.body?.length ?? 0} bytes): ${body}`
}

/** A 4xx answer must be the README's JSON error; a 2xx one JSON (or 204 empty) unless the route serves files. */
function checkAnswer(out: Outgoing, answer: Raw, text = false): void {
  const where = `${describeRequest(out)}\nanswer ${answer.status}: ${answer.body.subarray(0, 300).toString()}`
  expect(answer.status, where).toBeGreaterThanOrEqual(200)
  expect(answer.status, where).toBeLessThan(500)
  if (out.method === 'HEAD') return
  expect(answer.status < 300 || answer.status >= 400, where).toBe(true)
  if (answer.status === 204) {
    expect(answer.body.length, where).toBe(0)
    return
  }
  if (answer.status < 300 && text) return
  expect(String(answer.headers['content-type'] ?? ''), where).toMatch(/json/)
  const body = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>
  if (answer.status >= 400) {
    expect(body, where).toMatchObject({
      status: answer.status,
      error: expect.any(String),
      message: expect.any(String),
    })
  }
}

let sb: Sandbox
let tokens: { published: string; purchase: string }

async function freshTokens(): Promise<void> {
  tokens = { published: await publishedToken(sb), purchase: await purchaseEventsToken(sb) }
}

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: 0 })
  await freshTokens()
})

afterAll(async () => {
  await sb?.close()
})

function randomRequest(): { out: Outgoing; target: Target } {
  const target = pick(TARGETS)
  const websiteId = chance(0.9)
    ? sb.websiteId
    : pick(['x', '00000000-0000-0000-0000-000000000000', randomString(10)])
  let path = target.path(encodeURIComponent(websiteId))
  if (chance(0.08))
    path = pick([`${path}/`, `${path}/extra`, path.replace(/\//g, '//'), `${path}%2F..`, path.toUpperCase()])
  const method = chance(0.8) ? target.method : pick(METHODS)
  const headers: Record<string, string> = {}
  const auth = int(7)
  if (auth === 0) headers.authorization = `Bearer ${tokens.published}`
  if (auth === 1) headers.authorization = `Bearer ${tokens.purchase}`
  if (auth === 2) headers.authorization = basicAuthorization(sb.clientId, sb.clientSecret)
  if (auth === 3) headers.authorization = headerValue()
  if (auth === 4) headers.authorization = `Bearer ${headerValue()}`
  if (chance(0.5)) {
    headers.accept = pick([
      'application/ld+json',
      'text/javascript',
      'application/json',
      '*/*',
      headerValue(),
    ])
  }
  if (chance(0.6)) {
    headers['content-type'] = pick([
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
      headerValue(),
    ])
  }
  if (chance(0.3)) headers[`x-${randomString(6).replace(/[^a-z0-9]/g, 'a') || 'a'}`] = headerValue()
  const withBody = method !== 'GET' && method !== 'HEAD' ? chance(0.9) : chance(0.1)
  const body = withBody ? randomBody(target) : undefined
  return { out: { method, path: `${path}${chance(0.8) ? randomQuery(target) : ''}`, headers, body }, target }
}

async function afterEffects(out: Outgoing, answer: Raw): Promise<void> {
  if (answer.status >= 300) return
  if (out.method === 'POST' && out.path.startsWith('/__sandbox/faults')) {
    // A random body that happens to be valid rules must not inject failures into later requests.
    await send(sb.origin, { method: 'DELETE', path: '/__sandbox/faults', headers: {} })
  }
  if (out.method === 'POST' && /^\/__sandbox\/(reset|tokens\/expire)/.test(out.path)) await freshTokens()
}

describe('fuzzing every route', () => {
  it(`answers ${REQUESTS} random requests with 2xx or 4xx JSON, never 5xx`, async () => {
    for (let i = 0; i < REQUESTS; i++) {
      const { out, target } = randomRequest()
      const answer = await send(sb.origin, out)
      checkAnswer(out, answer, target.text)
      await afterEffects(out, answer)
    }
  })

  it('still answers the Published API and the admin routes afterwards', async () => {
    await freshTokens()
    const products = await send(sb.origin, {
      method: 'GET',
      path: `${PUBLISHED}/products?limit=1`,
      headers: { authorization: `Bearer ${tokens.published}` },
    })
    expect(products.status, products.body.toString()).toBe(200)
    const stats = await send(sb.origin, { method: 'GET', path: '/__sandbox/stats', headers: {} })
    expect(stats.status).toBe(200)
    expect(JSON.parse(stats.body.toString()).total).toBeGreaterThan(0)
  })
})

/** Writes raw bytes on a socket and reads what comes back until the server closes. */
function rawExchange(origin: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')))
    socket.write(bytes)
  })
}

describe('malformed HTTP', () => {
  const cases = [
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
    ['a header line without a colon', 'GET /v1 HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'],
    ['headers above 16 KB', `GET /v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    [
      'a broken chunked body',
      'POST /genesis/product HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n',
    ],
  ] as const

  it.each(cases)('answers %s with a 4xx JSON error', async (_name, bytes) => {
    const text = await rawExchange(sb.origin, bytes)
    const [head = '', body = ''] = text.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 4\d\d /)
    expect(head.toLowerCase()).toMatch(/content-type: application\/json/)
    expect(JSON.parse(body)).toMatchObject({ error: expect.any(String), message: expect.any(String) })
  })

  it('answers a request target starting with // with a 4xx JSON error', async () => {
    const out = { method: 'GET', path: '//?a=1', headers: {} }
    const answer = await send(sb.origin, out)
    checkAnswer(out, answer)
    expect(answer.status).toBeGreaterThanOrEqual(400)
  })

  it('does not read //host/path as the path /path', async () => {
    const answer = await send(sb.origin, {
      method: 'GET',
      path: '//example.com/__sandbox/stats',
      headers: {},
    })
    expect(answer.status).toBe(404)
  })

  it('still answers after malformed requests', async () => {
    const answer = await send(sb.origin, { method: 'GET', path: '/__sandbox/stats', headers: {} })
    expect(answer.status).toBe(200)
  })
})
