import type { ClientContext } from '../internal/context/client-context.ts'
import { listPages, type PagedOperation } from '../internal/context/paged.ts'
import type { PagePromise } from '../internal/context/pagination.ts'
import { PAGING_RULES } from '../internal/context/query-string.ts'
import type { BrandListParams, BrandReviewListParams } from '../types/params.ts'
import type { BrandRating, BrandReview } from '../types/published.ts'
import { SORT_FIELDS } from '../types/published.ts'
import type { RequestOptions } from '../types/request-options.ts'
import { Resource } from './resource.ts'

const BOOLEAN = { kind: 'boolean' } as const
const DATES = { kind: 'dates' } as const

const brandsList: PagedOperation<'brands.list', BrandRating> = {
  path: 'brands',
  schema: {
    name: 'brands.list',
    sortable: SORT_FIELDS.brands,
    rules: { ...PAGING_RULES, shop_key: { kind: 'values' }, linked_to_shop: BOOLEAN },
  },
}

const brandReviewsList: PagedOperation<'brands.reviews.list', BrandReview> = {
  path: 'brands/reviews',
  schema: {
    name: 'brands.reviews.list',
    sortable: SORT_FIELDS.brandReviews,
    rules: {
      ...PAGING_RULES,
      search: { kind: 'text' },
      is_verified: BOOLEAN,
      is_personal_data_disclosed: BOOLEAN,
      shop_key: { kind: 'values' },
      review_rate: { kind: 'rates' },
      linked_to_shop: BOOLEAN,
      publish_date: DATES,
      review_date: DATES,
      order_date: DATES,
    },
  },
}

/** Reviews of the brand and of its shops (`GET /brands/reviews`). */
export class BrandReviews extends Resource {
  /** Lists brand and shop reviews. Await it for the first page, or walk every review with `for await`. */
  list(params?: BrandReviewListParams, options?: RequestOptions): PagePromise<BrandReview> {
    return listPages(this.context, brandReviewsList, params, options)
  }
}

/** The brand and its shops (Published API). */
export class Brands extends Resource {
  /** Reviews of the brand and of its shops. */
  readonly reviews: BrandReviews

  /** @internal */
  constructor(context: ClientContext) {
    super(context)
    this.reviews = new BrandReviews(context)
  }

  /** Lists rating statistics of the brand (`shop_key` empty) and of each shop. */
  list(params?: BrandListParams, options?: RequestOptions): PagePromise<BrandRating> {
    return listPages(this.context, brandsList, params, options)
  }
}
