import { chunks, mapWithLimit } from '../internal/base/concurrency.ts'
import { Issues } from '../internal/base/validate.ts'
import type { ClientContext } from '../internal/context/client-context.ts'
import { optionsFor } from '../internal/context/operation-options.ts'
import { listPages, type PagedOperation } from '../internal/context/paged.ts'
import type { PagePromise } from '../internal/context/pagination.ts'
import {
  buildQuery,
  MAX_VALUES,
  PAGING_RULES,
  queryString,
  valueList,
} from '../internal/context/query-string.ts'
import { resumeReviews } from '../internal/cursor/continuation.ts'
import { readStructuredData } from '../internal/jsonld/structured-data.ts'
import { StructuredDataError } from '../internal/jsonld/structured-data-error.ts'
import { parseStructuredDataScript } from '../internal/jsonld/structured-data-script.ts'
import { joinUrl } from '../internal/settings/addresses.ts'
import { send } from '../internal/transport/http.ts'
import { arrayOf, invalidAnswer, jsonOf } from '../internal/transport/json-body.ts'
import type {
  ProductListParams,
  ProductRatingListParams,
  ProductReviewListParams,
  StructuredDataParams,
} from '../types/params.ts'
import type { ProductRating, ProductReview, ProductSummary, StructuredData } from '../types/published.ts'
import { SORT_FIELDS } from '../types/published.ts'
import type { RequestOptions } from '../types/request-options.ts'
import { Resource } from './resource.ts'

const IDENTIFIER = { kind: 'values' } as const
const DATES = { kind: 'dates' } as const
const BOOLEAN = { kind: 'boolean' } as const

const productsList: PagedOperation<'products.list', ProductSummary> = {
  path: 'products',
  schema: {
    name: 'products.list',
    sortable: SORT_FIELDS.products,
    rules: { ...PAGING_RULES, product_variation_id: IDENTIFIER },
  },
}

const reviewsList: PagedOperation<'products.reviews.list', ProductReview> = {
  resume: resumeReviews,
  path: 'products/reviews',
  schema: {
    name: 'products.reviews.list',
    sortable: SORT_FIELDS.productReviews,
    rules: {
      ...PAGING_RULES,
      product_variation_id: IDENTIFIER,
      product_ean: IDENTIFIER,
      product_mpn: IDENTIFIER,
      product_jan: IDENTIFIER,
      product_upc: IDENTIFIER,
      product_sku: IDENTIFIER,
      order_reference: IDENTIFIER,
      review_rate: { kind: 'rates' },
      publish_date: DATES,
      review_date: DATES,
      order_date: DATES,
      search: { kind: 'text' },
      incentivization: { kind: 'oneOf', values: ['none', 'gifted', 'compensated', 'spontaneous'] },
      syndicated_review: BOOLEAN,
      is_verified: BOOLEAN,
    },
  },
}

const ratingsSchema = {
  name: 'products.ratings.list',
  sortable: SORT_FIELDS.productRatings,
  required: ['type', 'value'],
  rules: {
    type: { kind: 'oneOf', values: ['product_ean', 'product_variation_id'] },
    // Any count: checked here, split into chunks of MAX_VALUES by the operation.
    value: IDENTIFIER,
    sort: { kind: 'sort' },
    desc: { kind: 'sort' },
  },
} as const

const structuredDataSchema = {
  name: 'products.structuredData.get',
  required: ['product_variation_id', 'canonical_url'],
  rules: {
    // The one place the spec forbids whitespace in an identifier.
    product_variation_id: { kind: 'values', noWhitespace: true },
    canonical_url: { kind: 'url' },
    filters: { kind: 'someOf', values: ['aggregate_rating', 'reviews', 'review_summary'] },
    reviews_limit: { kind: 'integer', min: 1, max: 100 },
  },
} as const

/** Compares two ratings by `sort`/`desc` fields, as the API would within one answer. */
function compareBy(sort: readonly string[], desc: readonly string[]) {
  return (a: ProductRating, b: ProductRating): number => {
    for (const field of sort) {
      const x = a[field as keyof ProductRating]
      const y = b[field as keyof ProductRating]
      const order =
        typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
      if (order !== 0) return desc.includes(field) ? -order : order
    }
    return 0
  }
}

/** Product reviews (`GET /products/reviews`). */
export class ProductReviews extends Resource {
  /**
   * Lists product reviews. Await it for the first page, or walk every review with `for await`.
   *
   * @example
   * ```ts
   * for await (const review of vr.products.reviews.list({ product_variation_id: ['SKU-001'], limit: 200 })) {
   *   console.log(review.review_rate, review.review_content)
   * }
   * ```
   */
  list(params?: ProductReviewListParams, options?: RequestOptions): PagePromise<ProductReview> {
    return listPages(this.context, reviewsList, params, options)
  }
}

/** Bulk product ratings (`GET /products/ratings`). */
export class ProductRatings extends Resource {
  /**
   * Ratings of any number of products: one entry per product that has reviews, in the order of
   * `value` (or sorted by `sort`/`desc`). Products without reviews are absent.
   */
  async list(params: ProductRatingListParams, callOptions?: RequestOptions): Promise<ProductRating[]> {
    const issues = new Issues()
    const query = buildQuery(ratingsSchema, params, issues)
    issues.throwIfAny()
    const options = optionsFor(this.context, ratingsSchema.name, params, callOptions)
    const lists = chunks([...new Set(valueList(params.value) ?? [])], MAX_VALUES)
    const url = joinUrl(this.context.addresses.publishedUrl, 'products/ratings')
    const answers = await mapWithLimit(lists, this.context.maxConcurrency, async (chunk) => {
      const chunkQuery = new URLSearchParams(query)
      chunkQuery.set('value', chunk.join(','))
      const answer = await send(
        this.context.settings,
        {
          service: this.context.published,
          method: 'GET',
          url: `${url}?${queryString(chunkQuery, ratingsSchema)}`,
        },
        options,
      )
      return arrayOf<ProductRating>(answer, 'published')
    })
    const merged = answers.flat()
    // As sent: `desc` alone has become the sort.
    const sort = valueList(query.get('sort') ?? undefined) ?? []
    if (lists.length > 1 && sort.length > 0)
      merged.sort(compareBy(sort, valueList(query.get('desc') ?? undefined) ?? []))
    return merged
  }
}

/** Ready-to-embed JSON-LD of one product (`GET /products/structured-datas`). */
export class ProductStructuredData extends Resource {
  /**
   * The JSON-LD blocks of one product, parsed and checked: every block has the members the spec
   * documents and every `itemReviewed` points at `canonical_url`. Throws `InvalidResponseError`
   * otherwise. Blocks with nothing to say are absent.
   */
  async get(params: StructuredDataParams, callOptions?: RequestOptions): Promise<StructuredData> {
    const issues = new Issues()
    const { format = 'json', ...rest } = params ?? ({} as StructuredDataParams)
    if (format !== 'json' && format !== 'script') issues.add('format', "must be 'json' or 'script'")
    const query = buildQuery(structuredDataSchema, rest, issues)
    issues.throwIfAny()
    const options = optionsFor(this.context, structuredDataSchema.name, params, callOptions)
    const url = `${joinUrl(this.context.addresses.publishedUrl, 'products/structured-datas')}?${queryString(query, structuredDataSchema)}`
    const accept = format === 'json' ? 'application/ld+json' : 'text/javascript'
    const answer = await send(
      this.context.settings,
      { service: this.context.published, method: 'GET', url, headers: { accept } },
      options,
    )
    try {
      const data = format === 'json' ? jsonOf(answer, 'published') : parseStructuredDataScript(answer.text)
      return readStructuredData(data, params.canonical_url)
    } catch (cause) {
      if (!(cause instanceof StructuredDataError)) throw cause
      throw invalidAnswer(answer, 'published', `The structured data is not valid: ${cause.message}.`, cause)
    }
  }
}

/** Products of the Published API. */
export class Products extends Resource {
  /** Product reviews. */
  readonly reviews: ProductReviews
  /** Bulk product ratings. */
  readonly ratings: ProductRatings
  /** JSON-LD of one product. */
  readonly structuredData: ProductStructuredData

  /** @internal */
  constructor(context: ClientContext) {
    super(context)
    this.reviews = new ProductReviews(context)
    this.ratings = new ProductRatings(context)
    this.structuredData = new ProductStructuredData(context)
  }

  /** Lists product summaries: aggregated ratings, AI summary and criteria, products with no reviews included. */
  list(params?: ProductListParams, options?: RequestOptions): PagePromise<ProductSummary> {
    return listPages(this.context, productsList, params, options)
  }
}
