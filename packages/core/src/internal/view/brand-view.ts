import type { BrandRating, BrandReview } from '../../types/published.ts'
import type { VerifiedReviewsClient } from '../client/client.ts'
import type { ReviewView } from '../cursor/review-query.ts'
import type { CursorSigner } from '../cursor/signed-cursor.ts'
import type { BrandRatingStore } from '../sync/brand-rating-store.ts'
import type { ReviewStore } from '../sync/store.ts'
import { replicaViewPage } from './replica-page.ts'
import { type SignedViewPage, signedViewPage } from './view-page.ts'

/** The brand's (or a shop's) statistics and the page of its reviews that the view names. */
export interface BrandView extends SignedViewPage<BrandReview> {
  rating: BrandRating | undefined
}

/**
 * The brand and shop part of the site's replica: the brand reviews (grouped by `shop_key`, `''` for the
 * brand's own) and the statistics of the brand and of each shop.
 */
export interface BrandReplica {
  reviews: ReviewStore<BrandReview>
  ratings: BrandRatingStore
}

/** Where a brand view comes from: the API ({@link brandApiSource}) or the site's replica ({@link brandReplicaSource}). */
export interface BrandViewSource {
  /** The statistics of the brand (`shopKey` undefined) or of one shop. */
  rating(shopKey: string | undefined): Promise<BrandRating | undefined>
  /** The page of the brand's reviews (every shop's included) or of one shop's that `view` names. */
  page(
    shopKey: string | undefined,
    view: ReviewView,
    limit: number,
    signer: CursorSigner | PromiseLike<CursorSigner>,
  ): Promise<SignedViewPage<BrandReview>>
}

const scopeOf = (shopKey: string | undefined, limit: number) =>
  ({ kind: 'brand', id: shopKey ?? '', limit }) as const

/** The API: two calls, the statistics and the page (a refused cursor gives the first page). */
export function brandApiSource(client: Pick<VerifiedReviewsClient, 'brands'>): BrandViewSource {
  const filter = (shopKey: string | undefined) => (shopKey === undefined ? {} : { shop_key: [shopKey] })
  return {
    async rating(shopKey) {
      const ratings = await client.brands.list(
        shopKey === undefined ? { linked_to_shop: false } : filter(shopKey),
      )
      return ratings.data.find((rating) => rating.shop_key === (shopKey ?? ''))
    },
    page: (shopKey, view, limit, signer) =>
      signedViewPage(
        (params) => client.brands.reviews.list({ ...params, ...filter(shopKey) }),
        view,
        scopeOf(shopKey, limit),
        signer,
      ),
  }
}

/**
 * The site's replica: no call. The brand's view lists the reviews of every shop and of the brand itself,
 * as the API's unfiltered list does; a shop's, the reviews of that shop.
 */
export function brandReplicaSource(replica: BrandReplica): BrandViewSource {
  return {
    rating: async (shopKey) => (await replica.ratings.getMany([shopKey ?? '']))[0],
    async page(shopKey, view, limit, signer) {
      const keys = shopKey === undefined ? await replica.reviews.keys() : [shopKey]
      return replicaViewPage(replica.reviews, keys, view, scopeOf(shopKey, limit), signer)
    },
  }
}

/**
 * What a brand review component shows: the statistics of the brand (`shopKey` undefined: the brand, with
 * every review, shops included) or of one shop, and the page of reviews `view` names, its cursors signed
 * by `signer` (a `vr_cursor` it did not sign gives the first page). From the API (`client`: two calls) or
 * from a `source` ({@link brandReplicaSource}: none).
 */
export async function loadBrandView(
  request: {
    shopKey: string | undefined
    view: ReviewView
    limit: number
    /** As `loadProductView`'s: it may come later, the statistics are asked meanwhile. */
    signer: CursorSigner | PromiseLike<CursorSigner>
  } & ({ source: BrandViewSource } | { client: Pick<VerifiedReviewsClient, 'brands'> }),
): Promise<BrandView> {
  const { shopKey, view, limit, signer } = request
  const source = 'source' in request ? request.source : brandApiSource(request.client)
  const [rating, page] = await Promise.all([
    source.rating(shopKey),
    source.page(shopKey, view, limit, signer),
  ])
  return { rating, ...page }
}
