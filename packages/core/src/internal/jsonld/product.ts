import type { ReviewSummary } from '../../types/published.ts'
import {
  aggregateOf,
  DEFAULT_MAX_REVIEWS,
  DEFAULT_RATING_DECIMALS,
  type ReviewData,
  reviewInputs,
} from './markup.ts'
import {
  checkProductOptions,
  type ProductFacts,
  type ProductGroupFacts,
  type ProductJsonLd,
  productNode,
} from './product-node.ts'
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
  /**
   * The language the page shows the reviews in (`'fr'`, `'de-CH'`): a review shown translated is marked
   * up with that translation and its `inLanguage`, so the markup says what the visitor reads.
   * @default undefined (each review as written, in the language of its `locale`)
   */
  locale?: string | undefined
  /**
   * Mark up syndicated reviews too (collected on another site of the brand). Google asks not to mark up
   * reviews taken from other sites, so they are left out by default; the aggregate still counts them.
   * @default false
   */
  syndicatedReviews?: boolean | undefined
  /**
   * The AI-generated summary (`ProductSummary.review_summary`), marked up only with `reviewSummaryAuthor`,
   * as a review by that organization: a machine-written summary is not a consumer's review.
   */
  reviewSummary?: ReviewSummary
}

/**
 * The page's Product node with the review markup Google reads: `aggregateRating` from `rating` and
 * `review` items from `reviews`, each with author, `datePublished` (`publish_date`), `reviewBody` (the
 * text the page shows: the original `review_content`, or the translation shown for `locale`) with its
 * `inLanguage`, and `reviewRating`. Null when Google would reject the node: no rating, no review to
 * mark up and no `offers` among the product facts.
 *
 * @throws JsonLdInputError naming the option at fault.
 */
export function buildProductJsonLd(options: ProductJsonLdOptions): ProductJsonLd | null {
  checkProductOptions(options)
  const { rating, reviewSummary, reviewSummaryAuthor } = options
  return productNode(
    {
      url: options.url,
      product: options.product,
      aggregate: rating === undefined ? undefined : aggregateOf(rating.average, rating.count_total),
      reviews: reviewInputs(options.reviews ?? [], {
        locale: options.locale,
        syndicatedReviews: options.syndicatedReviews,
      }),
      summary:
        reviewSummary === undefined || reviewSummaryAuthor === undefined
          ? undefined
          : {
              authorName: reviewSummaryAuthor,
              datePublished: reviewSummary.last_updated_at,
              reviewBody: reviewSummary.content,
            },
      maxReviews: options.maxReviews ?? DEFAULT_MAX_REVIEWS,
      ratingDecimals: options.ratingDecimals ?? DEFAULT_RATING_DECIMALS,
    },
    createWarner(options.logger),
  )
}
