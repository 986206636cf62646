import type { VerifiedReviewsClient } from '@verified-reviews/core'
import {
  type BrandReplica,
  brandSection,
  checkLimit,
  DEFAULT_REVIEWS_LIMIT,
} from '@verified-reviews/core/internal'
import type { ReactElement } from 'react'
import {
  type ReviewsErrorHandler,
  reportError,
  resolveClient,
  type SearchParamsInput,
} from '../internal/data.ts'
import { viewPage } from '../internal/view-page.ts'
import { BrandReviewsView, type BrandReviewsViewProps } from './BrandReviewsView.tsx'

/** Props of {@link BrandReviews}. */
export interface BrandReviewsProps
  extends Omit<
    BrandReviewsViewProps,
    'rating' | 'reviews' | 'nextCursor' | 'previousCursor' | 'searchParams' | 'shopKey'
  > {
  /** One shop of the brand (`shop_key`); without it, the brand and every review of it, shops included. */
  shopKey?: string
  /** The page's search params (`vr_cursor`, `vr_sort`, `vr_rate`), as the framework gives them. */
  searchParams?: SearchParamsInput
  /**
   * Reviews per page, 1 to 50.
   * @default 10
   */
  limit?: number
  /** The client to call. @default a client built by `createClient()` from the environment */
  client?: VerifiedReviewsClient
  /**
   * The brand part of the site's replica (brand and shop reviews and statistics, kept current by a
   * sync): the statistics and every view are read from it, with no API call; the client then only signs
   * the cursors. `@verified-reviews/next` passes the one of the process.
   * @default undefined (the API)
   */
  replica?: BrandReplica | undefined
  /**
   * Receives an API failure, after which nothing is rendered. Each failure is reported once.
   * @default logs to `console.error`
   */
  onError?: ReviewsErrorHandler
}

/**
 * Reviews of the brand, or of one of its shops, fetched on the server: the 12-month and 5-year
 * statistics, then a page of reviews with sort and rate links and links to the other pages. Two calls,
 * in parallel. No JSON-LD: Google treats reviews a business collects about itself as self-serving. The
 * `vr_cursor` of its links is signed with the client's cursor key; one it did not sign shows the first page.
 *
 * A brand or shop without reviews renders its neutral state; an API failure renders nothing and is
 * reported once to `onError`.
 *
 * @throws RangeError when `limit` is not a whole number from 1 to 50.
 */
export async function BrandReviews(props: BrandReviewsProps): Promise<ReactElement | null> {
  const { shopKey, limit = DEFAULT_REVIEWS_LIMIT, client, replica, onError, searchParams, ...shown } = props
  checkLimit(limit)
  try {
    const params = await searchParams
    const vr = await resolveClient(client)
    const { page, searchParams: pageParams } = await viewPage(vr, params, (view, signer) =>
      brandSection({ replica, client: vr, shopKey, view, limit, signer }),
    )
    return (
      <BrandReviewsView
        {...shown}
        rating={page.rating}
        shopKey={shopKey}
        reviews={page.data}
        nextCursor={page.nextCursor}
        previousCursor={page.previousCursor}
        searchParams={pageParams}
      />
    )
  } catch (error) {
    reportError(error, 'BrandReviews', onError)
    return null
  }
}
