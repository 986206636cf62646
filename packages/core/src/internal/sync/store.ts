import type { BrandReview, ProductReview } from '../../types/published.ts'
import type { KeptForm } from './kept-review.ts'

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
  /**
   * The form the store's reviews are kept in (`keptReview`'s fields and languages, as
   * `replicaLanguages` asked); absent when they are kept whole, as the API sent them. A sync that keeps
   * another form makes a full walk, which stores every review again in its form.
   */
  kept?: KeptForm
  /**
   * The stamp of the full run under way (or, when idle, of the last full run), in epoch milliseconds:
   * what that run marks each review it sees with ({@link ReviewStore.markSeen}), so that at its end it
   * removes what it did not see ({@link ReviewStore.removeUnseen}), even when it was interrupted and
   * resumed. Absent in checkpoints of earlier versions: such a run removes nothing.
   */
  generation?: number
  /**
   * `true` while a full run that began over an empty store is under way: every review it holds is one
   * this run saw, so it neither marks them nor removes any at its end, also when it was interrupted
   * and resumed. Absent otherwise, and once the run completed.
   */
  fromEmpty?: true
  /**
   * When the replica's summaries were last compared with its reviews (`sweepReplica`), and the products
   * that sweep synced again on their own, each with when: the build's summaries count as a sweep.
   */
  sweep?: SweepStamp
}

/** What {@link SyncCheckpoint.sweep} records: the last sweep, and the products resynced by sweeps (ISO 8601 dates). */
export interface SweepStamp {
  /** When the summaries were last fetched for every held product (by a sweep, or by the build). */
  at: string
  /** Products whose reviews a sweep fetched again, with when, kept for a day. */
  resynced: Record<string, string>
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
  /**
   * One page of a view of the reviews of `query.keys` (an order, rates, a position), read through an
   * index. Optional: without it a view reads `list` of each key and sorts in memory ({@link queryByList}).
   */
  query?(query: ReviewStoreQuery): Promise<ReviewStorePage<R>>
  /** Every product id (or shop key) that has at least one review, sorted. */
  keys(): Promise<string[]>
  /**
   * Removes every held review whose id is not in `kept`, and resolves to the products (or shops) of
   * those removed, sorted: what a full sync that walked the whole account did not see was removed
   * upstream. Optional: a store without it keeps such reviews.
   */
  removeExcept?(kept: ReadonlySet<string>): Promise<string[]>
  /**
   * Marks these review ids (held or not yet: a review stored after is marked too) as seen by the full
   * run stamped `generation`; a mark never goes back to an earlier generation. Optional, with
   * {@link removeUnseen}: a full sync then removes what it did not see without holding every id in
   * memory (else it uses {@link removeExcept}, which does), and even when it was interrupted and resumed.
   */
  markSeen?(reviewIds: readonly string[], generation: number): Promise<void>
  /**
   * Removes every held review not marked by the run `generation` or a later one, then forgets the marks
   * of that run and of earlier ones (the sync calls it once its run is saved as completed, so a completed
   * run leaves no marks behind: only a concurrent later run's stay), and resolves to the products (or
   * shops) of those removed, sorted.
   */
  removeUnseen?(generation: number): Promise<string[]>
  /**
   * Removes the reviews with these ids (an id not held is skipped), and resolves to their products (or
   * shops), sorted. Optional: a sweep that fetches a product's reviews again then keeps those it did not see.
   */
  removeMany?(reviewIds: readonly string[]): Promise<string[]>
  /**
   * How many reviews each of these products (or shops) has, in their order. Optional: without it they
   * are counted through `list`.
   */
  countByKey?(keys: readonly string[]): Promise<number[]>
  /**
   * Readies the store for a full sync that started from an empty store, whose writes are then every
   * review of the account, and resolves to the function that ends it: the sync calls that once its walk
   * is over, completed or not, before it resolves. Reads stay correct in between, perhaps slower.
   * Optional. The SQLite store drops the indexes its views read through and builds each once at the end,
   * from the whole table, rather than inserting every review into them, and holds pages to write several
   * in one transaction; `getMany` sees the pages put before it either way, as a sync compares each page.
   */
  bulkLoad?(): Promise<() => Promise<void>>
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

/** The orders a view of reviews can take, as the page URL names them. */
export type StoreOrder = 'newest' | 'oldest' | 'highest' | 'lowest'

/**
 * Where a page of a view ends or starts: the value the order sorts on (`publish_date` in epoch
 * milliseconds for `newest` and `oldest`, `review_rate` for `highest` and `lowest`) and the review id,
 * which breaks ties (ascending in every order, as the API sorts).
 */
export interface ReviewPosition {
  value: number
  id: string
}

/** One page of the reviews of some products (or shops) in one order, as {@link ReviewStore.query} reads it. */
export interface ReviewStoreQuery {
  /** Product ids (or shop keys) whose reviews are listed together: one product, or a group's variations. */
  keys: readonly string[]
  order: StoreOrder
  /** The rates kept; empty for every rate. */
  rates: readonly number[]
  /** The page starts after this position (`direction: 'after'`) or ends before it (`'before'`). */
  from?: { direction: 'after' | 'before'; position: ReviewPosition } | undefined
  limit: number
}

/** A page of {@link ReviewStore.query}: its reviews in the view's order, and whether reviews lie on each side. */
export interface ReviewStorePage<R> {
  data: R[]
  /** Reviews follow the page (a next page starts after its last review). */
  more: boolean
  /** Reviews precede the page (a previous page ends before its first review). */
  less: boolean
}

/** The value `order` sorts `review` on, as a {@link ReviewPosition} holds it. */
export function orderValue(order: StoreOrder, review: SyncedReview): number {
  return order === 'newest' || order === 'oldest' ? Date.parse(review.publish_date) : review.review_rate
}

/** Whether the order sorts its value from high to low (ties always by ascending review id). */
export function descending(order: StoreOrder): boolean {
  return order === 'newest' || order === 'highest'
}

/** Compares two positions in `order`: negative when `a` comes first. */
export function comparePositions(order: StoreOrder, a: ReviewPosition, b: ReviewPosition): number {
  if (a.value !== b.value) return (a.value < b.value ? -1 : 1) * (descending(order) ? -1 : 1)
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** The position of a review in `order`. */
export function positionOf(order: StoreOrder, review: SyncedReview): ReviewPosition {
  return { value: orderValue(order, review), id: review.review_id }
}

/**
 * {@link ReviewStore.query} for a store without one: the keys' reviews through `list`, sorted and cut
 * in memory. Right for the memory store and small stores; a store of large products answers through an
 * index instead.
 */
export async function queryByList<R extends SyncedReview>(
  store: Pick<ReviewStore<R>, 'list'>,
  query: ReviewStoreQuery,
): Promise<ReviewStorePage<R>> {
  const rates = new Set(query.rates)
  const listed = (await Promise.all(query.keys.map((key) => store.list(key)))).flat()
  const kept = listed
    .filter((review) => rates.size === 0 || rates.has(review.review_rate))
    .map((review) => ({ review, position: positionOf(query.order, review) }))
    .sort((a, b) => comparePositions(query.order, a.position, b.position))
  return pageOf(kept, query)
}

/** Cuts the page a query names out of its reviews, sorted in its order. */
export function pageOf<R>(
  sorted: readonly { review: R; position: ReviewPosition }[],
  query: Pick<ReviewStoreQuery, 'order' | 'from' | 'limit'>,
): ReviewStorePage<R> {
  const { order, from, limit } = query
  let start = 0
  let end = sorted.length
  if (from?.direction === 'after') {
    start = sorted.findIndex((entry) => comparePositions(order, entry.position, from.position) > 0)
    if (start === -1) start = sorted.length
    end = Math.min(sorted.length, start + limit)
  } else if (from?.direction === 'before') {
    end = sorted.findIndex((entry) => comparePositions(order, entry.position, from.position) >= 0)
    if (end === -1) end = sorted.length
    start = Math.max(0, end - limit)
  } else {
    end = Math.min(sorted.length, limit)
  }
  return {
    data: sorted.slice(start, end).map((entry) => entry.review),
    more: end < sorted.length,
    less: start > 0,
  }
}
