import type {
  AggregateRatingNode,
  ItemReviewedReference,
  ReviewNode,
  ReviewSummaryNode,
  StructuredData,
} from '../../types/published.ts'
import { isObject } from '../base/validate.ts'
import {
  checkProductOptions,
  type ProductJsonLd,
  type ProductJsonLdBaseOptions,
  productNode,
} from './product-node.ts'
import { BEST_RATING, WORST_RATING } from './review-markup.ts'
import { StructuredDataError } from './structured-data-error.ts'

/** The blocks of a structured-datas answer, by their member name. */
export type StructuredDataBlock = keyof StructuredData

/** Options of {@link fromStructuredData}. */
export type StructuredDataJsonLdOptions = ProductJsonLdBaseOptions

type Json = Record<string, unknown>

function expectObject(value: unknown, block: string, path: string): Json {
  if (!isObject(value)) throw new StructuredDataError(block, `${path} must be an object`)
  return value
}

function expectString(value: unknown, block: string, path: string): string {
  if (typeof value !== 'string') throw new StructuredDataError(block, `${path} must be a string`)
  return value
}

function expectNumber(value: unknown, block: string, path: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new StructuredDataError(block, `${path} must be a number`)
  }
  return value
}

/** The `itemReviewed` reference of `node`, checked against the page URL when one is known. */
function readItemReviewed(
  node: Json,
  block: string,
  path: string,
  url: string | undefined,
): ItemReviewedReference | undefined {
  if (node.itemReviewed === undefined) return undefined
  const id = expectString(
    expectObject(node.itemReviewed, block, `${path}.itemReviewed`)['@id'],
    block,
    `${path}.itemReviewed.@id`,
  )
  if (url !== undefined && id !== url) {
    throw new StructuredDataError(
      block,
      `${path}.itemReviewed.@id is ${JSON.stringify(id)} but url is ${JSON.stringify(url)}: ` +
        'request the structured data with canonical_url set to the page URL',
    )
  }
  return { '@id': id }
}

function readAggregateRating(value: unknown, block: string, url?: string): AggregateRatingNode {
  const node = expectObject(value, block, 'aggregateRating')
  const itemReviewed = readItemReviewed(node, block, 'aggregateRating', url)
  if (itemReviewed === undefined)
    throw new StructuredDataError(block, 'aggregateRating.itemReviewed is missing')
  return {
    '@type': 'AggregateRating',
    ratingValue: expectNumber(node.ratingValue, block, 'aggregateRating.ratingValue'),
    reviewCount: expectNumber(node.reviewCount, block, 'aggregateRating.reviewCount'),
    // schema.org's defaults, should the API ever leave them out.
    bestRating: expectNumber(node.bestRating, block, 'aggregateRating.bestRating', BEST_RATING),
    worstRating: expectNumber(node.worstRating, block, 'aggregateRating.worstRating', WORST_RATING),
    itemReviewed,
  }
}

function readAuthorName(value: unknown, block: string, path: string): string {
  return expectString(expectObject(value, block, `${path}.author`).name, block, `${path}.author.name`)
}

function readReview(value: unknown, block: string, path: string, url?: string): ReviewNode {
  const node = expectObject(value, block, path)
  const itemReviewed = readItemReviewed(node, block, path, url)
  const rating = expectObject(node.reviewRating, block, `${path}.reviewRating`)
  return {
    '@type': 'Review',
    reviewBody:
      node.reviewBody === undefined ? '' : expectString(node.reviewBody, block, `${path}.reviewBody`),
    datePublished: expectString(node.datePublished, block, `${path}.datePublished`),
    reviewRating: {
      '@type': 'Rating',
      ratingValue: expectNumber(rating.ratingValue, block, `${path}.reviewRating.ratingValue`),
      bestRating: expectNumber(rating.bestRating, block, `${path}.reviewRating.bestRating`, BEST_RATING),
      worstRating: expectNumber(rating.worstRating, block, `${path}.reviewRating.worstRating`, WORST_RATING),
    },
    author: { '@type': 'Person', name: readAuthorName(node.author, block, path) },
    ...(itemReviewed === undefined ? {} : { itemReviewed }),
  }
}

function readSummary(value: unknown, block: string, url?: string): ReviewSummaryNode {
  const node = expectObject(value, block, 'review')
  const itemReviewed = readItemReviewed(node, block, 'review', url)
  return {
    '@type': 'Review',
    reviewBody: expectString(node.reviewBody, block, 'review.reviewBody'),
    datePublished: expectString(node.datePublished, block, 'review.datePublished'),
    author: { '@type': 'Organization', name: readAuthorName(node.author, block, 'review') },
    ...(itemReviewed === undefined ? {} : { itemReviewed }),
  }
}

/** Reads the members of a block other than its `@context`. */
type BlockReader<B extends StructuredDataBlock> = (
  node: Json,
  label: string,
  url: string | undefined,
) => Omit<NonNullable<StructuredData[B]>, '@context'>

const READERS: { [B in StructuredDataBlock]: BlockReader<B> } = {
  ratings: (node, label, url) => ({ aggregateRating: readAggregateRating(node.aggregateRating, label, url) }),
  reviews: (node, label, url) => {
    if (!Array.isArray(node.review)) throw new StructuredDataError(label, 'review must be an array')
    return { review: node.review.map((item, index) => readReview(item, label, `review[${index}]`, url)) }
  },
  reviewSummary: (node, label, url) => ({ review: readSummary(node.review, label, url) }),
}

/**
 * Reads `value` as the `block` member of a structured-datas answer into `result`, checking its form;
 * `label` names the block in errors.
 */
export function readStructuredDataBlock<B extends StructuredDataBlock>(
  result: StructuredData,
  block: B,
  value: unknown,
  label: string,
  url?: string,
): void {
  const node = expectObject(value, label, 'the block')
  const context =
    node['@context'] === undefined ? 'https://schema.org' : expectString(node['@context'], label, '@context')
  const reader: BlockReader<B> = READERS[block]
  result[block] = { '@context': context, ...reader(node, label, url) } as StructuredData[B]
}

const BLOCKS: readonly StructuredDataBlock[] = ['ratings', 'reviews', 'reviewSummary']

/** Checks the form of a whole structured-datas answer (`Accept: application/ld+json`). */
export function readStructuredData(data: unknown, url?: string): StructuredData {
  const answer = expectObject(data, 'structured data', 'the answer')
  const result: StructuredData = {}
  for (const block of BLOCKS) {
    if (answer[block] !== undefined) readStructuredDataBlock(result, block, answer[block], block, url)
  }
  return result
}

/**
 * The page's Product node from the structured-datas operation, shaped and checked as
 * `buildProductJsonLd` does: the blocks become `aggregateRating` and `review` items of one Product node,
 * the AI summary the last item only with `reviewSummaryAuthor`. Reviews are marked up as the API gives
 * them, without `inLanguage` (the blocks do not say it).
 *
 * @throws StructuredDataError when the answer does not have the documented form, or its `itemReviewed`
 * is another URL than `url`.
 * @throws JsonLdInputError naming the option at fault.
 */
export function fromStructuredData(
  data: StructuredData,
  options: StructuredDataJsonLdOptions,
): ProductJsonLd | null {
  checkProductOptions(options)
  const { reviewSummaryAuthor } = options
  const answer = readStructuredData(data, options.url)
  const aggregate = answer.ratings?.aggregateRating
  const summary = reviewSummaryAuthor === undefined ? undefined : answer.reviewSummary?.review
  return productNode(options, {
    aggregate,
    reviews: (answer.reviews?.review ?? []).map((review) => ({
      authorName: review.author.name,
      datePublished: review.datePublished,
      reviewBody: review.reviewBody,
      ratingValue: review.reviewRating.ratingValue,
      bestRating: review.reviewRating.bestRating,
      worstRating: review.reviewRating.worstRating,
    })),
    summary:
      summary === undefined
        ? undefined
        : {
            authorName: reviewSummaryAuthor ?? summary.author.name,
            datePublished: summary.datePublished,
            reviewBody: summary.reviewBody,
          },
    maxReviews: Number.POSITIVE_INFINITY,
  })
}
