import type { VerifiedReviewsClient } from '../../client.ts'
import type { BrandRating, BrandReview } from '../../types/published.ts'
import type { CursorSigner } from '../endpoint/signed-cursor.ts'
import type { ReviewView } from './review-query.ts'
import { type SignedViewPage, signedViewPage } from './view-page.ts'

/** The brand's (or a shop's) statistics and the page of its reviews that the view names. */
export interface BrandView extends SignedViewPage<BrandReview> {
  rating: BrandRating | undefined
}

/**
 * What a brand review component shows, from the API: the statistics of the brand (`shopKey` undefined:
 * the brand, with every review, shops included) or of one shop, and the page of reviews `view` names,
 * its cursors signed by `signer` (a `vr_cursor` it did not sign gives the first page). Two calls.
 */
export async function loadBrandView(request: {
  client: Pick<VerifiedReviewsClient, 'brands'>
  shopKey: string | undefined
  view: ReviewView
  limit: number
  /** As `loadProductView`'s: it may come later, the statistics are asked meanwhile. */
  signer: CursorSigner | PromiseLike<CursorSigner>
}): Promise<BrandView> {
  const { client, shopKey, view, limit, signer } = request
  const shopFilter = shopKey === undefined ? {} : { shop_key: [shopKey] }
  const [ratings, page] = await Promise.all([
    client.brands.list(shopKey === undefined ? { linked_to_shop: false } : shopFilter),
    signedViewPage(
      (params) => client.brands.reviews.list({ ...params, ...shopFilter }),
      view,
      { kind: 'brand', id: shopKey ?? '', limit },
      signer,
    ),
  ])
  return { rating: ratings.data.find((rating) => rating.shop_key === (shopKey ?? '')), ...page }
}
