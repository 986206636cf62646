import type { StructuredDataFilter, VerifiedReviewsClient } from '@verified-reviews/core'
import { structuredDataJsonLd } from '@verified-reviews/core/internal'
import {
  buildProductJsonLd,
  type ProductJsonLdOptions,
  type StructuredDataJsonLdOptions,
} from '@verified-reviews/core/jsonld'
import type { ReactElement } from 'react'
import { type ReviewsErrorHandler, reportError, resolveClient } from '../internal/data.ts'
import { JsonLdScript, type JsonLdScriptAttributes } from '../internal/JsonLdScript.tsx'

/**
 * Props of {@link ReviewsJsonLd} built from data the page already fetched: the options of the core's
 * `buildProductJsonLd` (`url`, `product`, `rating`, `reviews`, `maxReviews`, `locale`,
 * `syndicatedReviews`, `reviewSummary`, `reviewSummaryAuthor`, `ratingDecimals`, `logger`) and the
 * script's attributes. Pass `locale` when the page shows the reviews translated, so that the markup
 * carries the text shown. For a group of variations, pass a `ProductGroup` as `product` and their
 * ratings combined (`combineRatings`) as `rating`.
 */
export interface ReviewsJsonLdDataProps extends ProductJsonLdOptions, JsonLdScriptAttributes {
  /**
   * Where the markup comes from: `data`, the ratings and reviews given here (no API call).
   * @default 'data'
   */
  source?: 'data'
}

/**
 * Props of {@link ReviewsJsonLd} taken from the API's structured-datas operation
 * (`client.products.structuredData.get`), an async Server Component then.
 */
export interface ReviewsJsonLdApiProps extends StructuredDataJsonLdOptions, JsonLdScriptAttributes {
  /** Where the markup comes from: `api`, the structured-datas operation. */
  source: 'api'
  /**
   * The product's `product_variation_id`; several variations are merged into one product (pass a
   * `ProductGroup` as `product` so that their aggregate goes on the group).
   */
  productId: string | readonly string[]
  /**
   * Blocks to ask for. The review summary block is marked up only with `reviewSummaryAuthor`.
   * @default the aggregate rating and the reviews, and the review summary with `reviewSummaryAuthor`
   */
  filters?: StructuredDataFilter | readonly StructuredDataFilter[]
  /** Most reviews marked up, 1 to 100. @default 5 */
  reviewsLimit?: number
  /** The client to call. @default a client built by `createClient()` from the environment */
  client?: VerifiedReviewsClient
  /**
   * Receives an API failure, after which nothing is rendered. Each failure is reported once.
   * @default logs to `console.error`
   */
  onError?: ReviewsErrorHandler
}

/** Props of {@link ReviewsJsonLd}: from data already fetched, or from the API. */
export type ReviewsJsonLdProps = ReviewsJsonLdDataProps | ReviewsJsonLdApiProps

async function fromApi(props: ReviewsJsonLdApiProps): Promise<ReactElement | null> {
  const { productId, filters, reviewsLimit, client, onError, id, nonce, source: _source, ...options } = props
  try {
    const vr = await resolveClient(client)
    const node = await structuredDataJsonLd(
      vr,
      {
        product_variation_id: productId,
        ...(filters === undefined ? {} : { filters }),
        ...(reviewsLimit === undefined ? {} : { reviews_limit: reviewsLimit }),
      },
      options,
    )
    return <JsonLdScript data={node} id={id} nonce={nonce} />
  } catch (error) {
    reportError(error, 'ReviewsJsonLd', onError)
    return null
  }
}

/**
 * The review rich snippets of a product page: one `<script type="application/ld+json">` holding the
 * page's one Product node (`@id` = `url`) with `aggregateRating` and `review` items, serialized by the
 * core's `serializeJsonLd` (so no review text can end the element). Pass the page's own product facts
 * as `product` (`name`, `sku`, `offers`…) and they are merged into the same node, so the page carries
 * one Product node.
 *
 * With `source: 'data'` (the default) the node is built from `rating` and `reviews` already fetched, and
 * the component is synchronous. With `source: 'api'` it is an async Server Component that asks the
 * structured-datas operation; if that call fails it renders nothing and reports the error to `onError`.
 * Renders nothing when there is nothing to mark up.
 *
 * @throws JsonLdInputError for options the builder refuses (a `url` that is not absolute, a `product`
 * with another `@id`).
 */
export function ReviewsJsonLd(props: ReviewsJsonLdProps): ReactElement | null | Promise<ReactElement | null> {
  if (props.source === 'api') return fromApi(props)
  const { id, nonce, source: _source, ...options } = props
  return <JsonLdScript data={buildProductJsonLd(options)} id={id} nonce={nonce} />
}
