import { type BrandStats, brandReferenceTime, brandStatsOf, groupBy, type ratingsOf } from '../aggregate.ts'
import { requireToken } from '../auth.ts'
import { type CatalogueIndex, PRODUCT_CODES, sortByKey } from '../catalogue-index.ts'
import {
  indexOf,
  type Operation,
  type Route,
  type SandboxRequest,
  type SandboxResponse,
  type SandboxState,
} from '../context.ts'
import {
  decodeCursor,
  encodeCursor,
  fingerprint,
  type KeyComparator,
  type Keyed,
  type KeyValue,
  keyComparator,
  type Page,
  paginate,
} from '../cursor.ts'
import { HttpError } from '../http-error.ts'
import { Query } from '../query.ts'
import {
  STRUCTURED_DATA_FILTERS,
  type StructuredDataFilter,
  structuredData,
  toScripts,
} from '../structured-data.ts'
import { type BrandReview, INCENTIVIZATIONS, type Product, type ProductReview } from '../types.ts'
import { publishedProductReviewsBody, toPublishedBrandReview } from '../views.ts'

const BASE = '/verified-reviews/v1/published'
const PAGING = ['cursor', 'limit', 'sort', 'desc']
const DATE_FIELDS = ['publish_date', 'review_date', 'order_date'] as const
const DATE_OPERATORS = ['gte', 'gt', 'lte', 'lt'] as const
const DATE_PARAMS = DATE_FIELDS.flatMap((field) => DATE_OPERATORS.map((op) => `${field}.${op}`))
const RATES = ['1', '2', '3', '4', '5']

/** How one field of a list sorts: its value in a sort key. */
type SortFields<T> = Record<string, { type: 'string' | 'number'; value: (item: T) => KeyValue }>

interface SortSpec {
  field: string
  descending: boolean
}

function requirePublishedToken(req: SandboxRequest, state: SandboxState): void {
  requireToken(req, state, 'published', 'verified-reviews')
}

/**
 * `sort` and `desc`: known fields, no repeats. `desc` without `sort` sorts by the `desc` fields,
 * descending (**choice**: the spec says `desc` names fields "to be sorted descending"); with `sort`,
 * every `desc` field must be among the sorted ones.
 */
function readSort(query: Query, fields: readonly string[], defaults: readonly string[]): SortSpec[] {
  const desc = query.items('desc') ?? []
  const given = query.items('sort')
  // Errors name the parameter the fields came from.
  const name = given === undefined && desc.length > 0 ? 'desc' : 'sort'
  const sort = given ?? (desc.length > 0 ? desc : [...defaults])
  const fail = (field: string, message: string) => new HttpError(400, 'invalid_parameter', message, { field })
  if (new Set(sort).size !== sort.length) throw fail(name, `${name} must not name a field twice`)
  for (const field of sort) {
    if (!fields.includes(field))
      throw fail(name, `${name}: ${field} is not sortable; use ${fields.join(', ')}`)
  }
  for (const field of desc) {
    if (!fields.includes(field))
      throw fail('desc', `desc: ${field} is not sortable; use ${fields.join(', ')}`)
    if (!sort.includes(field)) throw fail('desc', `desc: ${field} must also be in sort (or leave sort out)`)
  }
  const spec = sort.map((field) => ({ field, descending: desc.includes(field) }))
  query.record('sort', spec.map((s) => `${s.field}:${s.descending ? 'desc' : 'asc'}`).join(','))
  return spec
}

/** The URL of another page: the request's own URL with `cursor` replaced. */
function pageUrl(req: SandboxRequest, cursor: string): string {
  const kept = req.url.search
    .slice(1)
    .split('&')
    .filter((part) => {
      if (part === '') return false
      const name = part.split('=')[0] as string
      try {
        return decodeURIComponent(name.replace(/\+/g, ' ')) !== 'cursor'
      } catch {
        return true
      }
    })
  kept.push(`cursor=${cursor}`)
  return `${req.origin}${req.url.pathname}?${kept.join('&')}`
}

interface ListSpec<T> {
  operation: Operation
  /**
   * The items sorted by `compare` on the keys `keyOf` makes; `sort` names the sort, so that a list
   * sorted once can be kept for it.
   */
  sorted(sort: string, keyOf: (item: T) => KeyValue[], compare: KeyComparator): readonly Keyed<T>[]
  fields: SortFields<T>
  /** The record id: the last sort key, ascending, unless sorted explicitly. */
  id: string
  defaultSort: readonly string[]
}

/** A list spec's `sorted` over items chosen for this request. */
function sortEach<T>(items: () => readonly T[]): ListSpec<T>['sorted'] {
  return (_sort, keyOf, compare) => sortByKey(items(), keyOf, compare)
}

/** Sorts, pages and links one list request, the same way for every list operation. */
function listPage<T>(
  req: SandboxRequest,
  query: Query,
  spec: ListSpec<T>,
): { page: Page<T>; headers: Record<string, string> } {
  const limit = query.integer('limit', 1, 200, 10)
  const sort = readSort(query, Object.keys(spec.fields), spec.defaultSort)
  if (!sort.some((s) => s.field === spec.id)) sort.push({ field: spec.id, descending: false })
  const print = fingerprint([spec.operation, query.canonical])
  const cursor = query.string('cursor')
  const shape = sort.map((s) => (spec.fields[s.field] as SortFields<T>[string]).type)
  const position = cursor === undefined ? undefined : decodeCursor(cursor, print, shape)

  const getters = sort.map((s) => (spec.fields[s.field] as SortFields<T>[string]).value)
  const compare = keyComparator(sort.map((s) => s.descending))
  const name = `${spec.operation} ${sort.map((s) => `${s.field}:${s.descending ? 'desc' : 'asc'}`).join(',')}`
  const keyed = spec.sorted(name, (item) => getters.map((get) => get(item)), compare)
  const page = paginate(keyed, compare, limit, position)

  const links: string[] = []
  if (page.next)
    links.push(`<${pageUrl(req, encodeCursor(print, { direction: 'after', key: page.next }))}>; rel="next"`)
  if (page.prev)
    links.push(`<${pageUrl(req, encodeCursor(print, { direction: 'before', key: page.prev }))}>; rel="prev"`)
  return { page, headers: links.length > 0 ? { Link: links.join(', ') } : {} }
}

/** Epoch milliseconds of a review's dates, computed once per record. */
interface ReviewFacts {
  publish: number
  review: number
  order: number
}
const facts = new WeakMap<ProductReview | BrandReview, ReviewFacts>()

function factsOf(review: ProductReview | BrandReview): ReviewFacts {
  let known = facts.get(review)
  if (!known) {
    known = {
      publish: Date.parse(review.publish_date),
      review: Date.parse(review.review_date),
      order: Date.parse(review.order_date),
    }
    facts.set(review, known)
  }
  return known
}

/**
 * A review's searchable text, lower-cased, computed once per record and only by a search: sorting a
 * million reviews by date must not build a million texts.
 */
const texts = new WeakMap<ProductReview | BrandReview, string>()

function textOf(review: ProductReview | BrandReview): string {
  let text = texts.get(review)
  if (text === undefined) {
    text = [review.review_content, ...review.moderations.map((m) => m.comment)].join('\n').toLowerCase()
    texts.set(review, text)
  }
  return text
}

type Predicate<T> = (item: T) => boolean

/** Filters that product and brand reviews share: dates, rating, search, flags. */
function commonReviewFilters(query: Query): Predicate<ProductReview | BrandReview>[] {
  const predicates: Predicate<ProductReview | BrandReview>[] = []
  for (const field of DATE_FIELDS) {
    const key = field === 'publish_date' ? 'publish' : field === 'review_date' ? 'review' : 'order'
    const gte = query.date(`${field}.gte`)
    const gt = query.date(`${field}.gt`)
    const lte = query.date(`${field}.lte`)
    const lt = query.date(`${field}.lt`)
    if (gte !== undefined) predicates.push((r) => factsOf(r)[key] >= gte)
    if (gt !== undefined) predicates.push((r) => factsOf(r)[key] > gt)
    if (lte !== undefined) predicates.push((r) => factsOf(r)[key] <= lte)
    if (lt !== undefined) predicates.push((r) => factsOf(r)[key] < lt)
  }
  const rates = query.list('review_rate', (v) => RATES.includes(v), 'a rating from 1 to 5')
  if (rates) {
    const wanted = new Set(rates.map(Number))
    predicates.push((r) => wanted.has(r.review_rate))
  }
  const search = query.string('search')?.toLowerCase()
  if (search !== undefined) predicates.push((r) => textOf(r).includes(search))
  const verified = query.boolean('is_verified')
  if (verified !== undefined) predicates.push((r) => r.is_verified === verified)
  return predicates
}

function inList<T>(query: Query, name: string, value: (item: T) => string): Predicate<T> | undefined {
  const values = query.identifiers(name)
  if (!values) return undefined
  const wanted = new Set(values)
  return (item) => wanted.has(value(item))
}

function applyFilters<T>(items: readonly T[], predicates: readonly (Predicate<T> | undefined)[]): T[] {
  const active = predicates.filter((p): p is Predicate<T> => p !== undefined)
  return active.length === 0 ? items.slice() : items.filter((item) => active.every((p) => p(item)))
}

const reviewDateFields = {
  publish_date: { type: 'number', value: (r: ProductReview | BrandReview) => factsOf(r).publish },
  review_date: { type: 'number', value: (r: ProductReview | BrandReview) => factsOf(r).review },
  order_date: { type: 'number', value: (r: ProductReview | BrandReview) => factsOf(r).order },
  review_rate: { type: 'number', value: (r: ProductReview | BrandReview) => r.review_rate },
  review_id: { type: 'string', value: (r: ProductReview | BrandReview) => r.review_id },
} as const

function listProductReviews(req: SandboxRequest, state: SandboxState): SandboxResponse {
  requirePublishedToken(req, state)
  const query = new Query(req.url, [
    ...PAGING,
    ...PRODUCT_CODES,
    'order_reference',
    'review_rate',
    ...DATE_PARAMS,
    'search',
    'incentivization',
    'syndicated_review',
    'is_verified',
  ])
  const codes = PRODUCT_CODES.flatMap((code) => {
    const values = query.identifiers(code)
    return values === undefined ? [] : [{ code, values: new Set(values) }]
  })
  const predicates: (Predicate<ProductReview> | undefined)[] = [
    ...codes.map(
      ({ code, values }) =>
        (r: ProductReview) =>
          values.has(r[code]),
    ),
    inList<ProductReview>(query, 'order_reference', (r) => r.order_reference),
    ...commonReviewFilters(query),
  ]
  const incentivization = query.list(
    'incentivization',
    (v) => (INCENTIVIZATIONS as readonly string[]).includes(v),
    `one of ${INCENTIVIZATIONS.join(', ')}`,
  )
  if (incentivization) predicates.push((r) => incentivization.includes(r.incentivization))
  const syndicated = query.boolean('syndicated_review')
  if (syndicated !== undefined) predicates.push((r) => r.syndicated_review === syndicated)

  const index = indexOf(state)
  const active = predicates.filter((p): p is Predicate<ProductReview> => p !== undefined)
  const { page, headers } = listPage<ProductReview>(req, query, {
    operation: 'products.reviews.list',
    sorted: (sort, keyOf, compare) => {
      // A product filter starts from the index: the few reviews of the products named, sorted here.
      const narrowest = codes
        .map(({ code, values }) => [...values].flatMap((value) => index.reviewsWith(code, value)))
        .sort((a, b) => a.length - b.length)[0]
      if (narrowest !== undefined) {
        return sortByKey(
          narrowest.filter((r) => active.every((p) => p(r))),
          keyOf,
          compare,
        )
      }
      // Otherwise from every review, sorted once for this sort and kept sorted as reviews are added.
      const all = index.sortedReviews(sort, keyOf, compare)
      return active.length === 0 ? all : all.filter((entry) => active.every((p) => p(entry.item)))
    },
    fields: {
      ...reviewDateFields,
      product_variation_id: { type: 'string', value: (r) => r.product_variation_id },
    },
    id: 'review_id',
    defaultSort: ['publish_date'],
  })
  return {
    status: 200,
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
    body: publishedProductReviewsBody(page.items, req.origin),
  }
}

function listBrandReviews(req: SandboxRequest, state: SandboxState): SandboxResponse {
  requirePublishedToken(req, state)
  const query = new Query(req.url, [
    ...PAGING,
    'search',
    'is_verified',
    'is_personal_data_disclosed',
    'shop_key',
    'review_rate',
    'linked_to_shop',
    ...DATE_PARAMS,
  ])
  const predicates: (Predicate<BrandReview> | undefined)[] = [
    ...commonReviewFilters(query),
    inList<BrandReview>(query, 'shop_key', (r) => r.shop_key),
  ]
  const disclosed = query.boolean('is_personal_data_disclosed')
  if (disclosed !== undefined) predicates.push((r) => r.is_personal_data_disclosed === disclosed)
  const linked = query.boolean('linked_to_shop')
  if (linked !== undefined) predicates.push((r) => (r.shop_key !== '') === linked)

  const { page, headers } = listPage<BrandReview>(req, query, {
    operation: 'brands.reviews.list',
    sorted: sortEach(() => applyFilters(state.brandReviews, predicates)),
    fields: { ...reviewDateFields, shop_key: { type: 'string', value: (r) => r.shop_key } },
    id: 'review_id',
    defaultSort: ['publish_date'],
  })
  return { status: 200, headers, body: page.items.map(toPublishedBrandReview) }
}

interface ProductSummary {
  product_variation_id: string
  website_id: string
  ratings: ReturnType<typeof ratingsOf>
  review_summary?: Product['review_summary']
  extras: { type: 'rate'; display_name: string; label: string; rate: { average: number; count: number } }[]
}

function summaryOf(product: Product, index: CatalogueIndex, websiteId: string): ProductSummary {
  const { ratings, criteria } = index.aggregate(product.product_variation_id)
  return {
    product_variation_id: product.product_variation_id,
    website_id: websiteId,
    ratings,
    ...(product.review_summary ? { review_summary: product.review_summary } : {}),
    extras: criteria.map((c) => ({
      type: 'rate',
      display_name: c.display_name,
      label: c.label,
      rate: { average: c.average, count: c.count },
    })),
  }
}

function listProducts(req: SandboxRequest, state: SandboxState): SandboxResponse {
  requirePublishedToken(req, state)
  const query = new Query(req.url, [...PAGING, 'product_variation_id'])
  const index = indexOf(state)
  const { websiteId } = state.settings
  const wanted = query.identifiers('product_variation_id')
  const { page, headers } = listPage<ProductSummary>(req, query, {
    operation: 'products.list',
    sorted: (sort, keyOf, compare) => {
      if (wanted !== undefined) {
        const products = [...new Set(wanted)].flatMap((id) => index.productsWith('product_variation_id', id))
        return sortByKey(
          products.map((p) => summaryOf(p, index, websiteId)),
          keyOf,
          compare,
        )
      }
      // The whole catalogue, summarized and sorted once until a review or a product is added.
      return index.productList(sort, () =>
        sortByKey(
          state.products.map((p) => summaryOf(p, index, websiteId)),
          keyOf,
          compare,
        ),
      )
    },
    fields: {
      product_variation_id: { type: 'string', value: (s) => s.product_variation_id },
      average: { type: 'number', value: (s) => s.ratings.average },
      count_total: { type: 'number', value: (s) => s.ratings.count_total },
    },
    id: 'product_variation_id',
    defaultSort: ['product_variation_id'],
  })
  return { status: 200, headers, body: page.items }
}

function listBrands(req: SandboxRequest, state: SandboxState): SandboxResponse {
  requirePublishedToken(req, state)
  const query = new Query(req.url, [...PAGING, 'shop_key', 'linked_to_shop'])
  const { websiteId } = state.settings
  const reference = brandReferenceTime(state.brandReviews, Date.now())
  const byShop = groupBy(state.brandReviews, (r) => r.shop_key)
  const shopKeys = [...new Set([...state.shops.map((s) => s.shop_key), ...byShop.keys()])].filter(
    (key) => key !== '',
  )
  const entries = [
    brandStatsOf('', websiteId, state.brandReviews, reference),
    ...shopKeys.map((key) => brandStatsOf(key, websiteId, byShop.get(key) ?? [], reference)),
  ]
  const linked = query.boolean('linked_to_shop')
  const { page, headers } = listPage<BrandStats>(req, query, {
    operation: 'brands.list',
    sorted: sortEach(() =>
      applyFilters(entries, [
        inList(query, 'shop_key', (e) => e.shop_key),
        linked === undefined ? undefined : (e) => (e.shop_key !== '') === linked,
      ]),
    ),
    fields: {
      shop_key: { type: 'string', value: (e) => e.shop_key },
      count_total_since_creation: { type: 'number', value: (e) => e.count_total_since_creation },
      oldest_review_publish_date: {
        type: 'number',
        value: (e) => (e.oldest_review_publish_date ? Date.parse(e.oldest_review_publish_date) : -1),
      },
    },
    id: 'shop_key',
    defaultSort: ['shop_key'],
  })
  return { status: 200, headers, body: page.items }
}

interface RatingEntry {
  product_variation_id: string
  product_ean: string
  average: number
  count_total: number
}
const RATING_SORT: Record<string, (e: RatingEntry) => KeyValue> = {
  product_variation_id: (e) => e.product_variation_id,
  product_ean: (e) => e.product_ean,
  average: (e) => e.average,
  count_total: (e) => e.count_total,
}

function listRatings(req: SandboxRequest, state: SandboxState): SandboxResponse {
  requirePublishedToken(req, state)
  const query = new Query(req.url, ['type', 'value', 'sort', 'desc'])
  const type = query.string('type')
  if (type !== 'product_ean' && type !== 'product_variation_id') {
    throw new HttpError(400, 'invalid_parameter', 'type is required: product_ean or product_variation_id', {
      field: 'type',
    })
  }
  const values = query.identifiers('value')
  if (!values) throw new HttpError(400, 'invalid_parameter', 'value is required', { field: 'value' })
  if (values.length > 200) {
    throw new HttpError(
      400,
      'invalid_parameter',
      `value must hold 1 to 200 identifiers, not ${values.length}`,
      {
        field: 'value',
      },
    )
  }
  const sorted = query.has('sort') || query.has('desc')
  const sort = sorted ? readSort(query, Object.keys(RATING_SORT), ['product_variation_id']) : []
  const index = indexOf(state)
  const entries = values.flatMap((value) =>
    index
      .productsWith(type, value)
      .filter((p) => index.reviewsOf(p.product_variation_id).length > 0)
      .map((p) => {
        const { ratings, criteria } = index.aggregate(p.product_variation_id)
        return {
          product_variation_id: p.product_variation_id,
          product_ean: p.product_ean,
          ...ratings,
          extras: criteria.map((c) => ({ count: c.count, average: c.average, label: c.label })),
        }
      }),
  )
  const unique = [...new Map(entries.map((e) => [e.product_variation_id, e])).values()]
  if (sorted) {
    if (!sort.some((s) => s.field === 'product_variation_id'))
      sort.push({ field: 'product_variation_id', descending: false })
    const compare = keyComparator(sort.map((s) => s.descending))
    const getters = sort.map((s) => RATING_SORT[s.field] as (e: RatingEntry) => KeyValue)
    const keyOf = (e: RatingEntry) => getters.map((get) => get(e))
    unique.sort((a, b) => compare(keyOf(a), keyOf(b)))
  }
  return { status: 200, body: unique }
}

/** The media type the client asked for among the two this operation serves, by q then order. */
function negotiate(accept: string | undefined): 'application/ld+json' | 'text/javascript' | undefined {
  const offers = (accept ?? '')
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase())
      const q = params.find((p) => p.startsWith('q='))
      return { type, q: q ? Number(q.slice(2)) : 1, index }
    })
    .filter((o) => (o.type === 'application/ld+json' || o.type === 'text/javascript') && o.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return offers[0]?.type as 'application/ld+json' | 'text/javascript' | undefined
}

function getStructuredData(req: SandboxRequest, state: SandboxState): SandboxResponse {
  requirePublishedToken(req, state)
  const query = new Query(req.url, ['product_variation_id', 'canonical_url', 'filters', 'reviews_limit'])
  const rawIds = query.string('product_variation_id')
  if (rawIds === undefined) {
    throw new HttpError(400, 'invalid_parameter', 'product_variation_id is required', {
      field: 'product_variation_id',
    })
  }
  if (/\s/.test(rawIds)) {
    throw new HttpError(400, 'invalid_parameter', 'product_variation_id must not contain whitespace', {
      field: 'product_variation_id',
    })
  }
  const ids = query.identifiers('product_variation_id') as string[]
  const canonicalUrl = query.string('canonical_url')
  if (canonicalUrl === undefined || !isAbsoluteHttpUrl(canonicalUrl)) {
    throw new HttpError(400, 'invalid_parameter', 'canonical_url is required: an absolute http(s) URL', {
      field: 'canonical_url',
    })
  }
  const filters = new Set(
    (query.list(
      'filters',
      (v) => (STRUCTURED_DATA_FILTERS as readonly string[]).includes(v),
      `one of ${STRUCTURED_DATA_FILTERS.join(', ')}`,
    ) ?? STRUCTURED_DATA_FILTERS) as StructuredDataFilter[],
  )
  const reviewsLimit = query.integer('reviews_limit', 1, 100, 5)
  const format = negotiate(req.headers.accept)
  if (!format) {
    throw new HttpError(406, 'not_acceptable', 'Accept must be application/ld+json or text/javascript')
  }
  const index = indexOf(state)
  const blocks = structuredData({
    products: ids.flatMap((id) => index.productsWith('product_variation_id', id)),
    reviews: [...new Set(ids)].flatMap((id) => index.reviewsOf(id)),
    canonicalUrl,
    filters,
    reviewsLimit,
    organizationName: state.settings.organizationName,
  })
  return format === 'application/ld+json'
    ? {
        status: 200,
        headers: { 'Content-Type': 'application/ld+json; charset=utf-8', Vary: 'Accept' },
        body: blocks,
      }
    : {
        status: 200,
        headers: { 'Content-Type': 'text/javascript; charset=utf-8', Vary: 'Accept' },
        body: toScripts(blocks),
      }
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== ''
  } catch {
    return false
  }
}

function route(path: string, operation: Operation, handle: Route['handle']): Route {
  return { method: 'GET', pattern: new RegExp(`^${BASE}${path}$`), operation, rateLimited: true, handle }
}

/** The six operations of the Published API. */
export const publishedRoutes: Route[] = [
  route('/products', 'products.list', listProducts),
  route('/products/reviews', 'products.reviews.list', listProductReviews),
  route('/products/ratings', 'products.ratings.list', listRatings),
  route('/products/structured-datas', 'products.structured-data.get', getStructuredData),
  route('/brands/reviews', 'brands.reviews.list', listBrandReviews),
  route('/brands', 'brands.list', listBrands),
]
