import { type BrandReview, LANGUAGES, type Language, type ProductReview } from '../../types/published.ts'
import { ValidationError } from '../base/errors.ts'
import { type ReviewLister, runSync, type SyncOutcome, type SyncRunOptions, type SyncWalk } from './engine.ts'
import { keptForm, keptReview } from './kept-review.ts'
import type { ReviewStore } from './store.ts'

/** What `syncProductReviews` needs of a client: `createClient()` from this package satisfies it. */
export interface ProductReviewsClient {
  products: { reviews: ReviewLister<ProductReview> }
}

/** What `syncBrandReviews` needs of a client: `createClient()` from this package satisfies it. */
export interface BrandReviewsClient {
  brands: { reviews: ReviewLister<BrandReview> }
}

/** Options of {@link syncProductReviews}. */
export interface SyncProductReviewsOptions extends SyncRunOptions {
  /** The client whose `products.reviews.list` the sync walks. */
  client: ProductReviewsClient
  /** Where the reviews and the checkpoint are kept. */
  store: ReviewStore<ProductReview>
  /**
   * The languages of the site's pages: the store keeps each review as `keptReview` trims it (the fields
   * the components, the JSON-LD, the reviews endpoint and the sync read, the translations into these
   * languages that a page shows; no order reference, order id or product codes), some 1.1 KB of JSON
   * for three languages instead of 3.1 KB (`pnpm bench:replica-size`). The form is recorded in the checkpoint: a store kept in another
   * form (other languages, or whole) is rebuilt by the next run, a full one (`rebuilt` in its report).
   * The store's reviews then carry only the fields `KEPT_FIELDS` lists.
   * @default undefined: reviews are kept whole, as the API sent them
   */
  replicaLanguages?: readonly Language[] | undefined
}

/** Options of {@link syncBrandReviews}. */
export interface SyncBrandReviewsOptions extends SyncRunOptions {
  /** The client whose `brands.reviews.list` the sync walks. */
  client: BrandReviewsClient
  /** Where the reviews and the checkpoint are kept. */
  store: ReviewStore<BrandReview>
}

/** What one run of {@link syncProductReviews} did. */
export interface ProductReviewsSyncReport extends Omit<SyncOutcome, 'affected'> {
  /** Products with new or updated reviews, sorted: the pages to revalidate. */
  affectedProductIds: string[]
}

/** What one run of {@link syncBrandReviews} did. */
export interface BrandReviewsSyncReport extends Omit<SyncOutcome, 'affected'> {
  /** Shops with new or updated reviews, sorted; the empty string stands for the brand itself. */
  affectedShopKeys: string[]
}

/**
 * Brings `store` up to date with the product reviews of the API, as the spec recommends: the first
 * run walks every review sorted by `publish_date` ascending, following `Link` to the last page; later
 * runs walk newest first (`sort=publish_date&desc=publish_date`) and stop at the first review already
 * held, so a run with fewer new reviews than `limit` makes one call. A checkpoint saved with every page
 * lets an interrupted run (error, abort, crash) resume at the page where it stopped.
 *
 * Updates: a held review that comes back different is stored and counted in `updatedReviews`. An
 * incremental run only sees reviews that the newest-first order brings before the held ones, that is
 * reviews whose `publish_date` moved; an edit that keeps its `publish_date` is found by a run with
 * `mode: 'full'`, which compares every review. A full run also removes the held reviews it did not see
 * (withdrawn upstream), where the store can (`markSeen` and `removeUnseen`, else `removeExcept`);
 * `sweepReplica` finds them between full runs, product by product, from the summaries' review counts.
 *
 * Concurrent calls with the same store share one run.
 *
 * @example
 * const store = createSqliteReviewStore('.cache/reviews.sqlite')
 * const report = await syncProductReviews({ client: createClient(), store })
 * for (const id of report.affectedProductIds) revalidateTag(`reviews:${id}`)
 */
export async function syncProductReviews(
  options: SyncProductReviewsOptions,
): Promise<ProductReviewsSyncReport> {
  const { affected, ...outcome } = await runSync(
    options.client.products.reviews,
    options.store,
    options,
    productWalk(options.replicaLanguages),
  )
  return { ...outcome, affectedProductIds: affected }
}

/** How a product review sync walks: whole reviews, or those of `languages` in their kept form. */
export function productWalk(languages: readonly Language[] | undefined): SyncWalk<ProductReview> {
  if (languages === undefined) return { sinceWatermark: false }
  const unknown = languages.filter((language) => !(LANGUAGES as readonly string[]).includes(language))
  if (unknown.length > 0) {
    throw new ValidationError([
      {
        field: 'replicaLanguages',
        message: `must be among ${LANGUAGES.join(', ')}, not ${unknown.join(', ')}`,
      },
    ])
  }
  return {
    sinceWatermark: false,
    keep: {
      form: keptForm(languages),
      // The store's type stays `ProductReview`: its readers read only the kept fields (KEPT_FIELDS).
      review: (review) => keptReview(review, languages) as ProductReview,
    },
  }
}

/**
 * Brings `store` up to date with the brand and shop reviews of the API, with the same recipe,
 * checkpoint and update rules as {@link syncProductReviews}; changes are reported by shop key.
 *
 * Incremental runs also send `publish_date.gte=<watermark>`, so that a run never walks past the
 * reviews it already holds, even when the first ones it meets have changed. The spec's table for
 * `GET /brands/reviews` does not list date filters (the sandbox serves them): an API that answers
 * 400 to the filtered request is asked again without it, and the run goes on with the spec's recipe.
 */
export async function syncBrandReviews(options: SyncBrandReviewsOptions): Promise<BrandReviewsSyncReport> {
  const { affected, ...outcome } = await runSync(options.client.brands.reviews, options.store, options, {
    sinceWatermark: true,
  })
  return { ...outcome, affectedShopKeys: affected }
}
