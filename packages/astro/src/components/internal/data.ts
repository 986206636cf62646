import {
  type BrandRating,
  type BrandReview,
  type ProductReview,
  type VerifiedReviewsClient,
  VerifiedReviewsError,
} from '@verified-reviews/core'
import {
  type CursorScope,
  cursorSigner,
  listProductReviews,
  signedViewPage,
} from '@verified-reviews/core/endpoint'
import {
  combineProductSummaries,
  type ProductSummaryView,
  type ReviewView,
  type ViewParams,
  variationIds,
} from '@verified-reviews/core/view'
import { buildWithoutReviewData, reviewDataFailed } from '../../internal/build-check.ts'
import { shared, sharedCatalog, sharedClient } from '../../internal/shared.ts'

/**
 * Whether a page is rendered by `astro build`: then one bulk sync and one walk of the product list
 * serve every page; a page rendered on demand (or in `astro dev`) asks for its own data, through the
 * client's five-minute cache.
 */
function fromCatalog(prerendered: boolean): boolean {
  return prerendered && shared().command === 'build'
}

/**
 * The shared client, for a component's API calls. During an `astro build` that goes on without review
 * data (the check at its start said why) it throws at once, so that each page renders nothing without
 * asking the API again (a token request per page, or retries against an address out of reach).
 */
export function componentClient(): VerifiedReviewsClient {
  if (buildWithoutReviewData()) throw new VerifiedReviewsError('this build has no review data')
  return sharedClient()
}

/** A page of reviews, its cursors signed, and the signed cursor it was asked with (undefined for a first page). */
interface ViewPage<Item> {
  data: Item[]
  nextCursor: string | undefined
  previousCursor: string | undefined
  cursor: string | undefined
}

/**
 * The page of reviews a view names, through `list`. `vr_cursor` is taken only when the key of the shared
 * client signed it for this list and page size; an unsigned, tampered or refused cursor falls back to the
 * first page. The cursors of the page are signed with that key, as the React components sign theirs.
 */
function viewPage<Item>(
  list: (
    params: ViewParams,
  ) => PromiseLike<{ data: Item[]; nextCursor?: string | undefined; previousCursor?: string | undefined }>,
  view: ReviewView,
  scope: Pick<CursorScope, 'kind' | 'id' | 'limit'>,
): Promise<ViewPage<Item>> {
  return signedViewPage(list, view, scope, cursorSigner(sharedClient()))
}

/** A product's summary (rating, criteria, AI summary) and one page of its reviews. */
export interface ProductView extends ViewPage<ProductReview> {
  summary: ProductSummaryView | undefined
}

/**
 * The summary of a product and the page of reviews `view` names. During `astro build` the first page of
 * the newest reviews comes from the build's sync, with a continuation cursor to go on with the API.
 * `productId` may list the variations of a product group: their reviews are shown together and their
 * summaries combined.
 */
export async function productView(
  productId: string | readonly string[],
  view: ReviewView,
  limit: number,
  prerendered: boolean,
): Promise<ProductView> {
  const ids = variationIds(productId)
  const client = componentClient()
  const first = view.cursor === undefined && view.sort === 'newest' && view.rates.length === 0
  if (fromCatalog(prerendered) && first) {
    const page = await sharedCatalog().productPage(ids, { limit, signer: cursorSigner(client) })
    return {
      summary: page.summary,
      data: page.reviews,
      nextCursor: page.nextCursor,
      previousCursor: undefined,
      cursor: undefined,
    }
  }
  const [summaries, page] = await Promise.all([
    client.products.list({ product_variation_id: ids }),
    viewPage(
      (params) =>
        listProductReviews((list, options) => client.products.reviews.list(list, options), {
          ...params,
          product_variation_id: ids,
        }),
      view,
      { kind: 'product', id: ids.join(','), limit },
    ),
  ])
  const summary = combineProductSummaries(
    ids.map((id) => summaries.data.find((found) => found.product_variation_id === id)),
  )
  return { summary, ...page }
}

/** The brand's (or a shop's) statistics and one page of its reviews. */
export interface BrandView extends ViewPage<BrandReview> {
  rating: BrandRating | undefined
}

/**
 * The statistics of the brand (`shopKey` undefined: the brand, with every review, shops included) or
 * of one shop, and the page of reviews `view` names.
 */
export async function brandView(
  shopKey: string | undefined,
  view: ReviewView,
  limit: number,
): Promise<BrandView> {
  const client = componentClient()
  const shopFilter = shopKey === undefined ? {} : { shop_key: [shopKey] }
  const [ratings, page] = await Promise.all([
    client.brands.list(shopKey === undefined ? { linked_to_shop: false } : { shop_key: [shopKey] }),
    viewPage((params) => client.brands.reviews.list({ ...params, ...shopFilter }), view, {
      kind: 'brand',
      id: shopKey ?? '',
      limit,
    }),
  ])
  return { rating: ratings.data.find((rating) => rating.shop_key === (shopKey ?? '')), ...page }
}

/**
 * Reports an API failure of a component through the integration's logger, once per message, as the
 * React components do by default; during `astro build`, refused credentials or an API out of reach
 * (anything, with `failOnError`) throw instead, which stops the build (see `reviewDataFailed`).
 */
export function reportFailure(component: string, error: unknown): void {
  reviewDataFailed(`${component} has no review data`, error, 'log')
}
