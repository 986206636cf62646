import { cursorSigner } from '@verified-reviews/core/endpoint'
import { productSection, variationIds } from '@verified-reviews/core/internal'
import type { ReviewsCatalog } from '@verified-reviews/core/prefetch'
import {
  BrandReviews as BrandReviewsFromApi,
  ProductRating as ProductRatingFromApi,
  ProductReviews as ProductReviewsFromApi,
  ProductReviewsView,
  RatingBadge,
  type BrandReviewsProps as ReactBrandReviewsProps,
  type ProductRatingProps as ReactProductRatingProps,
  type ProductReviewsProps as ReactProductReviewsProps,
  type ReviewsJsonLdProps as ReactReviewsJsonLdProps,
  type ReviewsErrorHandler,
  ReviewsJsonLd as ReviewsJsonLdFromReact,
} from '@verified-reviews/react'
import type { ReactElement } from 'react'
import { buildCatalog, isBuildPhase } from './build-data.ts'
import { revalidateSeconds, reviewsClient } from './clients.ts'
import { reportBuildError } from './internal/build-check.ts'
import { markFailedRender } from './internal/failed-render.ts'
import { FAILED_RENDER_RETRY_SECONDS } from './internal/failed-render-tag.ts'
import { LOG_PREFIX } from './internal/log-prefix.ts'
import { tagRender } from './internal/render-tags.ts'
import { brandReplicaFor, replicaFor } from './internal/replica.ts'
import { reviewTags } from './tags.ts'

/** Props of {@link ProductReviews}: those of the React component, whose client this package provides. */
export type ProductReviewsProps = Omit<ReactProductReviewsProps, 'client'>
/** Props of {@link ProductRating}: those of the React component, whose client this package provides. */
export type ProductRatingProps = Omit<ReactProductRatingProps, 'client'>
/** Props of {@link BrandReviews}: those of the React component, whose client this package provides. */
export type BrandReviewsProps = Omit<ReactBrandReviewsProps, 'client'>
/** Props of {@link ReviewsJsonLd}: those of the React component, whose client this package provides. */
export type ReviewsJsonLdProps = ReactReviewsJsonLdProps extends infer P
  ? P extends { source: 'api' }
    ? Omit<P, 'client'>
    : P
  : never

/** A product whose build data could not be read (said in the build log, or to `onError`). */
const NO_BUILD_DATA = Symbol('no build data')

/**
 * `read` of the build's catalog during `next build`, the render tagged with the products' `reviewTags`
 * (the page makes no tagged fetch, yet `revalidateTag` must reach it); undefined outside `next build`;
 * `NO_BUILD_DATA` when it cannot be read, which is told once in the build log (or to `onError`), or
 * stops the build (refused credentials, an API out of reach, or any problem with `failOnError`).
 */
async function built<T>(
  productIds: readonly string[],
  component: string,
  onError: ReviewsErrorHandler | undefined,
  read: (catalog: ReviewsCatalog) => Promise<T>,
): Promise<T | undefined | typeof NO_BUILD_DATA> {
  if (!isBuildPhase()) return undefined
  await tagRender([...productIds.map(reviewTags.product), reviewTags.all()], revalidateSeconds())
  try {
    const catalog = await buildCatalog()
    return catalog === undefined ? undefined : await read(catalog)
  } catch (error) {
    if (onError === undefined) reportBuildError(error, component, 'build data')
    else onError(error, { component })
    return NO_BUILD_DATA
  }
}

/**
 * The `onError` of a component that reads the API: the caller's, else during `next build` one line in
 * the build log per problem (or the build stops, as `reportBuildError` says) instead of a stack trace per page.
 */
function errorHandler(
  component: string,
  onError: ReviewsErrorHandler | undefined,
): ReviewsErrorHandler | undefined {
  if (onError !== undefined || !isBuildPhase()) return onError
  return (error) => reportBuildError(error, component, 'API')
}

function logRuntimeFailure(error: unknown, { component }: { component: string }): void {
  console.error(
    `${LOG_PREFIX} ${component} rendered without reviews because the API call failed; the render is ` +
      `kept ${FAILED_RENDER_RETRY_SECONDS} s at most and never replaces a cached render that has them.`,
    error,
  )
}

/**
 * Renders a data component of the React package with the API. When the call fails at request time, the
 * render is marked as failed (`markFailedRender`): cached for seconds instead of the app's hours, and kept
 * out of the cache handlers wherever a good render of the same entry is there to serve instead.
 */
async function failSafe(
  component: string,
  onError: ReviewsErrorHandler | undefined,
  render: (onError: ReviewsErrorHandler | undefined) => ReactElement | null | Promise<ReactElement | null>,
): Promise<ReactElement | null> {
  if (isBuildPhase()) return render(errorHandler(component, onError))
  let failed = false
  const element = await render((error, context) => {
    failed = true
    ;(onError ?? logRuntimeFailure)(error, context)
  })
  if (failed) await markFailedRender()
  return element
}

/**
 * A product's reviews (rating summary, AI summary, first page of reviews with sort and rate links, the
 * "More reviews" island with `endpoint`, JSON-LD) in the first HTML, from the API through the Next.js
 * data cache: every call is tagged `reviewTags.product(productId)`, so the revalidate route refreshes the
 * page when its reviews change, and revalidates after `VERIFIED_REVIEWS_REVALIDATE` seconds (one hour)
 * otherwise.
 *
 * During `next build`, without `searchParams` (a static page), the data comes from the build prefetch
 * (no API call per page), and the island goes on from there with the API, from a continuation cursor
 * signed with the key of the environment's client, the one the reviews route checks.
 *
 * When the API fails at request time, it renders nothing, reports the error once (to `onError`, else the
 * server log), and marks the render as failed: kept 30 s at most, and never stored over a cached render
 * that has the reviews (see `@verified-reviews/next/cache-handlers`).
 *
 * The source is the one core's `productSection` decides (the build's catalog, then the replica, then the
 * API); this component gathers the facts in that order, each with its own tagging and failure handling:
 * the catalog (`built`, then `NO_BUILD_DATA` on a failure), the replica (`replicaFor`), the API (`failSafe`).
 */
export async function ProductReviews(props: ProductReviewsProps): Promise<ReactElement | null> {
  if (props.searchParams === undefined && props.jsonLd !== 'api') {
    // One product, or the variations of a group shown together.
    const ids = variationIds(props.productId)
    const page = await built(ids, 'ProductReviews', props.onError, (catalog) => {
      const client = reviewsClient()
      // The first page on a prerender of the build: `productSection` takes it from the catalog.
      return productSection({
        build: () => catalog,
        client,
        ids,
        view: { sort: 'newest', rates: [] },
        limit: props.limit,
        // The key of the client the reviews route checks cursors with.
        signer: cursorSigner(client),
      })
    })
    if (page === NO_BUILD_DATA) return null
    if (page !== undefined) {
      const { onError: _onError, searchParams: _searchParams, jsonLd, ...view } = props
      return (
        <ProductReviewsView
          {...view}
          summary={page.summary}
          reviews={page.data}
          nextCursor={page.nextCursor}
          jsonLd={jsonLd !== false}
        />
      )
    }
  }
  // Not a prerender of the build: the replica, when this server holds one with the product (every view
  // from it, no API call; tagged, so that the revalidate route reaches the render as it reaches a fetch),
  // else the API, as React's component has `productSection` decide from the replica it is given.
  const ids = variationIds(props.productId)
  const replica = await replicaFor(ids)
  if (replica !== undefined)
    await tagRender([...ids.map(reviewTags.product), reviewTags.all()], revalidateSeconds())
  return failSafe('ProductReviews', props.onError, (onError) =>
    ProductReviewsFromApi({ ...props, onError, client: reviewsClient(), replica }),
  )
}

/**
 * A product's star rating for listings and product cards. Every `ProductRating` of a render goes out in
 * one bulk call per 200 products, tagged with their `reviewTags.product(id)`; during `next build` the
 * ratings come from the build prefetch (no call at all).
 */
export async function ProductRating(props: ProductRatingProps): Promise<ReactElement | null> {
  if ((props.idType ?? 'product_variation_id') === 'product_variation_id') {
    const ratings = await built([props.productId], 'ProductRating', props.onError, (catalog) =>
      catalog.ratings([props.productId]),
    )
    if (ratings === NO_BUILD_DATA) return null
    if (ratings !== undefined) {
      const { productId: _productId, idType: _idType, onError: _onError, ...badge } = props
      return <RatingBadge {...badge} rating={ratings.get(props.productId)} />
    }
  }
  if ((props.idType ?? 'product_variation_id') === 'product_variation_id') {
    const replica = await replicaFor([props.productId])
    if (replica !== undefined) {
      await tagRender([reviewTags.product(props.productId), reviewTags.all()], revalidateSeconds())
      const [summary] = await replica.summaries.getMany([props.productId])
      const { productId: _productId, idType: _idType, onError: _onError, ...badge } = props
      const rating =
        summary?.ratings !== undefined && summary.ratings.count_total > 0 ? summary.ratings : undefined
      return <RatingBadge {...badge} rating={rating} />
    }
  }
  return failSafe('ProductRating', props.onError, (onError) =>
    ProductRatingFromApi({ ...props, onError, client: reviewsClient() }),
  )
}

/**
 * Reviews of the brand or of one shop, with statistics, sort and rate links and pages, tagged
 * `reviewTags.brand()` or `reviewTags.shop(key)`. On a server whose replica holds the brand reviews,
 * every view is read from it, with no API call; until then (the first sync of them runs in the
 * background once pages read a replica), from the API through the Next.js data cache.
 */
export async function BrandReviews(props: BrandReviewsProps): Promise<ReactElement | null> {
  const replica = await brandReplicaFor()
  if (replica !== undefined) {
    const tag = props.shopKey === undefined ? reviewTags.brand() : reviewTags.shop(props.shopKey)
    await tagRender([tag, reviewTags.all()], revalidateSeconds())
  }
  return failSafe('BrandReviews', props.onError, (onError) =>
    BrandReviewsFromApi({ ...props, onError, client: reviewsClient(), replica }),
  )
}

/**
 * The review rich snippets of a product page: built from data the page has (`source: 'data'`, no call),
 * or from the API's structured data (`source: 'api'`), tagged `reviewTags.product(id)`.
 */
export function ReviewsJsonLd(props: ReviewsJsonLdProps): ReactElement | Promise<ReactElement | null> {
  if (props.source !== 'api') return <ReviewsJsonLdFromReact {...props} />
  return failSafe('ReviewsJsonLd', props.onError, (onError) =>
    ReviewsJsonLdFromReact({ ...props, onError, client: reviewsClient() }),
  )
}
