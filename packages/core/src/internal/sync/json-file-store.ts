import { VerifiedReviewsError } from '../../errors.ts'
import type { ProductReview } from '../../types/published.ts'
import { isJsonObject, readOwnJsonFile } from '../json-file.ts'
import { writeAtomically } from '../write-atomically.ts'
import { type ReviewStoreState, reviewStoreOver } from './memory-store.ts'
import type { ReviewStore, SyncCheckpoint, SyncedReview } from './store.ts'

const FORMAT = 'verified-reviews/review-store'

interface StoreFile<R> {
  format: typeof FORMAT
  version: 1
  checkpoint: SyncCheckpoint | null
  reviews: R[]
}

/** Options of {@link createJsonFileReviewStore}. */
export interface JsonFileReviewStoreOptions {
  /**
   * Where the warning goes when the file is found corrupt and moved aside.
   * @default console
   */
  logger?: { warn(message: string): void }
}

/**
 * A {@link ReviewStore} kept in one JSON file, for a single server or a build that keeps its cache
 * directory between runs. The file is read once, on first use; every change rewrites it through a
 * temporary file, flushed to disk, then renamed over it, so a crash leaves either the old file or the
 * new one, never half of one. One process at a time should write a given file. Node's file system is
 * loaded on first use, so the rest of this entry also runs where there is none (edge runtimes).
 *
 * A file that is corrupt (empty, not JSON, or a review store whose reviews or checkpoint are
 * malformed) is renamed to `<path>.corrupt-<time>`, kept for inspection, with one warning naming both
 * files; the store then starts empty, so the next sync is a full one. A JSON file that is not a review
 * store (another format or version) is never moved nor overwritten: reading it throws, naming it.
 *
 * @param path The file; its directory is created when missing. A missing file is an empty store.
 */
export function createJsonFileReviewStore<R extends SyncedReview = ProductReview>(
  path: string,
  options: JsonFileReviewStoreOptions = {},
): ReviewStore<R> {
  let writes: Promise<void> = Promise.resolve()
  return reviewStoreOver<R>(
    () => readStore<R>(path, options.logger ?? console),
    (state) => {
      const text = JSON.stringify(toFile(state))
      // Writes go one after the other, so an older state never lands after a newer one.
      const write = writes.then(() => writeAtomically(path, text))
      writes = write.catch(() => {})
      return write
    },
  )
}

/** What is wrong with the content of a file in this store's format, or undefined. */
function malformed(file: Record<string, unknown>): string | undefined {
  if (!Array.isArray(file.reviews)) return 'its reviews are not a list'
  const bad = file.reviews.findIndex(
    (review) => !isJsonObject(review) || typeof review.review_id !== 'string',
  )
  if (bad !== -1) return `its review ${bad} has no review_id`
  if (file.checkpoint !== null && file.checkpoint !== undefined && !isJsonObject(file.checkpoint)) {
    return 'its checkpoint is not an object'
  }
  return undefined
}

async function readStore<R extends SyncedReview>(
  path: string,
  logger: { warn(message: string): void },
): Promise<ReviewStoreState<R>> {
  const file = await readOwnJsonFile<StoreFile<R>>(
    path,
    (value) => {
      if (!isJsonObject(value) || value.format !== FORMAT || value.version !== 1) {
        throw new VerifiedReviewsError(
          `${path} is not a review store file (format ${FORMAT}, version 1); refusing to overwrite it`,
        )
      }
      const problem = malformed(value)
      return problem === undefined ? { value: value as unknown as StoreFile<R> } : { malformed: problem }
    },
    (problem, aside) =>
      logger.warn(
        `[@verified-reviews/core/sync] The review store ${path} is corrupt (${problem}): moved it aside to ` +
          `${aside}; the next sync starts over with a full sync.`,
      ),
  )
  return {
    reviews: new Map(file?.reviews.map((review) => [review.review_id, review])),
    checkpoint: file?.checkpoint ?? undefined,
  }
}

function toFile<R>(state: ReviewStoreState<R & SyncedReview>): StoreFile<R> {
  return {
    format: FORMAT,
    version: 1,
    checkpoint: state.checkpoint ?? null,
    reviews: [...state.reviews.values()],
  }
}
