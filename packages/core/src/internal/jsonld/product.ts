import type { ReviewSummary } from '../../types/published.ts'
import {
  checkProductOptions,
  type ProductJsonLd,
  type ProductJsonLdBaseOptions,
  productNode,
} from './product-node.ts'
import { aggregateOf, DEFAULT_MAX_REVIEWS, type ReviewData, reviewInputs } from './review-markup.ts'

/** The fields of a product rating (`ProductRating`, or `ProductSummary.ratings`) that the markup uses. */
export interface ProductRatingData {
  average: number
  count_total: number
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
  return productNode(options, {
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
  })
}
