import type { BrandReview, ProductReview } from '../../types/published.ts'
import { VerifiedReviewsError } from '../base/errors.ts'
import { fileExists, openSqliteFile, transaction } from '../base/sqlite.ts'
import {
  type BrandRatingStore,
  createSqliteBrandRatingStore,
  type SqliteBrandRatingStore,
} from './brand-rating-store.ts'
import { createSqliteReviewStore, type SqliteReviewStore } from './sqlite-store.ts'
import type { ReviewStore, SyncCheckpoint, SyncedReview } from './store.ts'
import {
  createSqliteSummaryStore,
  type ProductSummaryStore,
  type SqliteSummaryStore,
  SUMMARY_TABLE,
} from './summary-store.ts'

/** The table of the brand and shop reviews in a replica's file. */
const BRAND_REVIEWS = 'brand_reviews'

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
    reviews: createSqliteReviewStore<BrandReview>(file, { name: BRAND_REVIEWS }),
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

/** What {@link refreshReplicaFromFile} or {@link copyReplicaFromFile} did with one part of a replica. */
export type ReplicaRefresh =
  /** The source holds a completed sync newer than the replica's, which now holds what the source holds. */
  | 'copied'
  /** The replica's sync is as new as the source's, or newer: it was left as it was. */
  | 'current'
  /** There is no source file, or it holds no completed sync: the replica was left as it was. */
  | 'no-source'

/** What {@link refreshReplicaFromFile} did, part by part. */
export interface ReplicaFileRefresh {
  /** The product reviews, their checkpoint and the summaries. */
  outcome: ReplicaRefresh
  /**
   * The brand and shop reviews with their checkpoint, and the brand and shop statistics with their fetch
   * time: `'copied'` when either came along (each is copied when the source's is newer).
   */
  brands: ReplicaRefresh
}

/** The mark of a completed sync in `checkpoint`, or undefined when it holds none (no sync, or one that stopped). */
function completedMark(checkpoint: SyncCheckpoint | undefined): string | undefined {
  return checkpoint?.phase === 'idle' ? checkpoint.completedAt : undefined
}

/** Whether a part whose source is at `source` is copied over a target at `held`, by the rule of `when`. */
function newer(source: string | undefined, held: string | undefined, when: 'empty' | 'older'): boolean {
  if (source === undefined) return false
  if (held === undefined) return true
  return when === 'older' && held < source
}

/** The tables of the SQLite file `file`, read without making any. */
async function tablesOf(file: string): Promise<Set<string>> {
  const db = await openSqliteFile(file, 5000)
  try {
    return new Set(
      db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`)
        .all()
        .map((row) => row.name as string),
    )
  } finally {
    db.close()
  }
}

/**
 * The brand part's stores of a source file, opened only where it has their tables (a build without
 * `brandReviews` has none, and its files are left as they are).
 */
async function sourceBrands(source: string): Promise<{
  reviews: SqliteReviewStore<BrandReview> | undefined
  ratings: SqliteBrandRatingStore | undefined
  close(): Promise<void>
}> {
  const tables = await tablesOf(source)
  const reviews = tables.has(`${BRAND_REVIEWS}_checkpoint`)
    ? createSqliteReviewStore<BrandReview>(source, { name: BRAND_REVIEWS })
    : undefined
  const ratings = tables.has('brand_ratings') ? createSqliteBrandRatingStore(source) : undefined
  return {
    reviews,
    ratings,
    close: async () => {
      await Promise.all([reviews?.close(), ratings?.close()])
    },
  }
}

/** What a source file holds of the brand part: the marks of its brand review sync and of its statistics. */
async function brandMarks(
  source: string,
): Promise<{ reviews: string | undefined; ratings: string | undefined }> {
  const brands = await sourceBrands(source)
  try {
    return {
      reviews: completedMark(await brands.reviews?.getCheckpoint()),
      ratings: await brands.ratings?.fetchedAt(),
    }
  } finally {
    await brands.close()
  }
}

/**
 * Makes the replica in `replica` hold what the SQLite file `source` holds (a build's review store with
 * its summaries, and the brand part when the build synced it) where the source's is newer: the product
 * reviews, their checkpoint and the summaries when the source's last completed sync is newer than the
 * replica's, or the replica holds none; the brand and shop reviews with their checkpoint by the same
 * rule, and the brand and shop statistics when they were fetched later than the replica's. All of it in
 * one transaction through `ATTACH`, so that a process that has the replica open reads the old rows or
 * the new ones, never a mix, and the replica file stays the same file. A part that a later sync carried
 * past the source is kept (the server synced after the build).
 */
export async function refreshReplicaFromFile(
  replica: SqliteReplica,
  source: string,
): Promise<ReplicaFileRefresh> {
  if (!(await fileExists(source))) return { outcome: 'no-source', brands: 'no-source' }
  // Opened through the store, so that a source of an older version gets its view columns and its reviews
  // in the stored form first (the rows are copied as they are).
  const built = createSqliteReviewStore<ProductReview>(source)
  let sourceMark: string | undefined
  try {
    sourceMark = completedMark(await built.getCheckpoint())
  } finally {
    await built.close()
  }
  const builtBrands = await brandMarks(source)
  const [held, heldBrands, heldRatings] = await Promise.all([
    replica.reviews.getCheckpoint(),
    replica.brands.reviews.getCheckpoint(),
    replica.brands.ratings.fetchedAt(),
  ])
  const copy = {
    reviews: newer(sourceMark, held?.completedAt, 'older'),
    brandReviews: newer(builtBrands.reviews, heldBrands?.completedAt, 'older'),
    ratings: newer(builtBrands.ratings, heldRatings, 'older'),
  }
  const result: ReplicaFileRefresh = {
    outcome: copy.reviews ? 'copied' : sourceMark === undefined ? 'no-source' : 'current',
    brands:
      copy.brandReviews || copy.ratings
        ? 'copied'
        : builtBrands.reviews === undefined && builtBrands.ratings === undefined
          ? 'no-source'
          : 'current',
  }
  if (!copy.reviews && !copy.brandReviews && !copy.ratings) return result
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
      if (copy.reviews && (!sourceTables.has('reviews') || !sourceTables.has('reviews_checkpoint'))) {
        throw new VerifiedReviewsError(`${source} holds no review store`)
      }
      transaction(db, () => {
        if (copy.reviews) {
          db.exec(`DELETE FROM main.reviews;
                   INSERT INTO main.reviews (id, key, review, published, rate)
                     SELECT id, key, review, published, rate FROM source.reviews;
                   DELETE FROM main.reviews_checkpoint;
                   INSERT INTO main.reviews_checkpoint (id, json) SELECT id, json FROM source.reviews_checkpoint;`)
          if (sourceTables.has('product_summaries')) {
            db.exec(`DELETE FROM main.product_summaries;
                     INSERT INTO main.product_summaries (id, json) SELECT id, json FROM source.product_summaries;`)
          }
        }
        if (copy.brandReviews) {
          db.exec(`DELETE FROM main.${BRAND_REVIEWS};
                   INSERT INTO main.${BRAND_REVIEWS} (id, key, review, published, rate)
                     SELECT id, key, review, published, rate FROM source.${BRAND_REVIEWS};
                   DELETE FROM main.${BRAND_REVIEWS}_checkpoint;
                   INSERT INTO main.${BRAND_REVIEWS}_checkpoint (id, json)
                     SELECT id, json FROM source.${BRAND_REVIEWS}_checkpoint;`)
        }
        if (copy.ratings) {
          db.exec(`DELETE FROM main.brand_ratings;
                   INSERT INTO main.brand_ratings (shop_key, json) SELECT shop_key, json FROM source.brand_ratings;`)
        }
      })
    } finally {
      db.exec('DETACH DATABASE source')
    }
  } finally {
    db.close()
  }
  return result
}

/**
 * Where {@link copyReplicaFromFile} copies to: a review store, the summaries beside it when there are,
 * and the brand part (brand and shop reviews, statistics) when the target keeps one.
 */
export interface ReplicaTarget {
  reviews: ReviewStore<ProductReview>
  summaries?: ProductSummaryStore | undefined
  brands?: { reviews: ReviewStore<BrandReview>; ratings: BrandRatingStore } | undefined
}

/** Options of {@link copyReplicaFromFile}. */
export interface ReplicaCopyOptions {
  /**
   * Which targets are written, part by part (the product reviews with their summaries, the brand and
   * shop reviews, the brand and shop statistics): `'empty'`, a part that holds no checkpoint (or fetch
   * time) yet (a store seeded once); `'older'`, also one whose last completed sync (or fetch) is older
   * than the source's (a replica a new build brings up to date, as {@link refreshReplicaFromFile} does for
   * a file).
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
  /** What it did with the product reviews and summaries. */
  outcome: ReplicaRefresh
  /** Reviews written (0 unless `outcome` is `'copied'`). */
  reviews: number
  /** Summaries written (0 unless `outcome` is `'copied'`, or without summaries in the target). */
  summaries: number
  /**
   * What it did with the brand part, for a target that keeps one: `outcome` is `'copied'` when the brand
   * and shop reviews or their statistics were written; `reviews` and `ratings` count what was.
   */
  brands?: { outcome: ReplicaRefresh; reviews: number; ratings: number }
}

/**
 * Copies the reviews of `built` into `target` a few hundred per write: then (a target that held reviews)
 * the removal of those the source does not hold, and `checkpoint` last, with the last reviews.
 */
async function copyReviews<R extends SyncedReview>(
  built: SqliteReviewStore<R>,
  target: ReviewStore<R>,
  checkpoint: SyncCheckpoint,
  batchSize: number,
): Promise<number> {
  let copied = 0
  // A target that held reviews (an older sync, an interrupted copy) loses those the source does not hold.
  const kept = target.removeExcept !== undefined && (await target.count()) > 0
  const ids = new Set<string>()
  let batch: R[] = []
  for await (const review of built.each()) {
    if (kept) ids.add(review.review_id)
    batch.push(review)
    if (batch.length >= batchSize) {
      await target.putMany(batch)
      copied += batch.length
      batch = []
    }
  }
  if (kept) await target.removeExcept?.(ids)
  await target.putMany(batch, checkpoint)
  return copied + batch.length
}

/**
 * Copies what the SQLite file `source` holds (a build's review store with its summaries, and the brand
 * part when the build synced it) into a replica of any kind (Redis, a database), store by store, where
 * `when` says the target needs it: the summaries first, then the reviews a few hundred per write, then (a
 * target that held reviews) the removal of those the source does not hold, and the checkpoint last, with
 * the last reviews; then, by the same rules and in the same order, the brand and shop statistics (with
 * their fetch time) and the brand and shop reviews (only a completed sync of them). A target with a
 * checkpoint is therefore whole, and a copy interrupted anywhere leaves the target's old checkpoint (or
 * none), so that the next copy is made again. Without a source file, or one with no sync, nothing is
 * written.
 */
export async function copyReplicaFromFile(
  source: string,
  target: ReplicaTarget,
  options: ReplicaCopyOptions,
): Promise<ReplicaCopy> {
  const result: ReplicaCopy = { outcome: 'no-source', reviews: 0, summaries: 0 }
  if (target.brands !== undefined) result.brands = { outcome: 'no-source', reviews: 0, ratings: 0 }
  // Opened only when it exists: opening creates the file.
  if (!(await fileExists(source))) return result
  const batchSize = options.batch ?? 500
  const built = createSqliteReviewStore<ProductReview>(source)
  const summaries = target.summaries === undefined ? undefined : createSqliteSummaryStore(source)
  try {
    const checkpoint = await built.getCheckpoint()
    if (checkpoint !== undefined) {
      const held = await target.reviews.getCheckpoint()
      const copy =
        held === undefined ||
        (options.when === 'older' &&
          checkpoint.completedAt !== undefined &&
          (held.completedAt === undefined || held.completedAt < checkpoint.completedAt))
      result.outcome = copy ? 'copied' : 'current'
      if (copy) {
        if (summaries !== undefined && target.summaries !== undefined) {
          const all = await summaries.all()
          await target.summaries.putMany(all)
          result.summaries = all.length
        }
        result.reviews = await copyReviews(built, target.reviews, checkpoint, batchSize)
      }
    }
  } finally {
    await Promise.all([built.close(), summaries?.close()])
  }
  if (target.brands !== undefined)
    result.brands = await copyBrands(source, target.brands, options.when, batchSize)
  return result
}

/**
 * The brand part of {@link copyReplicaFromFile}: the statistics with their fetch time when they are newer
 * (by `when`), then the brand and shop reviews of a completed sync, the checkpoint with the last.
 */
async function copyBrands(
  source: string,
  target: NonNullable<ReplicaTarget['brands']>,
  when: 'empty' | 'older',
  batchSize: number,
): Promise<NonNullable<ReplicaCopy['brands']>> {
  const built = await sourceBrands(source)
  try {
    const [checkpoint, fetchedAt] = await Promise.all([
      built.reviews?.getCheckpoint(),
      built.ratings?.fetchedAt(),
    ])
    const mark = completedMark(checkpoint)
    if (mark === undefined && fetchedAt === undefined) return { outcome: 'no-source', reviews: 0, ratings: 0 }
    const [held, heldFetchedAt] = await Promise.all([
      target.reviews.getCheckpoint(),
      target.ratings.fetchedAt(),
    ])
    const copied: NonNullable<ReplicaCopy['brands']> = { outcome: 'current', reviews: 0, ratings: 0 }
    if (built.ratings !== undefined && fetchedAt !== undefined && newer(fetchedAt, heldFetchedAt, when)) {
      const ratings = await built.ratings.all()
      await target.ratings.replaceAll(ratings, fetchedAt)
      copied.outcome = 'copied'
      copied.ratings = ratings.length
    }
    const copyHeld =
      mark !== undefined &&
      (held === undefined ||
        (when === 'older' && (held.completedAt === undefined || held.completedAt < mark)))
    if (built.reviews !== undefined && checkpoint !== undefined && copyHeld) {
      copied.reviews = await copyReviews(built.reviews, target.reviews, checkpoint, batchSize)
      copied.outcome = 'copied'
    }
    return copied
  } finally {
    await built.close()
  }
}
