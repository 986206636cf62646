import type { ProductRatingsLookupType, VerifiedReviewsClient } from '@verified-reviews/core'
import type { ReactElement } from 'react'
import { type ReviewsErrorHandler, reportError, resolveClient } from '../internal/data.ts'
import { requestRating } from '../internal/ratings-loader.ts'
import { RatingBadge, type RatingBadgeProps } from './RatingBadge.tsx'

/** Props of {@link ProductRating}. */
export interface ProductRatingProps extends Omit<RatingBadgeProps, 'rating'> {
  /** The product, by `product_variation_id` (or by GTIN with `idType: 'product_ean'`). */
  productId: string
  /**
   * What `productId` is.
   * @default 'product_variation_id'
   */
  idType?: ProductRatingsLookupType
  /** The client to call. @default a client built by `createClient()` from the environment */
  client?: VerifiedReviewsClient
  /**
   * Receives an API failure, after which nothing is rendered. A failed bulk call is reported once,
   * not once per product.
   * @default logs to `console.error`
   */
  onError?: ReviewsErrorHandler
}

/**
 * A product's star rating for listing pages and product cards, fetched on the server. Every
 * `ProductRating` of a render asks in the same tick, and their products go out in one bulk ratings
 * call per 200 (`client.products.ratings.list`), not one call each; in React Server Components a
 * product shown twice in one request is asked for once (React `cache()`).
 *
 * A product without reviews renders the neutral state of {@link RatingBadge}; an API failure renders
 * nothing and is reported once to `onError`.
 */
export async function ProductRating(props: ProductRatingProps): Promise<ReactElement | null> {
  const { productId, idType = 'product_variation_id', client, onError, ...badge } = props
  try {
    const vr = await resolveClient(client)
    return <RatingBadge {...badge} rating={await requestRating(vr, idType, productId)} />
  } catch (error) {
    reportError(error, 'ProductRating', onError)
    return null
  }
}
