import { type VerifiedReviewsClient, VerifiedReviewsError } from '@verified-reviews/core'
import { cursorSigner } from '@verified-reviews/core/endpoint'
import {
  type BrandView,
  brandSection,
  type ProductView,
  productSection,
  type ReviewView,
} from '@verified-reviews/core/internal'
import { buildWithoutReviewData, reviewDataFailed } from '../../internal/build-check.ts'
import { shared, sharedCatalog, sharedClient } from '../../internal/shared.ts'

/**
 * The shared client, for a component's API calls. During an `astro build` that goes on without review
 * data (the check at its start said why) it throws at once, so that each page renders nothing without
 * asking the API again (a token request per page, or retries against an address out of reach).
 */
export function componentClient(): VerifiedReviewsClient {
  if (buildWithoutReviewData()) throw new VerifiedReviewsError('this build has no review data')
  return sharedClient()
}

/**
 * The summary of a product (`ids`: one, or a group's variations, shown together) and the page of reviews
 * `view` names, from the source `productSection` decides with the facts of Astro: on a page `astro
 * build` prerenders, the build's catalog (one bulk sync and one walk of the product list serve every
 * page), which serves the first page of the newest reviews with a continuation cursor to go on with the
 * API; no replica; else the API, through the client's five-minute cache. Cursors are signed with the
 * key of the shared client, as the React components sign theirs.
 */
export async function productView(
  ids: readonly string[],
  view: ReviewView,
  limit: number,
  prerendered: boolean,
): Promise<ProductView> {
  const client = componentClient()
  return productSection({
    build: prerendered && shared().command === 'build' ? sharedCatalog : undefined,
    client,
    ids,
    view,
    limit,
    signer: cursorSigner(client),
  })
}

/**
 * The statistics of the brand (`shopKey` undefined: the brand, with every review, shops included) or
 * of one shop, and the page of reviews `view` names.
 */
export function brandView(shopKey: string | undefined, view: ReviewView, limit: number): Promise<BrandView> {
  const client = componentClient()
  return brandSection({ client, shopKey, view, limit, signer: cursorSigner(client) })
}

/**
 * Reports an API failure of a component through the integration's logger, once per message, as the
 * React components do by default; during `astro build`, refused credentials or an API out of reach
 * (anything, with `failOnError`) throw instead, which stops the build (see `reviewDataFailed`).
 */
export function reportFailure(component: string, error: unknown): void {
  reviewDataFailed(`${component} has no review data`, error, 'log')
}
