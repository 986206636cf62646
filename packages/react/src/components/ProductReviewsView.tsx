import type { ProductReview, ProductSummary } from '@verified-reviews/core'
import { getTextFormatter, type Locale } from '@verified-reviews/core/i18n'
import {
  checkLimit,
  DEFAULT_MEDIA_WIDTHS,
  DEFAULT_REVIEWS_LIMIT,
  NO_RATING,
  otherParams,
  pageHrefs,
  parseReviewView,
  rateLinks,
  subLevel,
  variationIds,
} from '@verified-reviews/core/internal'
import {
  buildProductJsonLd,
  type ProductFacts,
  type ProductGroupFacts,
  type ProductJsonLd,
} from '@verified-reviews/core/jsonld'
import type { ReactElement } from 'react'
import { MoreReviews } from '../client.tsx'
import { warnOnce } from '../internal/data.ts'
import { islandMessages } from '../internal/i18n.ts'
import { JsonLdScript } from '../internal/JsonLdScript.tsx'
import { ReviewLinks } from '../internal/ReviewLinks.tsx'
import type { ReviewPageProps } from '../types.ts'
import { RatingSummary } from './RatingSummary.tsx'
import { ReviewList } from './ReviewList.tsx'
import { ReviewSummary } from './ReviewSummary.tsx'

/** Props of {@link ProductReviewsView}: the data `ProductReviews` fetches, and how to show it. */
export interface ProductReviewsViewProps extends ReviewPageProps<ProductReview> {
  /**
   * The product's `product_variation_id`, which the island asks its endpoint for; or the ids of the
   * variations of a product group, whose reviews are shown together (then pages go on by links: the
   * island's endpoint serves one product).
   */
  productId: string | readonly string[]
  /**
   * The product's summary (`GET /products`): rating, histogram, criteria, AI summary; for a group,
   * the variations' summaries combined (`combineProductSummaries`). `undefined` when the API has none.
   */
  summary: Pick<ProductSummary, 'ratings' | 'review_summary' | 'extras'> | undefined
  /**
   * The page's canonical URL: the `@id` of its Product node in the JSON-LD. Without it no JSON-LD is
   * rendered (a development warning says so).
   */
  url?: string | undefined
  /**
   * The page's own product facts (`name`, `image`, `description`, `offers`…), merged into the same
   * Product node; a `ProductGroup` (`productGroupID`, `hasVariant`) for a group of variations. Without
   * `offers`, a product without reviews gets no node (Google rejects a Product with neither).
   */
  product?: ProductFacts | ProductGroupFacts | undefined
  /**
   * The JSON-LD: `true` builds it from the summary and the reviews shown, a node (from
   * `fromStructuredData`) is rendered as it is, `false` or `null` renders none.
   * @default true
   */
  jsonLd?: boolean | ProductJsonLd | null | undefined
  /**
   * Opts in to marking up the AI summary in the JSON-LD, as a review by this organization. Without it
   * the summary is shown (labelled as AI-generated) but not marked up: it is no consumer's review.
   * @default undefined (not marked up)
   */
  reviewSummaryAuthor?: string | undefined
  /**
   * Mark up syndicated reviews (`syndicated_review: true`) in the JSON-LD too; they are shown either
   * way, with their source. Google asks not to mark up reviews collected on other sites.
   * @default false
   */
  jsonLdSyndicatedReviews?: boolean | undefined
  /** `id` of the JSON-LD script element. */
  jsonLdId?: string | undefined
  /** `nonce` of the JSON-LD script element, for a Content Security Policy that allows scripts by nonce. */
  jsonLdNonce?: string | undefined
  /**
   * Address of the endpoint serving further pages (the framework package provides it). With it, the
   * "More reviews" island appends pages in the browser; without it, links lead to the next page.
   */
  endpoint?: string | undefined
  /**
   * Reviews per page, 1 to 50; the island asks for pages of the same size.
   * @default 10
   */
  limit?: number | undefined
}

/** The JSON-LD node the view renders, or `null`; `locale` is the language the reviews are shown in. */
function jsonLdNode(props: ProductReviewsViewProps, locale: Locale): ProductJsonLd | null {
  const { jsonLd = true, url, summary } = props
  if (jsonLd === false || jsonLd === null) return null
  if (jsonLd !== true) return jsonLd
  if (url === undefined) {
    warnOnce('ProductReviews renders no JSON-LD without `url`, the canonical URL of the page')
    return null
  }
  const withSummary = props.reviewSummaryAuthor !== undefined && summary?.review_summary !== undefined
  return buildProductJsonLd({
    url,
    product: props.product,
    rating: summary?.ratings,
    reviews: props.reviews,
    locale,
    syndicatedReviews: props.jsonLdSyndicatedReviews === true,
    ...(withSummary
      ? { reviewSummary: summary.review_summary, reviewSummaryAuthor: props.reviewSummaryAuthor }
      : {}),
  })
}

/**
 * What `ProductReviews` renders, from data already at hand (a build-time sync, a cache): the rating
 * summary with rate links, the AI summary, the reviews with sort and rate links and the next page (or
 * the "More reviews" island with `endpoint`), and the JSON-LD. A product without reviews shows the
 * neutral "No reviews yet" of the rating summary alone.
 *
 * Class names: `vr-product-reviews`; the sort and rate links: `vr-review-controls`, `__sort`, `__filter`,
 * `__label`, `__options`, `__option`; the island's link: `vr-review-list__more`, its live region
 * `vr-review-list__status`.
 *
 * @throws RangeError when `limit` is not a whole number from 1 to 50.
 * @throws JsonLdInputError when `url` is not absolute or `product` names another `@id`.
 */
export function ProductReviewsView(props: ProductReviewsViewProps): ReactElement {
  const {
    productId,
    summary,
    reviews,
    searchParams,
    endpoint,
    limit = DEFAULT_REVIEWS_LIMIT,
    headingLevel = 2,
    mediaWidths = DEFAULT_MEDIA_WIDTHS,
    locale,
    className,
  } = props
  checkLimit(limit)
  const text = getTextFormatter(locale)
  const view = parseReviewView(searchParams)
  const query = otherParams(searchParams)
  const rating = summary?.ratings ?? NO_RATING
  const withReviews = rating.count_total > 0 || reviews.length > 0
  const { previousHref, nextHref } = pageHrefs(query, view, props)
  const [singleId, ...otherIds] = variationIds(productId)
  if (endpoint !== undefined && otherIds.length > 0) {
    warnOnce(
      'ProductReviews of a group of variations goes on by links: the endpoint of the island serves one product',
    )
  }
  const moreReviews = (items: ReactElement[]) =>
    endpoint === undefined || singleId === undefined || otherIds.length > 0 ? (
      <ReviewLinks
        text={text}
        items={items}
        view={view}
        query={query}
        previousHref={previousHref}
        nextHref={nextHref}
      />
    ) : (
      <MoreReviews
        endpoint={endpoint}
        productId={singleId}
        limit={limit}
        locale={text.locale}
        messages={islandMessages(text.locale)}
        sort={view.sort}
        rates={view.rates}
        cursor={view.cursor}
        nextCursor={props.nextCursor ?? null}
        previousHref={previousHref}
        query={query}
        headingLevel={subLevel(headingLevel)}
        mediaWidths={mediaWidths}
      >
        {items}
      </MoreReviews>
    )
  const { rateHref, currentRate } = rateLinks(query, view)
  return (
    <div className={className ? `vr-product-reviews ${className}` : 'vr-product-reviews'}>
      <RatingSummary
        rating={rating}
        criteria={summary?.extras}
        rateHref={rateHref}
        currentRate={currentRate}
        headingLevel={headingLevel}
        locale={text.locale}
      />
      <ReviewSummary summary={summary?.review_summary} headingLevel={headingLevel} locale={text.locale} />
      {withReviews && (
        <ReviewList
          reviews={reviews}
          headingLevel={headingLevel}
          mediaWidths={mediaWidths}
          locale={text.locale}
          moreReviews={moreReviews}
        />
      )}
      <JsonLdScript data={jsonLdNode(props, text.locale)} id={props.jsonLdId} nonce={props.jsonLdNonce} />
    </div>
  )
}
