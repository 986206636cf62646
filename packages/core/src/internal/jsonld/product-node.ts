import type { ProductGroupLeaf, ProductLeaf, WithContext } from 'schema-dts'
import { isIntegerIn } from '../base/validate.ts'
import { JsonLdInputError } from './json-ld-input-error.ts'
import {
  DEFAULT_RATING_DECIMALS,
  type ReviewMarkupInput,
  reviewMarkup,
  type WithReviewMarkup,
} from './review-markup.ts'
import { createWarner, type JsonLdLogger } from './warnings.ts'

/** Facts about the product that the page owns; everything but the review markup, which the builders add. */
export type ProductFacts = Omit<ProductLeaf, '@type' | 'aggregateRating' | 'review'> & { '@type'?: 'Product' }

/**
 * Facts about a product group (a product sold in several variations: colours, sizes): the group's own
 * facts, its `productGroupID`, and each variation (`hasVariant`) with its own facts (`sku`, `gtin13`,
 * `color`, `image`, `offers`…). The review markup goes on the group: its aggregate is over every
 * variation.
 */
export type ProductGroupFacts = Omit<
  ProductGroupLeaf,
  '@type' | 'aggregateRating' | 'review' | 'hasVariant' | 'productGroupID'
> & {
  '@type': 'ProductGroup'
  /** The shop's identifier of the group (the parent SKU); each variation gets it as `inProductGroupWithID`. */
  productGroupID: string
  /** The variations, at least one, each with its own facts. */
  hasVariant: readonly ProductFacts[]
}

/** The Product node every product builder returns: one node, its `@id` the page's canonical URL. */
export type ProductJsonLd = (
  | WithReviewMarkup<WithContext<ProductLeaf>>
  | WithReviewMarkup<WithContext<ProductGroupLeaf>>
) & { '@id': string }

/** Options shared by `buildProductJsonLd` and `fromStructuredData`. */
export interface ProductJsonLdBaseOptions {
  /** The page's canonical URL: becomes the Product node's `@id`. */
  url: string
  /**
   * What the page says about the product (`name`, `sku`, `gtin13`, `image`, `offers`…), merged into the
   * same node so the page carries one Product node. Google requires `name` (without it the node is a
   * fragment for `mergeJsonLd`); without `offers`, a node with no rating and no review is not emitted.
   * For a product sold in variations, pass a `ProductGroup` (`productGroupID`, `hasVariant`): the
   * review markup goes on the group.
   */
  product?: ProductFacts | ProductGroupFacts
  /**
   * Decimal places of `aggregateRating.ratingValue`; one place matches what the star rating shows.
   * @default 1
   */
  ratingDecimals?: number
  /**
   * Where development warnings go (markup left out because Google would reject it). Each distinct
   * message is given once; nothing is logged when `NODE_ENV` is `production`.
   * @default console
   */
  logger?: JsonLdLogger
  /**
   * Opts in to marking up the AI summary (`reviewSummary`, or the structured data's summary block) as a
   * `Review` authored by this organization: a machine-written summary is not a consumer's review.
   * @default undefined (the summary is not marked up)
   */
  reviewSummaryAuthor?: string | undefined
}

const PRODUCT_SCHEMA_TYPE = 'Product'
const PRODUCT_GROUP_SCHEMA_TYPE = 'ProductGroup'

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
  if (maxReviews !== undefined && !isIntegerIn(maxReviews, 0, Number.POSITIVE_INFINITY)) {
    throw new JsonLdInputError('maxReviews', `must be a whole number from 0, got ${String(maxReviews)}`)
  }
  if (ratingDecimals !== undefined && !isIntegerIn(ratingDecimals, 0, 4)) {
    throw new JsonLdInputError(
      'ratingDecimals',
      `must be a whole number from 0 to 4, got ${String(ratingDecimals)}`,
    )
  }
}

/** Refuses review markup among the page's facts: the builders make it from the reviews data. */
export function checkNoReviewMarkup(facts: object, path: string): void {
  if ('aggregateRating' in facts || 'review' in facts) {
    const field = 'aggregateRating' in facts ? `${path}.aggregateRating` : `${path}.review`
    throw new JsonLdInputError(field, 'comes from the reviews data; pass rating and reviews instead')
  }
}

function checkGroup(group: ProductGroupFacts): void {
  if (typeof group.productGroupID !== 'string' || group.productGroupID.trim() === '') {
    throw new JsonLdInputError(
      'product.productGroupID',
      "is required on a ProductGroup: the shop's identifier of the group (its parent SKU)",
    )
  }
  if (!Array.isArray(group.hasVariant) || group.hasVariant.length === 0) {
    throw new JsonLdInputError('product.hasVariant', 'must list the variations of the group, at least one')
  }
  group.hasVariant.forEach((variant, index) => {
    const path = `product.hasVariant[${index}]`
    if (typeof variant !== 'object' || variant === null || Array.isArray(variant)) {
      throw new JsonLdInputError(path, 'must be an object of Product facts')
    }
    if (variant['@type'] !== undefined && variant['@type'] !== PRODUCT_SCHEMA_TYPE) {
      throw new JsonLdInputError(`${path}.@type`, 'must be "Product" or left out')
    }
    // The group's aggregate is over every variation: one variation's stars would be a second aggregate.
    checkNoReviewMarkup(variant, path)
  })
}

/** Checks the options every product builder shares, naming the one at fault. */
export function checkProductOptions(options: ProductJsonLdBaseOptions & { maxReviews?: unknown }): void {
  checkCommonOptions(options)
  const { url, product, reviewSummaryAuthor } = options
  if (product?.['@id'] !== undefined && product['@id'] !== url) {
    throw new JsonLdInputError(
      'product.@id',
      `is ${JSON.stringify(product['@id'])} but url is ${JSON.stringify(url)}; one page has one Product node, so they must be equal`,
    )
  }
  const type: unknown = product?.['@type']
  if (type !== undefined && type !== PRODUCT_SCHEMA_TYPE && type !== PRODUCT_GROUP_SCHEMA_TYPE) {
    throw new JsonLdInputError('product.@type', 'must be "Product", "ProductGroup" or left out')
  }
  if (product !== undefined) checkNoReviewMarkup(product, 'product')
  if (type === PRODUCT_GROUP_SCHEMA_TYPE) checkGroup(product as ProductGroupFacts)
  if (reviewSummaryAuthor !== undefined && !reviewSummaryAuthor.trim()) {
    throw new JsonLdInputError(
      'reviewSummaryAuthor',
      'must name the organization the AI summary is attributed to, or be left out',
    )
  }
}

/** Whether `offers` is there: an Offer, an AggregateOffer, or a list of at least one. */
function hasOffers(facts: { offers?: unknown }): boolean {
  const { offers } = facts
  return Array.isArray(offers) ? offers.length > 0 : offers !== undefined && offers !== null
}

/** The variations of a group, each typed and naming its group, with their own facts as given. */
function variantsOf(group: ProductGroupFacts): ProductFacts[] {
  return group.hasVariant.map(({ '@type': _type, ...variant }) => ({
    '@type': PRODUCT_SCHEMA_TYPE,
    inProductGroupWithID: group.productGroupID,
    ...variant,
  }))
}

/**
 * The Product (or ProductGroup) node of a page from data of either source, with the review markup
 * nested in it. Null when Google would reject the node: without `aggregateRating`, `review` or
 * `offers` (on the group or a variation), a Product node is not eligible for any product rich result,
 * so none is emitted and nothing is merged.
 */
export function productNode(
  options: ProductJsonLdBaseOptions,
  input: Omit<ReviewMarkupInput, 'ratingDecimals'>,
): ProductJsonLd | null {
  const warn = createWarner(options.logger)
  const ratingDecimals = options.ratingDecimals ?? DEFAULT_RATING_DECIMALS
  const markup = reviewMarkup({ ...input, ratingDecimals }, warn)
  const product = options.product ?? {}
  const group = product['@type'] === PRODUCT_GROUP_SCHEMA_TYPE ? (product as ProductGroupFacts) : undefined
  const { '@type': _type, '@id': _id, ...facts } = product
  const variants = group === undefined ? undefined : variantsOf(group)
  const offered = hasOffers(facts) || (variants?.some(hasOffers) ?? false)
  if (Object.keys(markup).length === 0 && !offered) return null
  if (facts.name === undefined) {
    warn(
      'the Product node has no name, which Google requires: pass product.name, or merge the node into ' +
        "the page's own Product node with mergeJsonLd",
    )
  }
  return {
    '@context': 'https://schema.org',
    '@type': group === undefined ? PRODUCT_SCHEMA_TYPE : PRODUCT_GROUP_SCHEMA_TYPE,
    '@id': options.url,
    ...facts,
    ...(variants === undefined ? {} : { hasVariant: variants }),
    ...markup,
  } as ProductJsonLd
}
