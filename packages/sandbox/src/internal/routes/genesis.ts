import { createHash, timingSafeEqual } from 'node:crypto'
import { ratingsOf } from '../aggregate.ts'
import type { Route, SandboxRequest, SandboxState } from '../context.ts'
import { HttpError } from '../http-error.ts'
import { Query } from '../query.ts'
import type { BrandReview, ProductReview } from '../types.ts'
import { legacyLanguage, reviewsByRef } from './legacy.ts'
import { pathParam } from './purchase-events.ts'

/** A reply to a review, as Genesis answers it. */
export interface GenesisModeration {
  comment: string
  date: string
  origin: string
}

interface GenesisReviewBase {
  id_review: string
  /** Rating 1 to 5 as a string: Genesis sends numbers as strings. */
  rate: string
  review: string
  firstname: string
  lastname: string
  order_ref: string
  review_date: string
  publish_date: string
  order_date: string
  /** The review's locale in the `fr_FR` form. */
  language: string
  moderation: GenesisModeration[]
}

export interface GenesisBrandReview extends GenesisReviewBase {
  /** The shop the review is about; empty for the brand itself. */
  id_shop: string
}

export interface GenesisProductReview extends GenesisReviewBase {
  id_product: string
}

/** The order of Genesis review lists: a field and a direction, ties by review id ascending. */
export interface GenesisOrder {
  by: 'date' | 'rate'
  descending: boolean
}

/** A `field`/`sign`/`compare` filter; Genesis can filter on the rate only. */
export interface RateFilter {
  sign: (typeof SIGNS)[number]
  compare: number
}

const SIGNS = ['=', '!=', '<', '<=', '>', '>='] as const

/** The most reviews one Genesis page (`range`, `limit`) may hold. */
export const GENESIS_MAX_PAGE = 200
/** How many products one `POST /genesis/product` may name. */
export const GENESIS_MAX_PRODUCTS = 200

const PRODUCT_ORDERS: Record<string, GenesisOrder> = {
  date_desc: { by: 'date', descending: true },
  date_asc: { by: 'date', descending: false },
  rate_desc: { by: 'rate', descending: true },
  rate_asc: { by: 'rate', descending: false },
}

function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}

/** The Genesis token of a website for one UTC day (`YYYY-MM-DD`). */
export function genesisToken(idWebsite: string, secret: string, day: string): string {
  return createHash('sha256').update(`${idWebsite}${secret}${day}`).digest('hex')
}

/** Whether `token` is the website's token of yesterday, today or tomorrow (UTC), so clock skew is forgiven. */
export function isValidGenesisToken(
  token: string,
  idWebsite: string,
  secret: string,
  now = Date.now(),
): boolean {
  const given = Buffer.from(token)
  return [-1, 0, 1].some((offset) => {
    const expected = Buffer.from(genesisToken(idWebsite, secret, utcDay(now + offset * 86_400_000)))
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}

function rateMatches(rate: number, filter: RateFilter | undefined): boolean {
  if (filter === undefined) return true
  switch (filter.sign) {
    case '=':
      return rate === filter.compare
    case '!=':
      return rate !== filter.compare
    case '<':
      return rate < filter.compare
    case '<=':
      return rate <= filter.compare
    case '>':
      return rate > filter.compare
    case '>=':
      return rate >= filter.compare
  }
}

/** Reviews kept by the filter, in the given order (ties by review id ascending). */
export function orderReviews<T extends ProductReview | BrandReview>(
  reviews: readonly T[],
  order: GenesisOrder,
  filter: RateFilter | undefined,
): T[] {
  const sign = order.descending ? -1 : 1
  return reviews
    .filter((r) => rateMatches(r.review_rate, filter))
    .sort((a, b) => {
      const primary =
        order.by === 'rate'
          ? a.review_rate - b.review_rate
          : a.publish_date < b.publish_date
            ? -1
            : a.publish_date > b.publish_date
              ? 1
              : 0
      if (primary !== 0) return sign * primary
      return a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0
    })
}

function reviewBase(review: ProductReview | BrandReview): GenesisReviewBase {
  return {
    id_review: review.review_id,
    rate: String(review.review_rate),
    review: review.review_content,
    firstname: review.author_firstname,
    lastname: review.author_lastname,
    order_ref: review.order_reference,
    review_date: review.review_date,
    publish_date: review.publish_date,
    order_date: review.order_date,
    language: legacyLanguage(review.locale),
    moderation: review.moderations.map((m) => ({ comment: m.comment, date: m.date, origin: m.origin })),
  }
}

export function toGenesisBrandReview(review: BrandReview): GenesisBrandReview {
  const { moderation, ...base } = reviewBase(review)
  return { ...base, id_shop: review.shop_key, moderation }
}

export function toGenesisProductReview(review: ProductReview): GenesisProductReview {
  const { id_review, moderation, ...base } = reviewBase(review)
  return { id_review, id_product: review.product_variation_id, ...base, moderation }
}

/** Count and average (two decimals) of some reviews, as Genesis writes numbers: strings. */
export function genesisAggregate(reviews: readonly { review_rate: number }[]): {
  rate: string
  count: string
} {
  const { average, count_total } = ratingsOf(reviews)
  return { rate: String(average), count: String(count_total) }
}

/** The line of `infosite.txt`: every brand review of the website, shops included. */
export function brandFile(state: SandboxState): string {
  const { rate, count } = genesisAggregate(state.brandReviews)
  return `${count};${rate}\n`
}

// A value of a semicolon-separated line cannot hold the separator or a line break.
function cell(value: string): string {
  return value.replace(/[;\r\n]+/g, ' ')
}

/** `infoshops.txt`: a header, then one line per shop with its reviews' count and average. */
export function shopsFile(state: SandboxState): string {
  const lines = ['id_shop;name_shop;review_number;rating;certificate_url']
  for (const shop of state.shops) {
    const { rate, count } = genesisAggregate(state.brandReviews.filter((r) => r.shop_key === shop.shop_key))
    lines.push([shop.shop_key, shop.name, count, rate, shop.certificate_url].map(cell).join(';'))
  }
  return `${lines.join('\n')}\n`
}

/** The rate filter of `field`, `sign` and `compare`, which come together or not at all. */
export function rateFilter(field: unknown, sign: unknown, compare: unknown): RateFilter | undefined {
  const given = [field, sign, compare].filter((value) => value !== undefined).length
  if (given === 0) return undefined
  if (given !== 3) {
    throw new HttpError(400, 'invalid_parameter', 'field, sign and compare must be given together', {
      field: field === undefined ? 'field' : sign === undefined ? 'sign' : 'compare',
    })
  }
  if (field !== 'rate') {
    throw new HttpError(400, 'invalid_parameter', 'field must be rate', { field: 'field' })
  }
  if (!(SIGNS as readonly unknown[]).includes(sign)) {
    throw new HttpError(400, 'invalid_parameter', `sign must be one of ${SIGNS.join(' ')}`, { field: 'sign' })
  }
  const value =
    typeof compare === 'number'
      ? compare
      : typeof compare === 'string' && /^[1-5]$/.test(compare)
        ? Number(compare)
        : 0
  if (!Number.isInteger(value) || value < 1 || value > 5) {
    throw new HttpError(400, 'invalid_parameter', 'compare must be a rating from 1 to 5', {
      field: 'compare',
    })
  }
  return { sign: sign as RateFilter['sign'], compare: value }
}

/** Checks `idWebsite` (400 when absent, 404 when another website) and `token` (401). */
function authenticate(state: SandboxState, idWebsite: string | undefined, token: string | undefined): void {
  if (idWebsite === undefined || idWebsite === '') {
    throw new HttpError(400, 'invalid_parameter', 'idWebsite is required', { field: 'idWebsite' })
  }
  if (idWebsite !== state.settings.websiteId) {
    throw new HttpError(404, 'not_found', `no website ${idWebsite}`, { field: 'idWebsite' })
  }
  if (token === undefined || !isValidGenesisToken(token, idWebsite, state.settings.genesisSecret)) {
    throw new HttpError(
      401,
      'unauthorized',
      'token must be sha256 hex of idWebsite + secret key + the UTC date YYYY-MM-DD',
      { field: 'token' },
    )
  }
}

function oneOf<T extends string>(query: Query, name: string, values: readonly T[], fallback: T): T {
  const raw = query.string(name)
  if (raw === undefined) return fallback
  const value = values.find((v) => v === raw.toLowerCase())
  if (value === undefined) {
    throw new HttpError(400, 'invalid_parameter', `${name} must be one of ${values.join(', ')}`, {
      field: name,
    })
  }
  return value
}

function websiteReviews(req: SandboxRequest, state: SandboxState) {
  const query = new Query(req.url, [
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
  ])
  authenticate(state, query.string('idWebsite'), query.string('token'))
  oneOf(query, 'format', ['json'], 'json')
  const range = query.integer('range', 1, GENESIS_MAX_PAGE, 10)
  const page = query.integer('p', 1, Number.MAX_SAFE_INTEGER, 1)
  const order: GenesisOrder = {
    by: oneOf(query, 'order_by', ['date', 'rate'], 'date'),
    descending: oneOf(query, 'order_type', ['asc', 'desc'], 'desc') === 'desc',
  }
  const filter = rateFilter(query.string('field'), query.string('sign'), query.string('compare'))
  const kept = orderReviews(state.brandReviews, order, filter)
  const { rate, count } = genesisAggregate(kept)
  return {
    count,
    average: rate,
    page,
    range,
    reviews: kept.slice((page - 1) * range, page * range).map(toGenesisBrandReview),
  }
}

const PRODUCT_BODY_MEMBERS = [
  'query',
  'product',
  'idWebsite',
  'plateforme',
  'limit',
  'offset',
  'order',
  'field',
  'sign',
  'compare',
]

function bodyInteger(
  body: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
) {
  const value = body[name]
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, 'invalid_body', `${name} must be an integer from ${min} to ${max}`, {
      field: name,
    })
  }
  return value
}

/** The JSON object body of `POST /genesis/product`. */
function parseProductBody(raw: Buffer): Record<string, unknown> {
  let body: unknown
  try {
    body = JSON.parse(raw.toString('utf8'))
  } catch {
    // Not JSON: refused below like any body that is not an object.
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_body', 'the body must be a JSON object', { field: 'body' })
  }
  return body as Record<string, unknown>
}

function productAnswer(req: SandboxRequest, state: SandboxState): Record<string, unknown> {
  const body = parseProductBody(req.body)
  const query = new Query(req.url, ['idWebsite', 'token'])
  const fromQuery = query.string('idWebsite')
  if (body.idWebsite !== undefined && typeof body.idWebsite !== 'string') {
    throw new HttpError(400, 'invalid_body', 'idWebsite must be a string', { field: 'idWebsite' })
  }
  if (fromQuery !== undefined && body.idWebsite !== undefined && fromQuery !== body.idWebsite) {
    throw new HttpError(400, 'invalid_parameter', 'the query and the body name different websites', {
      field: 'idWebsite',
    })
  }
  authenticate(state, fromQuery ?? (body.idWebsite as string | undefined), query.string('token'))
  for (const name of Object.keys(body)) {
    if (!PRODUCT_BODY_MEMBERS.includes(name)) {
      throw new HttpError(400, 'invalid_body', `unknown body member ${name}`, { field: name })
    }
  }

  if (body.query !== 'reviews' && body.query !== 'average') {
    throw new HttpError(400, 'invalid_body', 'query must be reviews or average', { field: 'query' })
  }
  const products = body.product
  if (
    !Array.isArray(products) ||
    products.length < 1 ||
    products.length > GENESIS_MAX_PRODUCTS ||
    !products.every((p) => typeof p === 'string' && p !== '')
  ) {
    throw new HttpError(
      400,
      'invalid_body',
      `product must be an array of 1 to ${GENESIS_MAX_PRODUCTS} non-empty product references`,
      { field: 'product' },
    )
  }
  if (body.plateforme !== undefined && typeof body.plateforme !== 'string') {
    throw new HttpError(400, 'invalid_body', 'plateforme must be a string', { field: 'plateforme' })
  }
  const limit = bodyInteger(body, 'limit', 10, 1, GENESIS_MAX_PAGE)
  const offset = bodyInteger(body, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  const orderName = body.order ?? 'date_desc'
  const order =
    typeof orderName === 'string' && Object.hasOwn(PRODUCT_ORDERS, orderName)
      ? PRODUCT_ORDERS[orderName]
      : undefined
  if (order === undefined) {
    throw new HttpError(
      400,
      'invalid_body',
      `order must be one of ${Object.keys(PRODUCT_ORDERS).join(', ')}`,
      {
        field: 'order',
      },
    )
  }
  const filter = rateFilter(body.field, body.sign, body.compare)

  // fromEntries defines own keys, so a reference named __proto__ stays a key like any other.
  return Object.fromEntries(
    [...reviewsByRef(state, products as string[])].map(([ref, reviews]) => {
      const kept = orderReviews(reviews, order, filter)
      if (body.query === 'average') return [ref, kept.length === 0 ? [] : [genesisAggregate(kept)]]
      return [ref, kept.slice(offset, offset + limit).map(toGenesisProductReview)]
    }),
  )
}

function staticWebsite(raw: string | undefined, state: SandboxState): void {
  if (pathParam(raw) !== state.settings.websiteId) {
    throw new HttpError(404, 'not_found', 'no static file for this website', { field: 'idWebsite' })
  }
}

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' }

export const genesisRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/genesis\/website$/,
    operation: 'genesis.website',
    rateLimited: false,
    handle: (req, state) => ({ status: 200, body: websiteReviews(req, state) }),
  },
  {
    method: 'POST',
    pattern: /^\/genesis\/product$/,
    operation: 'genesis.product',
    rateLimited: false,
    handle: (req, state) => ({ status: 200, body: productAnswer(req, state) }),
  },
  {
    method: 'GET',
    pattern: /^\/genesis\/static\/(?<idWebsite>[^/]+)\/infosite\.txt$/,
    operation: 'genesis.static.brand',
    rateLimited: false,
    handle(_req, state, params) {
      staticWebsite(params.idWebsite, state)
      return { status: 200, headers: TEXT, body: brandFile(state) }
    },
  },
  {
    method: 'GET',
    pattern: /^\/genesis\/static\/(?<idWebsite>[^/]+)\/infoshops\.txt$/,
    operation: 'genesis.static.shops',
    rateLimited: false,
    handle(_req, state, params) {
      staticWebsite(params.idWebsite, state)
      return { status: 200, headers: TEXT, body: shopsFile(state) }
    },
  },
]
