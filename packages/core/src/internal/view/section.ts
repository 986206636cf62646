import type { VerifiedReviewsClient } from '../client/client.ts'
import type { ReviewView } from '../cursor/review-query.ts'
import type { CursorSigner } from '../cursor/signed-cursor.ts'
import {
  type BrandReplica,
  type BrandView,
  brandApiSource,
  brandReplicaSource,
  loadBrandView,
} from './brand-view.ts'
import {
  apiSource,
  buildDataSource,
  isFirstPage,
  loadProductView,
  type ProductReplica,
  type ProductView,
  type ProductViewData,
  type ProductViewSource,
  replicaSource,
} from './product-view.ts'

/**
 * What a framework knows when it renders a product section: each one gathers these facts its own way
 * (Next.js: `next build` and the process's replica; Astro: a prerendered page of `astro build`; React:
 * the props) and {@link productSection} decides from them where the section's data comes from.
 */
export interface ProductSectionFacts {
  /**
   * The build's catalog, when this render is a prerender of the build; undefined otherwise. Read only
   * when the view is the one page build data holds ({@link isFirstPage}): a catalog may open its store.
   */
  build?: (() => ProductViewData) | undefined
  /** The site's replica, when this server holds one with the product. */
  replica?: ProductReplica | undefined
  /** The client whose API serves the view when neither the build's catalog nor a replica does. */
  client: Pick<VerifiedReviewsClient, 'products'>
  /** `variationIds(productId)`: one product, or the variations of a group shown together. */
  ids: readonly string[]
  view: ReviewView
  /** @default 10 */
  limit?: number | undefined
  /** The key the reviews endpoint checks cursors with (it may come later, as `loadProductView`'s). */
  signer: CursorSigner | PromiseLike<CursorSigner>
}

/** Where a product section's data comes from, in the order {@link productSectionSource} tries them. */
export type ProductSectionOrigin = 'build' | 'replica' | 'api'

/**
 * The source of a product section, in this order:
 * 1. the build's catalog, for the first page of the newest reviews on a prerender of the build (no call;
 *    its next cursor is a continuation cursor that a replica or the API goes on from);
 * 2. the replica, when the server holds one with the product (no call, every view);
 * 3. the API, through the client (two calls).
 */
export function productSectionSource(facts: ProductSectionFacts): {
  origin: ProductSectionOrigin
  source: ProductViewSource
} {
  if (facts.build !== undefined && isFirstPage(facts.view))
    return { origin: 'build', source: buildDataSource(facts.build()) }
  if (facts.replica !== undefined) return { origin: 'replica', source: replicaSource(facts.replica) }
  return { origin: 'api', source: apiSource(facts.client) }
}

/**
 * What a product section shows (the combined summary and the page of reviews the view names, the
 * JSON-LD's inputs too), from the source {@link productSectionSource} decides. A failure rejects: each
 * framework reports it its own way.
 */
export function productSection(facts: ProductSectionFacts): Promise<ProductView> {
  const { ids, view, limit, signer } = facts
  return loadProductView({ source: productSectionSource(facts).source, ids, view, limit, signer })
}

/** What a framework knows when it renders a brand section (the brand's or one shop's). */
export interface BrandSectionFacts {
  /** The brand part of the site's replica, when this server holds it. */
  replica?: BrandReplica | undefined
  /** The client whose API serves the view without a replica. */
  client: Pick<VerifiedReviewsClient, 'brands'>
  /** Undefined: the brand, with every review, shops included; else one shop. */
  shopKey: string | undefined
  view: ReviewView
  limit: number
  signer: CursorSigner | PromiseLike<CursorSigner>
}

/**
 * What a brand section shows: the statistics and the page of reviews the view names, from the replica
 * when the server holds one (no call, every view), else from the API (two calls). A build's brand
 * reviews reach a section through the replica they are copied into, never as a catalog of their own.
 */
export function brandSection(facts: BrandSectionFacts): Promise<BrandView> {
  const { replica, client, shopKey, view, limit, signer } = facts
  const source = replica === undefined ? brandApiSource(client) : brandReplicaSource(replica)
  return loadBrandView({ source, shopKey, view, limit, signer })
}
