import type { StructuredDataParams } from '../../types/params.ts'
import type { ProductReview, ProductSummary } from '../../types/published.ts'
import type { ReviewsCatalog } from '../catalog/local-catalog.ts'
import type { VerifiedReviewsClient } from '../client/client.ts'
import { continuationCursor } from '../cursor/continuation.ts'
import { DEFAULT_REVIEWS_LIMIT, type ReviewView } from '../cursor/review-query.ts'
import type { CursorScope, CursorSigner } from '../cursor/signed-cursor.ts'
import { combineProductSummaries, newestOf, type ProductSummaryView } from '../display/product-group.ts'
import type { ProductJsonLd } from '../jsonld/product-node.ts'
import { fromStructuredData, type StructuredDataJsonLdOptions } from '../jsonld/structured-data.ts'
import type { ReviewStore } from '../sync/store.ts'
import type { ProductSummaryStore } from '../sync/summary-store.ts'
import type { BrandReplica } from './brand-view.ts'
import { replicaViewPage } from './replica-page.ts'
import { type SignedViewPage, signedViewPage } from './view-page.ts'

/**
 * Where a product view comes from: the API at request time ({@link apiSource}), the build's data at
 * build time ({@link buildDataSource}). `ids` are the product's, or a group's variations.
 */
export interface ProductViewSource {
  /** The summaries of `ids`, in their order; undefined for a product the API does not know. */
  summaries(ids: readonly string[]): Promise<(ProductSummary | undefined)[]>
  /** The page of the reviews of `ids` that `view` names, its cursors signed by `signer` for `scope`. */
  page(
    ids: readonly string[],
    view: ReviewView,
    scope: Pick<CursorScope, 'kind' | 'id' | 'limit'>,
    signer: CursorSigner | PromiseLike<CursorSigner>,
  ): Promise<SignedViewPage<ProductReview>>
}

/** The API: two calls, the summaries and the page `view` names (a refused cursor gives the first page). */
export function apiSource(client: Pick<VerifiedReviewsClient, 'products'>): ProductViewSource {
  return {
    async summaries(ids) {
      const { data } = await client.products.list({ product_variation_id: [...ids] })
      return ids.map((id) => data.find((summary) => summary.product_variation_id === id))
    },
    page: (ids, view, scope, signer) =>
      signedViewPage(
        (params) => client.products.reviews.list({ ...params, product_variation_id: [...ids] }),
        view,
        scope,
        signer,
      ),
  }
}

/** Build data by product id, as a build's catalog gives it. */
export type ProductViewData = Pick<ReviewsCatalog, 'summaries' | 'reviews' | 'newestReviews'>

/** Whether `view` is the first page of the newest reviews of every rate: the one page build data holds. */
export function isFirstPage(view: ReviewView): boolean {
  return view.cursor === undefined && view.sort === 'newest' && view.rates.length === 0
}

/**
 * The build's data: no call. It holds the first page of the newest reviews only ({@link isFirstPage}),
 * whose next cursor is a continuation cursor that the API goes on from.
 */
export function buildDataSource(data: ProductViewData): ProductViewSource {
  return {
    async summaries(ids) {
      const found = await data.summaries(ids)
      return ids.map((id) => found.get(id))
    },
    async page(ids, view, scope, signer) {
      if (!isFirstPage(view)) throw new RangeError('build data holds the first page of the newest reviews')
      // The newest `limit` alone where the data can read them so; else every review of each product.
      const first = await (data.newestReviews?.(ids, scope.limit) ??
        Promise.all(ids.map((id) => data.reviews(id))).then((lists) => newestOf(lists, scope.limit)))
      const shown = first.data
      const next = first.more ? continuationCursor(shown) : undefined
      // Signs only a cursor there is: a signer's key is derived on its first use.
      const nextCursor = next && (await (await signer).sign({ ...scope, sort: 'newest', rates: [] }, next))
      return { data: shown, nextCursor, previousCursor: undefined, cursor: undefined }
    },
  }
}

/**
 * The site's replica of the account, as a product view reads it: reviews and product summaries, and
 * where the site shows them, the brand and shop reviews with their statistics.
 */
export interface ProductReplica {
  reviews: ReviewStore<ProductReview>
  summaries: ProductSummaryStore
  /** The brand and shop reviews and statistics, read by the shop page; absent where the replica keeps none. */
  brands?: BrandReplica | undefined
}

/**
 * The site's replica: no call. Every view (any order, rates and page) is one query of the review store
 * ({@link replicaViewPage}).
 */
export function replicaSource(replica: ProductReplica): ProductViewSource {
  const { reviews, summaries } = replica
  return {
    summaries: (ids) => summaries.getMany(ids),
    page: (ids, view, scope, signer) => replicaViewPage(reviews, ids, view, scope, signer),
  }
}

/**
 * The Product node of the structured-datas operation (one call), by default of the aggregate rating
 * and the reviews, and of the AI summary when `reviewSummaryAuthor` opts in to marking it up. A failed
 * call goes to `onError`, when given, and gives null; options the builder refuses reject all the same.
 */
export function structuredDataJsonLd(
  client: Pick<VerifiedReviewsClient, 'products'>,
  params: Omit<StructuredDataParams, 'canonical_url'>,
  options: StructuredDataJsonLdOptions,
  onError?: (error: unknown) => void,
): Promise<ProductJsonLd | null> {
  const blocks = ['aggregate_rating', 'reviews', 'review_summary'] as const
  const filters = options.reviewSummaryAuthor === undefined ? blocks.slice(0, 2) : blocks
  return client.products.structuredData.get({ filters, ...params, canonical_url: options.url }).then(
    (data) => fromStructuredData(data, options),
    onError &&
      ((error: unknown) => {
        onError(error)
        return null
      }),
  )
}

/** What {@link loadProductView} loads. */
export interface ProductViewRequest {
  source: ProductViewSource
  /** `variationIds(productId)`: one product, or the variations of a group shown together. */
  ids: readonly string[]
  view: ReviewView
  /** @default 10 */
  limit?: number | undefined
  /**
   * The key the reviews endpoint checks cursors with. It may come later (an entry imported on demand):
   * the summaries are asked meanwhile.
   */
  signer: CursorSigner | PromiseLike<CursorSigner>
}

/** A product's summary (the variations' combined) and the page of its reviews that the view names. */
export interface ProductView extends SignedViewPage<ProductReview> {
  summary: ProductSummaryView | undefined
}

/**
 * What a product review component shows, from its source: the summary and the page of reviews, in
 * parallel (the JSON-LD's inputs too). A failure of either rejects.
 */
export async function loadProductView(request: ProductViewRequest): Promise<ProductView> {
  const { source, ids, view, limit = DEFAULT_REVIEWS_LIMIT, signer } = request
  const [summaries, page] = await Promise.all([
    source.summaries(ids),
    source.page(ids, view, { kind: 'product', id: ids.join(','), limit }, signer),
  ])
  return { summary: combineProductSummaries(summaries), ...page }
}
