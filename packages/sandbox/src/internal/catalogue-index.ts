import { type Criterion, criteriaOf, type Ratings, ratingsOf } from './aggregate.ts'
import type { KeyComparator, Keyed, KeyValue } from './cursor.ts'
import type { Product, ProductReview } from './types.ts'

/** The product codes a review filter and a ratings lookup can name. */
export const PRODUCT_CODES = [
  'product_variation_id',
  'product_ean',
  'product_mpn',
  'product_jan',
  'product_upc',
  'product_sku',
] as const
export type ProductCode = (typeof PRODUCT_CODES)[number]

/** A product's aggregates, computed from its reviews. */
export interface ProductAggregate {
  ratings: Ratings
  criteria: Criterion[]
}

/** A sorted list kept by the index, with how its keys were made. */
interface SortedList<T> {
  keyed: Keyed<T>[]
  keyOf: (item: T) => KeyValue[]
  compare: KeyComparator
}

/** More additions at once than this rebuild a sorted list instead of inserting into it. */
const MAX_INSERTS = 512

/** Sorts items by the key `keyOf` gives, with `compare`. */
export function sortByKey<T>(
  items: readonly T[],
  keyOf: (item: T) => KeyValue[],
  compare: KeyComparator,
): Keyed<T>[] {
  const keyed = items.map((item) => ({ item, key: keyOf(item) }))
  keyed.sort((a, b) => compare(a.key, b.key))
  return keyed
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/**
 * Indexes over the catalogue and its product reviews, each built on first use and kept up to date as
 * reviews and products are added, so that a request for one product's reviews, ratings or structured
 * data never scans every review, and a page of a walk over every review is a binary search into a
 * list sorted once.
 */
export class CatalogueIndex {
  readonly #products: readonly Product[]
  readonly #reviews: readonly ProductReview[]
  #productById: Map<string, Product> | undefined
  #productsByEan: Map<string, Product[]> | undefined
  readonly #reviewsByCode = new Map<ProductCode, Map<string, ProductReview[]>>()
  #reviewIds: Set<string> | undefined
  readonly #aggregates = new Map<string, ProductAggregate>()
  readonly #sortedReviews = new Map<string, SortedList<ProductReview>>()
  readonly #productLists = new Map<string, unknown>()

  /** Over the live arrays of a state, which additions push to (and then tell the index). */
  constructor(products: readonly Product[], reviews: readonly ProductReview[]) {
    this.#products = products
    this.#reviews = reviews
  }

  product(productId: string): Product | undefined {
    if (this.#productById === undefined) {
      this.#productById = new Map(this.#products.map((p) => [p.product_variation_id, p]))
    }
    return this.#productById.get(productId)
  }

  /** The catalogue's products with this EAN or variation id, in catalogue order. */
  productsWith(type: 'product_ean' | 'product_variation_id', value: string): Product[] {
    if (type === 'product_variation_id') {
      const product = this.product(value)
      return product === undefined ? [] : [product]
    }
    if (this.#productsByEan === undefined) {
      const byEan = new Map<string, Product[]>()
      for (const p of this.#products) push(byEan, p.product_ean, p)
      this.#productsByEan = byEan
    }
    return this.#productsByEan.get(value) ?? []
  }

  /** The reviews whose `code` is `value`, in the order they were stored. */
  reviewsWith(code: ProductCode, value: string): readonly ProductReview[] {
    let byValue = this.#reviewsByCode.get(code)
    if (byValue === undefined) {
      byValue = new Map()
      for (const review of this.#reviews) push(byValue, review[code], review)
      this.#reviewsByCode.set(code, byValue)
    }
    return byValue.get(value) ?? []
  }

  /** The reviews of a product, in the order they were stored. */
  reviewsOf(productId: string): readonly ProductReview[] {
    return this.reviewsWith('product_variation_id', productId)
  }

  hasReviewId(reviewId: string): boolean {
    this.#reviewIds ??= new Set(this.#reviews.map((r) => r.review_id))
    return this.#reviewIds.has(reviewId)
  }

  /** Ratings and criteria of a product's reviews, computed once until its reviews change. */
  aggregate(productId: string): ProductAggregate {
    let aggregate = this.#aggregates.get(productId)
    if (aggregate === undefined) {
      const reviews = this.reviewsOf(productId)
      aggregate = { ratings: ratingsOf(reviews), criteria: criteriaOf(reviews) }
      this.#aggregates.set(productId, aggregate)
    }
    return aggregate
  }

  /**
   * Every product review sorted by `compare` on the keys `keyOf` makes, sorted once for each `sort`
   * (a name for the pair) and kept sorted as reviews are added.
   */
  sortedReviews(
    sort: string,
    keyOf: (review: ProductReview) => KeyValue[],
    compare: KeyComparator,
  ): readonly Keyed<ProductReview>[] {
    let list = this.#sortedReviews.get(sort)
    if (list === undefined) {
      list = { keyed: sortByKey(this.#reviews, keyOf, compare), keyOf, compare }
      this.#sortedReviews.set(sort, list)
    }
    return list.keyed
  }

  /** A list over the products (summaries, sorted), kept until a product or a review is added. */
  productList<T>(name: string, make: () => T): T {
    if (!this.#productLists.has(name)) this.#productLists.set(name, make())
    return this.#productLists.get(name) as T
  }

  /** Tells the index that `product` joined the catalogue array. */
  addedProduct(product: Product): void {
    this.#productById?.set(product.product_variation_id, product)
    if (this.#productsByEan !== undefined) {
      const list = this.#productsByEan.get(product.product_ean)
      if (list === undefined) this.#productsByEan.set(product.product_ean, [product])
      else {
        list.push(product)
        list.sort((a, b) => (a.product_variation_id < b.product_variation_id ? -1 : 1))
      }
    }
    this.#productLists.clear()
  }

  /** Tells the index that `reviews` were appended to the reviews array. */
  addedReviews(reviews: readonly ProductReview[]): void {
    for (const [code, byValue] of this.#reviewsByCode) {
      for (const review of reviews) push(byValue, review[code], review)
    }
    for (const review of reviews) {
      this.#reviewIds?.add(review.review_id)
      this.#aggregates.delete(review.product_variation_id)
    }
    for (const [sort, list] of this.#sortedReviews) {
      if (reviews.length > MAX_INSERTS) {
        this.#sortedReviews.delete(sort)
        continue
      }
      for (const review of reviews) {
        const entry = { item: review, key: list.keyOf(review) }
        list.keyed.splice(upperBound(list.keyed, entry.key, list.compare), 0, entry)
      }
    }
    this.#productLists.clear()
  }
}

/** First index whose key sorts after `key`. */
function upperBound<T>(
  sorted: readonly Keyed<T>[],
  key: readonly KeyValue[],
  compare: KeyComparator,
): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (compare((sorted[mid] as Keyed<T>).key, key) <= 0) low = mid + 1
    else high = mid
  }
  return low
}
