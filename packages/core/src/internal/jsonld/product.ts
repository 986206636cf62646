import type { ReviewSummary } from '../../types/published.ts'
import { JsonLdInputError } from './json-ld-input-error.ts'
import {
  BEST_RATING,
  DEFAULT_MAX_REVIEWS,
  DEFAULT_RATING_DECIMALS,
  type ReviewData,
  reviewInputs,
  WORST_RATING,
} from './markup.ts'
import { checkProductOptions, type ProductFacts, type ProductJsonLd, productNode } from './product-node.ts'
import { createWarner, type JsonLdLogger } from './warnings.ts'

/** The fields of a product rating (`ProductRating`, or `ProductSummary.ratings`) that the markup uses. */
export interface ProductRatingData {
  average: number
  count_total: number
}

/** Options shared by {@link buildProductJsonLd} and `fromStructuredData`. */
export interface ProductJsonLdBaseOptions {
  /** The page's canonical URL: becomes the Product node's `@id`. */
  url: string
  /**
   * What the page itself says about the product (`name`, `sku`, `gtin13`, `brand`, `image`, `description`,
   * `offers`…), merged into the same node so that the page carries one Product node. Google requires
   * `name`; without it the node is a fragment for `mergeJsonLd` to merge into the page's own node.
   */
  product?: ProductFacts
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
}

/** Options of {@link buildProductJsonLd}. */
export interface ProductJsonLdOptions extends ProductJsonLdBaseOptions {
  /** The product's rating (`ProductRating` or `ProductSummary.ratings`); an aggregate of zero reviews is left out. */
  rating?: ProductRatingData
  /**
   * The product's reviews (`ProductReview`), in any order: the newest `maxReviews` by `publish_date` are
   * marked up, as the structured-datas operation does, leaving out those Google would reject (no author name).
   */
  reviews?: readonly ReviewData[]
  /**
   * Most reviews to mark up; the structured-datas operation's default `reviews_limit`.
   * @default 5
   */
  maxReviews?: number
  /** The AI-generated summary (`ProductSummary.review_summary`), marked up as a review by `reviewSummaryAuthor`. */
  reviewSummary?: ReviewSummary
  /** Name of the organization the review summary is attributed to; required with `reviewSummary`. */
  reviewSummaryAuthor?: string
}

/**
 * The page's Product node with the review markup Google reads: `aggregateRating` from `rating` and
 * `review` items from `reviews`, each with author, `datePublished` (`publish_date`), `reviewBody` (the
 * original `review_content`, as the consumer wrote it) and `reviewRating`. Null when there is nothing to
 * mark up (no product facts, no reviews, no rating).
 *
 * @throws JsonLdInputError naming the option at fault.
 */
export function buildProductJsonLd(options: ProductJsonLdOptions): ProductJsonLd | null {
  checkProductOptions(options)
  const { rating, reviewSummary } = options
  if (reviewSummary !== undefined && !options.reviewSummaryAuthor?.trim()) {
    throw new JsonLdInputError(
      'reviewSummaryAuthor',
      'is required with reviewSummary: name the organization the AI summary is attributed to',
    )
  }
  return productNode(
    {
      url: options.url,
      product: options.product,
      aggregate:
        rating === undefined
          ? undefined
          : {
              ratingValue: rating.average,
              reviewCount: rating.count_total,
              bestRating: BEST_RATING,
              worstRating: WORST_RATING,
            },
      reviews: reviewInputs(options.reviews ?? []),
      summary:
        reviewSummary === undefined
          ? undefined
          : {
              authorName: options.reviewSummaryAuthor ?? '',
              datePublished: reviewSummary.last_updated_at,
              reviewBody: reviewSummary.content,
            },
      maxReviews: options.maxReviews ?? DEFAULT_MAX_REVIEWS,
      ratingDecimals: options.ratingDecimals ?? DEFAULT_RATING_DECIMALS,
    },
    createWarner(options.logger),
  )
}
