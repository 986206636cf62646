import { CatalogueIndex } from './catalogue-index.ts'
import { HttpError } from './http-error.ts'
import {
  datesBefore,
  generateBrandReview,
  generateProduct,
  generateProductReview,
  makeShop,
  summarize,
  toIso,
} from './seed.ts'
import type { SandboxStore } from './state.ts'
import {
  type BrandReview,
  INCENTIVIZATIONS,
  LANGUAGES,
  type Language,
  type Product,
  type ProductReview,
} from './types.ts'

type Check = (value: unknown) => string | undefined

const isString: Check = (v) => (typeof v === 'string' ? undefined : 'must be a string')
const isBoolean: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be a boolean')
const isRate: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 5
    ? undefined
    : 'must be an integer from 1 to 5'
const isIncentivization: Check = (v) =>
  (INCENTIVIZATIONS as readonly unknown[]).includes(v)
    ? undefined
    : `must be one of ${INCENTIVIZATIONS.join(', ')}`
const isDateTime: Check = (v) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v))
    ? undefined
    : 'must be an ISO 8601 date-time'
const isIdentifier: Check = (v) =>
  typeof v === 'string' && /^[^\s,]+$/.test(v)
    ? undefined
    : 'must be a non-empty string without spaces or commas'
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const isTranslations: Check = (v) =>
  isObject(v) &&
  Object.entries(v).every(([k, t]) => (LANGUAGES as readonly string[]).includes(k) && typeof t === 'string')
    ? undefined
    : `must be an object of strings keyed by ${LANGUAGES.join(', ')}`
const isMedias: Check = (v) =>
  Array.isArray(v) &&
  v.every(
    (m) =>
      isObject(m) &&
      m.type === 'IMAGE' &&
      ['small', 'medium', 'large'].every((size) => typeof m[size] === 'string') &&
      Object.keys(m).length === 4,
  )
    ? undefined
    : 'must be an array of { type: "IMAGE", small, medium, large }'
const isModerations =
  (translated: boolean): Check =>
  (v) =>
    Array.isArray(v) &&
    v.every(
      (m) =>
        isObject(m) &&
        typeof m.comment === 'string' &&
        isDateTime(m.date) === undefined &&
        typeof m.origin === 'string' &&
        m.origin_type === 'moderator' &&
        (m.translated_comment === undefined ||
          (translated && isTranslations(m.translated_comment) === undefined)) &&
        Object.keys(m).every((k) =>
          ['comment', 'date', 'origin', 'origin_type', 'translated_comment'].includes(k),
        ),
    )
      ? undefined
      : `must be an array of { comment, date, origin, origin_type: "moderator"${translated ? ', translated_comment?' : ''} }`
const isExtras: Check = (v) =>
  isObject(v) &&
  Object.values(v).every(
    (e) =>
      isObject(e) &&
      typeof e.display_name === 'string' &&
      typeof e.label === 'string' &&
      ((e.type === 'I1' && typeof e.value === 'number') || (e.type === 'S' && typeof e.value === 'string')) &&
      Object.keys(e).length === 4,
  )
    ? undefined
    : 'must be an object of { display_name, label, type: "I1" | "S", value }'

const PRODUCT_FIELDS = [
  'product_ean',
  'product_upc',
  'product_jan',
  'product_sku',
  'product_mpn',
  'product_brand',
  'product_name',
] as const

const PRODUCT_REVIEW_SCHEMA: Record<string, Check> = {
  review_id: isIdentifier,
  author_firstname: isString,
  author_lastname: isString,
  is_personal_data_disclosed: isBoolean,
  locale: isString,
  review_date: isDateTime,
  order_date: isDateTime,
  review_content: isString,
  review_rate: isRate,
  order_reference: isString,
  order_id: isString,
  product_variation_id: isIdentifier,
  ...Object.fromEntries(PRODUCT_FIELDS.map((f) => [f, isString])),
  is_verified: isBoolean,
  medias: isMedias,
  incentivization: isIncentivization,
  syndicated_review: isBoolean,
  syndicated_review_source: isString,
  syndicated_review_source_url: isString,
  translated_review: isTranslations,
  moderations: isModerations(true),
  extras: isExtras,
}

const BRAND_REVIEW_SCHEMA: Record<string, Check> = {
  review_id: isIdentifier,
  order_reference: isString,
  shop_key: (v) =>
    typeof v === 'string' && /^[^\s,]*$/.test(v) ? undefined : 'must be a string without spaces or commas',
  review_content: isString,
  author_firstname: isString,
  author_lastname: isString,
  locale: isString,
  review_rate: isRate,
  incentivization: isIncentivization,
  is_verified: isBoolean,
  is_personal_data_disclosed: isBoolean,
  order_date: isDateTime,
  review_date: isDateTime,
  moderations: isModerations(false),
  extras: isExtras,
}

function fail(index: number, field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_body', `review ${index}: ${field} ${message}`, {
    field: `[${index}].${field}`,
  })
}

function parseItems(body: Buffer): unknown[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    throw new HttpError(400, 'invalid_body', 'the body must be a JSON array of reviews', { field: 'body' })
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new HttpError(400, 'invalid_body', 'the body must be a non-empty JSON array of reviews', {
      field: 'body',
    })
  }
  return parsed
}

function validate(items: unknown[], schema: Record<string, Check>): Record<string, unknown>[] {
  return items.map((item, index) => {
    if (!isObject(item))
      throw new HttpError(400, 'invalid_body', `review ${index} must be an object`, { field: `[${index}]` })
    for (const [field, value] of Object.entries(item)) {
      // Own members only: `__proto__` or `constructor` must not reach the prototype's.
      const check = Object.hasOwn(schema, field) ? schema[field] : undefined
      if (field === 'publish_date')
        throw fail(index, field, 'is set by the sandbox: additions are published now')
      if (!check) throw fail(index, field, 'is not a field the sandbox can take')
      const problem = check(value)
      if (problem) throw fail(index, field, problem)
    }
    return item
  })
}

/** Text given without translations is its own only translation, in the language of the locale. */
function ownLanguage(locale: string): Language | undefined {
  const language = locale.slice(0, 2).toLowerCase()
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : undefined
}

/** Rules between given fields, checked for every item before anything is added. */
function precheck(inputs: Record<string, unknown>[], held: (reviewId: string) => boolean, now: number): void {
  const taken = new Set<string>()
  inputs.forEach((input, index) => {
    if (typeof input.review_id === 'string') {
      if (held(input.review_id) || taken.has(input.review_id))
        throw fail(index, 'review_id', 'is already taken')
      taken.add(input.review_id)
    }
    if (
      input.is_personal_data_disclosed === false &&
      typeof input.author_lastname === 'string' &&
      input.author_lastname
    ) {
      throw fail(index, 'author_lastname', 'must be empty when is_personal_data_disclosed is false')
    }
    for (const field of ['order_date', 'review_date'] as const) {
      if (typeof input[field] === 'string' && Date.parse(input[field]) > now) {
        throw fail(index, field, 'must not be in the future: additions are published now')
      }
    }
    if (typeof input.order_date === 'string' && typeof input.review_date === 'string') {
      if (Date.parse(input.order_date) > Date.parse(input.review_date)) {
        throw fail(index, 'order_date', 'must not be later than review_date')
      }
    }
  })
}

/** Lays the given fields over a generated review, keeping the rules between fields true. */
function merge<T extends ProductReview | BrandReview>(review: T, input: Record<string, unknown>): T {
  Object.assign(review, input)
  if (
    input.is_personal_data_disclosed === undefined &&
    review.author_lastname !== '' &&
    input.author_lastname
  ) {
    review.is_personal_data_disclosed = true
  }
  if (!review.is_personal_data_disclosed) review.author_lastname = ''
  let order = Date.parse(review.order_date)
  let written = Date.parse(review.review_date)
  if (input.order_date === undefined) order = Math.min(order, written)
  if (input.review_date === undefined) written = Math.max(written, order)
  review.order_date = toIso(order)
  review.review_date = toIso(written)
  return review
}

function checkProducts(store: SandboxStore, inputs: Record<string, unknown>[]): void {
  inputs.forEach((input, index) => {
    if (input.product_variation_id === undefined) throw fail(index, 'product_variation_id', 'is required')
    const known =
      typeof input.product_variation_id === 'string'
        ? store.index.product(input.product_variation_id)
        : undefined
    for (const field of PRODUCT_FIELDS) {
      if (known && input[field] !== undefined && input[field] !== known[field]) {
        throw fail(
          index,
          field,
          `differs from the catalogue's ${known.product_variation_id} (${known[field]})`,
        )
      }
    }
  })
}

/** The catalogue entry of a review to add, adding a product the catalogue does not have. */
function catalogueProduct(store: SandboxStore, input: Record<string, unknown>): Product {
  const known = store.index.product(input.product_variation_id as string)
  if (known) return known
  const product = generateProduct(
    store.additionsRandom,
    input.product_variation_id as string,
    store.usedCodes,
  )
  for (const field of PRODUCT_FIELDS)
    if (typeof input[field] === 'string') product[field] = input[field] as string
  // The catalogue is kept in product_variation_id order: the place is found by bisection.
  let low = 0
  let high = store.products.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((store.products[mid] as Product).product_variation_id > product.product_variation_id) high = mid
    else low = mid + 1
  }
  store.products.splice(low, 0, product)
  store.index.addedProduct(product)
  return product
}

/**
 * Adds the product reviews of a `POST /__sandbox/product-reviews` body, each published now and
 * later than every earlier review; unknown products join the catalogue. Nothing is added when any
 * item is invalid.
 */
export function addProductReviews(store: SandboxStore, body: Buffer): ProductReview[] {
  const inputs = validate(parseItems(body), PRODUCT_REVIEW_SCHEMA)
  checkProducts(store, inputs)
  precheck(inputs, (id) => store.index.hasReviewId(id), store.now())
  const rng = store.additionsRandom
  const added = inputs.map((input) => {
    const product = catalogueProduct(store, input)
    const publish = store.nextPublishTime()
    const review = generateProductReview(rng, product, datesBefore(rng, publish), store.seedContext, {
      rate: input.review_rate as ProductReview['review_rate'] | undefined,
      latest: publish,
    })
    if (input.syndicated_review === false) {
      review.syndicated_review_source = ''
      review.syndicated_review_source_url = ''
    }
    merge(review, input)
    const language = ownLanguage(review.locale)
    if (input.review_content !== undefined && input.translated_review === undefined) {
      review.translated_review = language ? { [language]: review.review_content } : {}
    } else if (input.translated_review !== undefined && input.review_content === undefined) {
      review.review_content = (language && review.translated_review[language]) || ''
    }
    return review
  })
  store.productReviews.push(...added)
  store.index.addedReviews(added)
  for (const id of new Set(added.map((r) => r.product_variation_id))) {
    const product = store.index.product(id) as Product
    if (product.review_summary) continue
    const reviews = store.index.reviewsOf(id)
    const latest = Math.max(...reviews.map((r) => Date.parse(r.publish_date)))
    const summary = summarize(rng, product, reviews, latest)
    if (summary) product.review_summary = summary
  }
  return added
}

/** Adds the brand reviews of a `POST /__sandbox/brand-reviews` body; an unknown shop_key adds a shop. */
export function addBrandReviews(store: SandboxStore, body: Buffer): BrandReview[] {
  const inputs = validate(parseItems(body), BRAND_REVIEW_SCHEMA)
  const held = new Set(store.brandReviews.map((r) => r.review_id))
  precheck(inputs, (id) => held.has(id), store.now())
  const rng = store.additionsRandom
  const added = inputs.map((input) => {
    const shopKey =
      (input.shop_key as string | undefined) ?? rng.pick(['', ...store.shops.map((s) => s.shop_key)])
    if (shopKey !== '' && !store.shops.some((s) => s.shop_key === shopKey)) {
      store.shops.push(
        makeShop(shopKey, `${store.settings.organizationName} ${shopKey}`, store.settings.websiteId),
      )
    }
    const publish = store.nextPublishTime()
    const review = generateBrandReview(rng, shopKey, datesBefore(rng, publish), store.seedContext, {
      rate: input.review_rate as BrandReview['review_rate'] | undefined,
      latest: publish,
    })
    return merge(review, input)
  })
  store.brandReviews.push(...added)
  return added
}

/** What `POST /__sandbox/product-reviews/<id>` may change of a published review: its text and rate. */
const PRODUCT_REVIEW_EDIT_SCHEMA: Record<string, Check> = {
  review_content: isString,
  translated_review: isTranslations,
  review_rate: isRate,
}

/** The review with this id, or a 404. */
function heldProductReview(store: SandboxStore, reviewId: string): number {
  const at = store.productReviews.findIndex((review) => review.review_id === reviewId)
  if (at === -1) throw new HttpError(404, 'not_found', `no product review ${reviewId}`)
  return at
}

/**
 * Removes a product review, as a moderator who withdraws it upstream: the API stops listing it, and no
 * list shows anything changed (the summaries count one review less). The indexes are made again.
 */
export function removeProductReview(store: SandboxStore, reviewId: string): void {
  store.productReviews.splice(heldProductReview(store, reviewId), 1)
  store.index = new CatalogueIndex(store.products, store.productReviews)
}

/**
 * Edits a published product review in place (`review_content`, `translated_review`, `review_rate`),
 * keeping its `publish_date`: the newest-first list does not bring it forward, as an edit upstream
 * that is not republished. Answers the review as it is now.
 */
export function editProductReview(store: SandboxStore, reviewId: string, body: Buffer): ProductReview {
  let input: unknown
  try {
    input = JSON.parse(body.toString('utf8'))
  } catch {
    throw new HttpError(400, 'invalid_body', 'the body must be JSON', { field: 'body' })
  }
  if (!isObject(input))
    throw new HttpError(400, 'invalid_body', 'the body must be an object', { field: 'body' })
  for (const [field, value] of Object.entries(input)) {
    const check = PRODUCT_REVIEW_EDIT_SCHEMA[field]
    const problem = check === undefined ? 'is not a field an edit can change' : check(value)
    if (problem !== undefined) throw new HttpError(400, 'invalid_body', `${field} ${problem}`, { field })
  }
  const at = heldProductReview(store, reviewId)
  // A new record: records never change once stored (their views are kept serialized, per record).
  const review = { ...(store.productReviews[at] as ProductReview), ...input }
  store.productReviews[at] = review
  store.index = new CatalogueIndex(store.products, store.productReviews)
  return review
}
