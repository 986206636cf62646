import { VerifiedReviewsError } from '../../errors.ts'
import type { BrandReview, ProductReview } from '../../types/published.ts'
import { openSqliteFile, transaction } from '../sqlite.ts'
import { createSqliteBrandRatingStore, type SqliteBrandRatingStore } from './brand-rating-store.ts'
import { createSqliteReviewStore, type SqliteReviewStore } from './sqlite-store.ts'
import type { ReviewStore } from './store.ts'
import {
  createSqliteSummaryStore,
  type ProductSummaryStore,
  type SqliteSummaryStore,
  SUMMARY_TABLE,
} from './summary-store.ts'

/**
 * A site's replica of the account in one SQLite file: the product reviews with their sync mark, the
 * summaries, and the brand reviews (table `brand_reviews`, with their own sync mark) with the brand and
 * shop statistics (`brand_ratings`).
 */
export interface SqliteReplica {
  reviews: SqliteReviewStore<ProductReview>
  summaries: SqliteSummaryStore
  brands: { reviews: SqliteReviewStore<BrandReview>; ratings: SqliteBrandRatingStore }
  /** The file. */
  readonly file: string
  /** Closes the file; the replica must not be used afterwards. */
  close(): Promise<void>
}

/** Opens (creating it when missing) the replica in `file`. */
export function openSqliteReplica(file: string): SqliteReplica {
  const reviews = createSqliteReviewStore<ProductReview>(file)
  const summaries = createSqliteSummaryStore(file)
  const brands = {
    reviews: createSqliteReviewStore<BrandReview>(file, { name: 'brand_reviews' }),
    ratings: createSqliteBrandRatingStore(file),
  }
  return {
    reviews,
    summaries,
    brands,
    file,
    async close() {
      await Promise.all([reviews.close(), summaries.close(), brands.reviews.close(), brands.ratings.close()])
    },
  }
}

/** What {@link refreshReplicaFromFile} did. */
export type ReplicaRefresh =
  /** The source holds a completed sync newer than the replica's, which now holds what the source holds. */
  | 'copied'
  /** The replica's sync is as new as the source's, or newer: it was left as it was. */
  | 'current'
  /** There is no source file, or it holds no completed sync: the replica was left as it was. */
  | 'no-source'

async function exists(path: string): Promise<boolean> {
  const { access } = await import('node:fs/promises')
  return access(path).then(
    () => true,
    () => false,
  )
}

/**
 * Makes the replica in `replica` hold what the SQLite file `source` holds (a build's review store with
 * its summaries) when the source's last completed sync is newer than the replica's, or the replica holds
 * none: the reviews, their checkpoint and the summaries, replaced in one transaction through `ATTACH`, so
 * that a process that has the replica open reads the old rows or the new ones, never a mix, and the
 * replica file stays the same file. A replica that a later sync carried past the source is kept (the
 * server synced after the build).
 */
export async function refreshReplicaFromFile(
  replica: SqliteReplica,
  source: string,
): Promise<ReplicaRefresh> {
  if (!(await exists(source))) return 'no-source'
  // Opened through the store, so that a source of an older version gets its view columns and its reviews
  // in the stored form first (the rows are copied as they are).
  const built = createSqliteReviewStore<ProductReview>(source)
  let sourceMark: string | undefined
  try {
    const checkpoint = await built.getCheckpoint()
    if (checkpoint?.phase !== 'idle' || checkpoint.completedAt === undefined) return 'no-source'
    sourceMark = checkpoint.completedAt
  } finally {
    await built.close()
  }
  const held = await replica.reviews.getCheckpoint()
  if (held?.completedAt !== undefined && held.completedAt >= sourceMark) return 'current'
  await replica.summaries.count() // creates the summary table when the file is new
  const db = await openSqliteFile(replica.file, 5000, 'NORMAL', SUMMARY_TABLE)
  try {
    db.prepare('ATTACH DATABASE ? AS source').run(source)
    try {
      const sourceTables = new Set(
        db
          .prepare(`SELECT name FROM source.sqlite_master WHERE type = 'table'`)
          .all()
          .map((row) => row.name as string),
      )
      if (!sourceTables.has('reviews') || !sourceTables.has('reviews_checkpoint')) {
        throw new VerifiedReviewsError(`${source} holds no review store`)
      }
      transaction(db, () => {
        db.exec(`DELETE FROM main.reviews;
                 INSERT INTO main.reviews (id, key, review, published, rate)
                   SELECT id, key, review, published, rate FROM source.reviews;
                 DELETE FROM main.reviews_checkpoint;
                 INSERT INTO main.reviews_checkpoint (id, json) SELECT id, json FROM source.reviews_checkpoint;`)
        if (sourceTables.has('product_summaries')) {
          db.exec(`DELETE FROM main.product_summaries;
                   INSERT INTO main.product_summaries (id, json) SELECT id, json FROM source.product_summaries;`)
        }
      })
    } finally {
      db.exec('DETACH DATABASE source')
    }
  } finally {
    db.close()
  }
  return 'copied'
}

/** Where {@link copyReplicaFromFile} copies to: a review store, and the summaries beside it when there are. */
export interface ReplicaTarget {
  reviews: ReviewStore<ProductReview>
  summaries?: ProductSummaryStore | undefined
}

/** Options of {@link copyReplicaFromFile}. */
export interface ReplicaCopyOptions {
  /**
   * Which targets are written: `'empty'`, one that holds no checkpoint yet (a store seeded once);
   * `'older'`, also one whose last completed sync is older than the source's (a replica a new build
   * brings up to date, as {@link refreshReplicaFromFile} does for a file).
   */
  when: 'empty' | 'older'
  /**
   * Reviews written by one `putMany`: a few hundred, so that the copy never holds a whole store.
   * @default 500
   */
  batch?: number
}

/** What {@link copyReplicaFromFile} did, and how many reviews it wrote. */
export interface ReplicaCopy {
  outcome: ReplicaRefresh
  /** Reviews written (0 unless `outcome` is `'copied'`). */
  reviews: number
  /** Summaries written (0 unless `outcome` is `'copied'`, or without summaries in the target). */
  summaries: number
}

/**
 * Copies what the SQLite file `source` holds (a build's review store with its summaries) into a replica
 * of any kind (Redis, a database), store by store, when `when` says the target needs it: the summaries
 * first, then the reviews a few hundred per write, then (a target that held reviews) the removal of those
 * the source does not hold, and the checkpoint last, with the last reviews. A target with a checkpoint
 * is therefore whole, and a copy interrupted anywhere leaves the target's old checkpoint (or none), so
 * that the next copy is made again. Without a source file, or one with no sync, nothing is written.
 */
export async function copyReplicaFromFile(
  source: string,
  target: ReplicaTarget,
  options: ReplicaCopyOptions,
): Promise<ReplicaCopy> {
  const none = (outcome: ReplicaRefresh): ReplicaCopy => ({ outcome, reviews: 0, summaries: 0 })
  // Opened only when it exists: opening creates the file.
  if (!(await exists(source))) return none('no-source')
  const batchSize = options.batch ?? 500
  const built = createSqliteReviewStore<ProductReview>(source)
  const summaries = target.summaries === undefined ? undefined : createSqliteSummaryStore(source)
  try {
    const checkpoint = await built.getCheckpoint()
    if (checkpoint === undefined) return none('no-source')
    const held = await target.reviews.getCheckpoint()
    if (held !== undefined) {
      if (options.when === 'empty') return none('current')
      const older =
        checkpoint.completedAt !== undefined &&
        (held.completedAt === undefined || held.completedAt < checkpoint.completedAt)
      if (!older) return none('current')
    }
    const copied = { outcome: 'copied' as const, reviews: 0, summaries: 0 }
    if (summaries !== undefined && target.summaries !== undefined) {
      const all = await summaries.all()
      await target.summaries.putMany(all)
      copied.summaries = all.length
    }
    // A target that held reviews (an older sync, an interrupted copy) loses those the source does not hold.
    const kept = target.reviews.removeExcept !== undefined && (await target.reviews.count()) > 0
    const ids = new Set<string>()
    let batch: ProductReview[] = []
    for await (const review of built.each()) {
      if (kept) ids.add(review.review_id)
      batch.push(review)
      if (batch.length >= batchSize) {
        await target.reviews.putMany(batch)
        copied.reviews += batch.length
        batch = []
      }
    }
    if (kept) await target.reviews.removeExcept?.(ids)
    await target.reviews.putMany(batch, checkpoint)
    copied.reviews += batch.length
    return copied
  } finally {
    await Promise.all([built.close(), summaries?.close()])
  }
}
