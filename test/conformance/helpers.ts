import { request } from 'node:http'
import { createSandbox } from '@verified-reviews/sandbox'
import { expect } from 'vitest'

/** What a conformance test relies on from a running sandbox (the README's `createSandbox` answer). */
export interface Sandbox {
  origin: string
  clientId: string
  clientSecret: string
  websiteId: string
  close(): Promise<void>
}

export interface SandboxOptions {
  seed?: number
  clientId?: string
  clientSecret?: string
  websiteId?: string
  rateLimit?: number
  tokenTtl?: number
}

export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandbox(options)
}

export const PUBLISHED = '/verified-reviews/v1/published'
export const PUBLISHED_TOKEN_PATH = '/realms/skeepers/protocol/openid-connect/token'
export const PURCHASE_EVENTS_TOKEN_PATH = '/am/oauth2/alpha/access_token'
/** The client credentials form of the Published API's token endpoint. */
export const PUBLISHED_TOKEN_FORM = { grant_type: 'client_credentials', audience: 'verified-reviews' }
/** The client credentials form of the purchase events token endpoint. */
export const PURCHASE_EVENTS_TOKEN_FORM = { grant_type: 'client_credentials', scope: 'openid' }
export const LANGUAGES = ['bg', 'cs', 'de', 'el', 'en', 'es', 'fr', 'it', 'nl', 'pl', 'pt', 'sk', 'tr']
export const INCENTIVIZATIONS = ['none', 'gifted', 'compensated', 'spontaneous']
export const RATE_LIMIT_HEADERS = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit-second',
  'x-ratelimit-limit-minute',
  'x-ratelimit-remaining-second',
  'x-ratelimit-remaining-minute',
]

export function purchaseEventsPath(websiteId: string): string {
  return `/purchase-event/websites/${websiteId}/purchase-events`
}

// ---- resources, as the spec lists their fields ----

export interface Moderation {
  comment: string
  date: string
  origin: string
  origin_type: string
  translated_comment?: Record<string, string>
}

export interface ReviewExtra {
  display_name: string
  label: string
  type: string
  value: number | string
}

export interface Media {
  type: string
  small: string
  medium: string
  large: string
}

export interface ProductReview {
  review_id: string
  author_firstname: string
  author_lastname: string
  is_personal_data_disclosed: boolean
  locale: string
  review_date: string
  publish_date: string
  order_date: string
  review_content: string
  review_rate: number
  order_reference: string
  order_id: string
  product_variation_id: string
  product_ean: string
  product_upc: string
  product_jan: string
  product_sku: string
  product_mpn: string
  product_brand: string
  product_name: string
  is_verified: boolean
  medias: Media[]
  incentivization: string
  syndicated_review: boolean
  syndicated_review_source: string
  syndicated_review_source_url: string
  translated_review: Record<string, string>
  moderations: Moderation[]
  extras: Record<string, ReviewExtra>
}

export interface BrandReview {
  review_id: string
  order_reference: string
  shop_key: string
  review_content: string
  author_firstname: string
  author_lastname: string
  locale: string
  website_id: string
  review_rate: number
  incentivization: string
  is_verified: boolean
  is_personal_data_disclosed: boolean
  order_date: string
  review_date: string
  publish_date: string
  moderations: Moderation[]
  extras: Record<string, ReviewExtra>
}

export interface Ratings {
  average: number
  count_total: number
  count_5: number
  count_4: number
  count_3: number
  count_2: number
  count_1: number
}

export interface ProductSummary {
  ratings: Ratings
  review_summary?: { content: string; last_updated_at: string }
  product_variation_id: string
  website_id: string
  extras: { type: string; display_name: string; label: string; rate: { average: number; count: number } }[]
}

export interface ProductRating extends Ratings {
  product_variation_id: string
  product_ean: string
  extras: { count: number; average: number; label: string }[]
}

export interface PeriodRatings {
  average: number
  count_5: number
  count_4: number
  count_3: number
  count_2: number
  count_1: number
}

export interface BrandRating {
  shop_key: string
  website_id: string
  count_total_since_creation: number
  oldest_review_publish_date: string
  one_year: PeriodRatings
  five_year: PeriodRatings
}

export interface ApiError {
  status: number
  error: string
  message: string
  field?: string
}

// ---- HTTP ----

export interface Answer<T = unknown> {
  status: number
  headers: Headers
  /** Parsed JSON when the answer says it is JSON, else the raw text. */
  body: T
  text: string
}

export type Query = Record<string, string | number | boolean>

export async function call<T = unknown>(url: string, init: RequestInit = {}): Promise<Answer<T>> {
  const response = await fetch(url, init)
  const text = await response.text()
  const type = response.headers.get('content-type') ?? ''
  const body = /json/.test(type) && text !== '' ? JSON.parse(text) : text
  return { status: response.status, headers: response.headers, body: body as T, text }
}

export function withQuery(url: string, query: Query = {}): string {
  const target = new URL(url)
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, String(value))
  return target.toString()
}

/** `Basic` credentials as RFC 6749 §2.3.1 builds them: the id and the secret form-encoded, then joined. */
export function basicAuthorization(id: string, secret: string): string {
  const form = (value: string) => new URLSearchParams({ v: value }).toString().slice('v='.length)
  return `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString('base64')}`
}

export function tokenRequest(
  sb: Sandbox,
  path: string,
  form: Record<string, string>,
  authorization: string | null = basicAuthorization(sb.clientId, sb.clientSecret),
): Promise<Answer<Record<string, unknown>>> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  if (authorization !== null) headers.authorization = authorization
  return call(`${sb.origin}${path}`, { method: 'POST', headers, body: new URLSearchParams(form).toString() })
}

async function accessToken(sb: Sandbox, path: string, form: Record<string, string>): Promise<string> {
  const answer = await tokenRequest(sb, path, form)
  expect(answer.status, answer.text).toBe(200)
  return String(answer.body.access_token)
}

export function publishedToken(sb: Sandbox): Promise<string> {
  return accessToken(sb, PUBLISHED_TOKEN_PATH, PUBLISHED_TOKEN_FORM)
}

export function purchaseEventsToken(sb: Sandbox): Promise<string> {
  return accessToken(sb, PURCHASE_EVENTS_TOKEN_PATH, PURCHASE_EVENTS_TOKEN_FORM)
}

/** The `rel` → URL map of a `Link` header. */
export function parseLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {}
  if (header === null) return links
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part)
    const rel = match ? /;\s*rel="?([^";]+)"?/.exec(match[2] ?? '') : null
    if (!match || !rel) continue
    for (const name of (rel[1] ?? '').trim().split(/\s+/)) links[name] = match[1] ?? ''
  }
  return links
}

export interface Walk<T> {
  items: T[]
  pages: Answer<T[]>[]
}

/** A Published API client holding one bearer token; `renew` fetches a new one (after a reset). */
export class PublishedClient {
  readonly sb: Sandbox
  token = ''

  constructor(sb: Sandbox) {
    this.sb = sb
  }

  async renew(): Promise<this> {
    this.token = await publishedToken(this.sb)
    return this
  }

  url(path: string, query: Query = {}): string {
    return withQuery(`${this.sb.origin}${PUBLISHED}${path}`, query)
  }

  get<T = unknown>(
    path: string,
    query: Query = {},
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    return this.fetch<T>(this.url(path, query), headers)
  }

  fetch<T = unknown>(url: string, headers: Record<string, string> = {}): Promise<Answer<T>> {
    return call<T>(url, { headers: { authorization: `Bearer ${this.token}`, ...headers } })
  }

  /** Follows `rel="next"` from the first page to the last, checking every page succeeded. */
  async walk<T>(path: string, query: Query = {}): Promise<Walk<T>> {
    return this.walkFrom<T>(this.url(path, query))
  }

  async walkFrom<T>(url: string): Promise<Walk<T>> {
    const pages: Answer<T[]>[] = []
    let next: string | undefined = url
    while (next !== undefined) {
      const page: Answer<T[]> = await this.fetch<T[]>(next)
      expect(page.status, page.text).toBe(200)
      expect(Array.isArray(page.body)).toBe(true)
      pages.push(page)
      expect(pages.length, 'the walk does not end').toBeLessThan(1000)
      next = parseLinks(page.headers.get('link')).next
    }
    return { items: pages.flatMap((page) => page.body), pages }
  }
}

export async function publishedClient(sb: Sandbox): Promise<PublishedClient> {
  return new PublishedClient(sb).renew()
}

/** Every seeded product and product review, and the reviews of each product. */
export async function walkCatalogue(api: PublishedClient): Promise<{
  products: ProductSummary[]
  reviews: ProductReview[]
  byProduct: Map<string, ProductReview[]>
}> {
  const products = (await api.walk<ProductSummary>('/products', { limit: 200 })).items
  const reviews = (await api.walk<ProductReview>('/products/reviews', { limit: 200 })).items
  return { products, reviews, byProduct: groupBy(reviews, (review) => review.product_variation_id) }
}

/** The six GET operations of the Published API, each with the parameters it requires. */
export const PUBLISHED_OPERATIONS: { path: string; query: Query }[] = [
  { path: '/products', query: {} },
  { path: '/products/reviews', query: {} },
  { path: '/products/ratings', query: { type: 'product_variation_id', value: 'SKU-001' } },
  {
    path: '/products/structured-datas',
    query: { product_variation_id: 'SKU-001', canonical_url: 'https://a.example/p' },
  },
  { path: '/brands/reviews', query: {} },
  { path: '/brands', query: {} },
]

export function admin<T = unknown>(
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const init: RequestInit = { method }
  // Every POST declares JSON, even without a body: the sandbox refuses any other.
  if (body !== undefined || method === 'POST') init.headers = { 'content-type': 'application/json' }
  if (body !== undefined) init.body = JSON.stringify(body)
  return call<T>(`${sb.origin}/__sandbox/${path}`, init)
}

/** Resets the sandbox; tokens die with the reset, so the given clients get new ones. */
export async function resetSandbox(sb: Sandbox, ...clients: PublishedClient[]): Promise<void> {
  const answer = await admin(sb, 'POST', 'reset')
  expect(answer.status, answer.text).toBeLessThan(300)
  for (const client of clients) await client.renew()
}

/** Asserts the README's error shape: JSON `{ status, error, message }` plus the code and field given. */
export function expectError(answer: Answer, status: number, error?: string, field?: string): void {
  expect(answer.status, answer.text).toBe(status)
  expect(answer.headers.get('content-type') ?? '').toMatch(/json/)
  expect(answer.body).toMatchObject({ status, error: expect.any(String), message: expect.any(String) })
  const body = answer.body as ApiError
  if (error !== undefined) expect(body.error).toBe(error)
  if (field !== undefined) expect(body.field).toBe(field)
}

export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * A request through node:http, for what fetch will not send: no `Accept` at all, another `Host`,
 * a query string exactly as written, or `HEAD`.
 */
export function rawRequest(
  sb: Sandbox,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawAnswer> {
  const { hostname, port } = new URL(sb.origin)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: pathAndQuery, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

export function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

// ---- computations over walked data ----

export function ratingsOf(rates: readonly number[]): Ratings {
  const counts = [0, 0, 0, 0, 0]
  for (const rate of rates) counts[rate - 1] = (counts[rate - 1] ?? 0) + 1
  const total = rates.length
  const sum = rates.reduce((acc, rate) => acc + rate, 0)
  return {
    average: total === 0 ? 0 : sum / total,
    count_total: total,
    count_5: counts[4] ?? 0,
    count_4: counts[3] ?? 0,
    count_3: counts[2] ?? 0,
    count_2: counts[1] ?? 0,
    count_1: counts[0] ?? 0,
  }
}

/** The README rounds every average to two decimals. */
export function expectAverage(actual: number | undefined, exact: number, label = ''): void {
  const value = actual ?? Number.NaN
  expect(Math.abs(value - exact), `${label} average`).toBeLessThanOrEqual(0.005000001)
  expect(Math.abs(value * 100 - Math.round(value * 100)), `${label} average has two decimals`).toBeLessThan(
    1e-6,
  )
}

/** Counts must match exactly, the average up to its rounding to two decimals. */
export function expectRatings(actual: Partial<Ratings>, expected: Ratings, label = ''): void {
  const { average, ...counts } = expected
  expect(actual, label).toMatchObject(counts)
  expectAverage(actual.average, average, label)
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const name = key(item)
    const group = groups.get(name)
    if (group) group.push(item)
    else groups.set(name, [item])
  }
  return groups
}

export function ids<T extends { review_id: string }>(reviews: readonly T[]): string[] {
  return reviews.map((review) => review.review_id)
}

export function sortedIds<T extends { review_id: string }>(reviews: readonly T[]): string[] {
  return ids(reviews).sort()
}

const DATE_FIELDS = new Set([
  'review_date',
  'publish_date',
  'order_date',
  'oldest_review_publish_date',
  'last_updated_at',
])

function sortValue(record: Record<string, unknown>, field: string): number | string {
  const value = field === 'average' || field === 'count_total' ? nested(record, field) : record[field]
  if (DATE_FIELDS.has(field)) return Date.parse(String(value))
  return typeof value === 'number' ? value : String(value)
}

/** `/products` keeps `average` and `count_total` under `ratings`; `/products/ratings` at the top. */
function nested(record: Record<string, unknown>, field: string): unknown {
  if (field in record) return record[field]
  const ratings = record.ratings as Record<string, unknown> | undefined
  return ratings?.[field]
}

function compareValues(a: number | string, b: number | string): number {
  if (a === b) return 0
  return a < b ? -1 : 1
}

/** The README's order: each sort field ascending unless in `desc`, ties by the record id ascending. */
export function comparator<T>(sort: string[], desc: string[], idField: string): (a: T, b: T) => number {
  return (a, b) => {
    const left = a as Record<string, unknown>
    const right = b as Record<string, unknown>
    for (const field of sort) {
      const order = compareValues(sortValue(left, field), sortValue(right, field))
      if (order !== 0) return desc.includes(field) ? -order : order
    }
    return compareValues(String(left[idField]), String(right[idField]))
  }
}

/** Every value of the given records at the given field, deduplicated, in first-seen order. */
export function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)]
}

/** One request of a named operation (as counted by the stats and targeted by faults). */
export interface OperationProbe {
  operation: string
  send(sb: Sandbox, publishedBearer: string): Promise<Answer>
}

function publishedGet(path: string, accept = 'application/json'): OperationProbe['send'] {
  return (sb, token) =>
    call(`${sb.origin}${PUBLISHED}${path}`, { headers: { authorization: `Bearer ${token}`, accept } })
}

export const OPERATION_PROBES: OperationProbe[] = [
  { operation: 'products.list', send: publishedGet('/products') },
  { operation: 'products.reviews.list', send: publishedGet('/products/reviews') },
  {
    operation: 'products.ratings.list',
    send: publishedGet('/products/ratings?type=product_variation_id&value=SKU-001'),
  },
  {
    operation: 'products.structured-data.get',
    send: publishedGet(
      '/products/structured-datas?product_variation_id=SKU-001&canonical_url=https%3A%2F%2Fshop.example%2Fp',
      'application/ld+json',
    ),
  },
  { operation: 'brands.list', send: publishedGet('/brands') },
  { operation: 'brands.reviews.list', send: publishedGet('/brands/reviews') },
  {
    operation: 'token.published',
    send: (sb) => tokenRequest(sb, PUBLISHED_TOKEN_PATH, PUBLISHED_TOKEN_FORM),
  },
  {
    operation: 'token.purchase-events',
    send: (sb) => tokenRequest(sb, PURCHASE_EVENTS_TOKEN_PATH, PURCHASE_EVENTS_TOKEN_FORM),
  },
]

/** The GS1 check digit rule shared by EAN-13, UPC-A and JAN. */
export function validGtin(code: string, length: number): boolean {
  if (!new RegExp(`^\\d{${length}}$`).test(code)) return false
  const digits = [...code].map(Number)
  const check = digits.pop() ?? -1
  const sum = digits.reverse().reduce((acc, digit, index) => acc + digit * (index % 2 === 0 ? 3 : 1), 0)
  return (10 - (sum % 10)) % 10 === check
}
