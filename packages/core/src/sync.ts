/**
 * `@verified-reviews/core/sync`: keeps a local copy of the reviews up to date with the spec's recipe
 * (one full walk, then incremental newest-first walks), resumable from a checkpoint, and reports what
 * changed so that only the affected pages are revalidated.
 */

export {
  SWEEP_INTERVAL,
  type SweepClient,
  type SweepReplicaOptions,
  type SweepReport,
  sweepReplica,
} from './internal/catalog/sweep.ts'
export {
  BRAND_RATING_TABLE,
  type BrandRatingStore,
  createMemoryBrandRatingStore,
  createSqliteBrandRatingStore,
  type SqliteBrandRatingStore,
} from './internal/sync/brand-rating-store.ts'
export type {
  ReviewLister,
  SyncListParams,
  SyncMode,
  SyncOutcome,
  SyncPage,
  SyncRequestOptions,
  SyncRunOptions,
} from './internal/sync/engine.ts'
export {
  KEPT_FIELDS,
  KEPT_REPLY_FIELDS,
  type KeptForm,
  type KeptReply,
  type KeptReview,
  keptReview,
} from './internal/sync/kept-review.ts'
export { createMemoryReviewStore } from './internal/sync/memory-store.ts'
export { observePages, type PagedLister } from './internal/sync/observed-pages.ts'
export {
  copyReplicaFromFile,
  openSqliteReplica,
  type ReplicaCopy,
  type ReplicaCopyOptions,
  type ReplicaFileRefresh,
  type ReplicaRefresh,
  type ReplicaTarget,
  refreshReplicaFromFile,
  type SqliteReplica,
} from './internal/sync/replica-file.ts'
export {
  createSqliteReviewStore,
  type SqliteReviewStore,
  type SqliteReviewStoreOptions,
} from './internal/sync/sqlite-store.ts'
export {
  queryByList,
  type ReviewPosition,
  type ReviewStore,
  type ReviewStorePage,
  type ReviewStoreQuery,
  type StoreOrder,
  type SweepStamp,
  type SyncCheckpoint,
  type SyncedReview,
} from './internal/sync/store.ts'
export {
  loadStoredReviewCodec,
  STORED_REVIEW_DICTIONARY_V1,
  STORED_REVIEW_VERSION,
  type StoredReviewCodec,
} from './internal/sync/stored-review.ts'
export {
  createMemorySummaryStore,
  createSqliteSummaryStore,
  type ProductSummaryStore,
  type SqliteSummaryStore,
} from './internal/sync/summary-store.ts'
export {
  type BrandReviewsClient,
  type BrandReviewsSyncReport,
  type ProductReviewsClient,
  type ProductReviewsSyncReport,
  type SyncBrandReviewsOptions,
  type SyncProductReviewsOptions,
  syncBrandReviews,
  syncProductReviews,
} from './internal/sync/sync-reviews.ts'
export type { BrandReplica } from './internal/view/brand-view.ts'
export type { ProductReplica } from './internal/view/product-view.ts'
