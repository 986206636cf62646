import type { BrandReview, ProductReview } from '../../types/published.ts'

/** A review a sync can hold: product reviews are grouped by product, brand reviews by shop. */
export type SyncedReview = ProductReview | BrandReview

/** Where a sync stands, saved after every page so that an interrupted run resumes where it stopped. */
export interface SyncCheckpoint {
  /** `full` or `incremental` while a run is under way; `idle` once the last run completed. */
  phase: 'full' | 'incremental' | 'idle'
  /** Cursor of the next page of the run under way; absent when the run has to start over. */
  cursor?: string
  /** Page size the cursor was issued with: a cursor is only valid with the same limit. */
  limit?: number
  /**
   * Newest `publish_date` held when the run under way started (or, when idle, when the last run
   * ended). An incremental run stops at a held, unchanged review published at or before it.
   */
  watermark?: string
  /** Newest `publish_date` the run under way has seen so far. */
  newest?: string
  /** New reviews found so far by the run under way (by the last run when idle). */
  newReviews: number
  /** Held reviews that came back different, so far. */
  updatedReviews: number
  /** Products (or shops) whose reviews changed, so far. */
  affected: string[]
  /** When the last run completed (ISO 8601). */
  completedAt?: string
  /** Mode of the last completed run. */
  lastMode?: 'full' | 'incremental'
  /**
   * The products whose reviews the store holds, sorted, when it holds only some: the reviews of the
   * products a build named, fetched by their ids. Absent when the store holds the whole account's
   * reviews (a sync), so that a sync of the account never takes such a store for one of its own.
   */
  products?: string[]
}

/**
 * Where a sync keeps reviews and its checkpoint. Reviews are keyed by `review_id` and grouped by
 * product (`product_variation_id`) for product reviews, by shop (`shop_key`, empty for the brand) for
 * brand reviews. {@link createMemoryReviewStore} (tests, small sites) and {@link createSqliteReviewStore}
 * (what must survive a process) are the embedded stores; any database can implement this interface.
 */
export interface ReviewStore<R extends SyncedReview = ProductReview> {
  /** The review with this id, or undefined. */
  get(reviewId: string): Promise<R | undefined>
  /** The reviews with these ids, in the same order, undefined where none is held. */
  getMany(reviewIds: readonly string[]): Promise<(R | undefined)[]>
  /** Whether a review with this id is held. */
  has(reviewId: string): Promise<boolean>
  /**
   * Stores the reviews (replacing held ones with the same id) and, when given, the checkpoint, as one
   * write where the store can, so that a checkpoint never runs ahead of the reviews it counts.
   */
  putMany(reviews: readonly R[], checkpoint?: SyncCheckpoint): Promise<void>
  /** The reviews of one product (or shop), newest published first. */
  list(key: string): Promise<R[]>
  /** Every product id (or shop key) that has at least one review, sorted. */
  keys(): Promise<string[]>
  /** Every review held. */
  all(): Promise<R[]>
  /** Number of reviews held. */
  count(): Promise<number>
  /** The saved checkpoint, or undefined before the first sync. */
  getCheckpoint(): Promise<SyncCheckpoint | undefined>
  /** Saves the checkpoint. */
  setCheckpoint(checkpoint: SyncCheckpoint): Promise<void>
}

/** The product id of a product review, the shop key of a brand review. */
export function groupOf(review: SyncedReview): string {
  return 'product_variation_id' in review ? review.product_variation_id : review.shop_key
}

/** Newest published first, ties by review id, as a store lists a product's reviews. */
export function newestFirst(a: SyncedReview, b: SyncedReview): number {
  if (a.publish_date !== b.publish_date) return a.publish_date < b.publish_date ? 1 : -1
  return a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0
}
