import type { ProductLeaf, WithContext } from 'schema-dts'
import { JsonLdInputError } from './json-ld-input-error.ts'
import { type ReviewMarkupInput, reviewMarkup, type WithReviewMarkup } from './markup.ts'

/** The Product node every product builder returns: one node, its `@id` the page's canonical URL. */
export type ProductJsonLd = WithReviewMarkup<WithContext<ProductLeaf>> & { '@id': string }

/** Facts about the product that the page owns; everything but the review markup, which the builders add. */
export type ProductFacts = Omit<ProductLeaf, '@type' | 'aggregateRating' | 'review'> & { '@type'?: 'Product' }

/** Everything a Product node is made of, whichever source it came from. */
export interface ProductNodeInput extends ReviewMarkupInput {
  url: string
  product: ProductFacts | undefined
}

const PRODUCT_SCHEMA_TYPE = 'Product'

/** Checks the options every builder shares, naming the one at fault. */
export function checkCommonOptions(options: {
  url: unknown
  maxReviews?: unknown
  ratingDecimals?: unknown
}): void {
  const { url, maxReviews, ratingDecimals } = options
  if (typeof url !== 'string' || !URL.canParse(url)) {
    throw new JsonLdInputError(
      'url',
      `must be an absolute URL (the page's canonical URL), got ${JSON.stringify(url)}`,
    )
  }
  if (maxReviews !== undefined && !(Number.isInteger(maxReviews) && (maxReviews as number) >= 0)) {
    throw new JsonLdInputError('maxReviews', `must be a whole number from 0, got ${String(maxReviews)}`)
  }
  if (
    ratingDecimals !== undefined &&
    !(Number.isInteger(ratingDecimals) && (ratingDecimals as number) >= 0 && (ratingDecimals as number) <= 4)
  ) {
    throw new JsonLdInputError(
      'ratingDecimals',
      `must be a whole number from 0 to 4, got ${String(ratingDecimals)}`,
    )
  }
}

/** Checks the options every product builder shares, naming the one at fault. */
export function checkProductOptions(options: {
  url: unknown
  product?: ProductFacts | undefined
  maxReviews?: unknown
  ratingDecimals?: unknown
}): void {
  checkCommonOptions(options)
  const { url, product } = options
  if (product?.['@id'] !== undefined && product['@id'] !== url) {
    throw new JsonLdInputError(
      'product.@id',
      `is ${JSON.stringify(product['@id'])} but url is ${JSON.stringify(url)}; one page has one Product node, so they must be equal`,
    )
  }
  if (product?.['@type'] !== undefined && product['@type'] !== PRODUCT_SCHEMA_TYPE) {
    throw new JsonLdInputError('product.@type', 'must be "Product" or left out')
  }
  if (product !== undefined && ('aggregateRating' in product || 'review' in product)) {
    const field = 'aggregateRating' in product ? 'product.aggregateRating' : 'product.review'
    throw new JsonLdInputError(field, 'comes from the reviews data; pass rating and reviews instead')
  }
}

/**
 * The Product node of a page from data of either source, with the review markup nested in it.
 * Null when the node would say nothing (no page facts, no aggregate, no review).
 */
export function productNode(input: ProductNodeInput, warn: (message: string) => void): ProductJsonLd | null {
  const markup = reviewMarkup(input, warn)
  const { '@type': _type, '@id': _id, ...facts } = input.product ?? {}
  if (Object.keys(facts).length === 0 && Object.keys(markup).length === 0) return null
  if (facts.name === undefined) {
    warn(
      'the Product node has no name, which Google requires: pass product.name, or merge the node into ' +
        "the page's own Product node with mergeJsonLd",
    )
  }
  return { '@context': 'https://schema.org', '@type': 'Product', '@id': input.url, ...facts, ...markup }
}
