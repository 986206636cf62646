import { VerifiedReviewsError } from '../../errors.ts'
import type { ProductReview } from '../../types/published.ts'
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

/**
 * A {@link ReviewStore} kept in one JSON file, for a single server or a build that keeps its cache
 * directory between runs. The file is read once, on first use; every change rewrites it through a
 * temporary file renamed over it, so a crash leaves either the old file or the new one, never half of
 * one. One process at a time should write a given file. Node's file system is loaded on first use, so
 * the rest of this entry also runs where there is none (edge runtimes).
 *
 * @param path The file; its directory is created when missing. A missing file is an empty store.
 */
export function createJsonFileReviewStore<R extends SyncedReview = ProductReview>(
  path: string,
): ReviewStore<R> {
  let writes: Promise<void> = Promise.resolve()
  return reviewStoreOver<R>(
    () => readStore<R>(path),
    (state) => {
      const text = JSON.stringify(toFile(state))
      // Writes go one after the other, so an older state never lands after a newer one.
      const write = writes.then(() => writeAtomically(path, text))
      writes = write.catch(() => {})
      return write
    },
  )
}

async function readStore<R extends SyncedReview>(path: string): Promise<ReviewStoreState<R>> {
  const { readFile } = await import('node:fs/promises')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { reviews: new Map(), checkpoint: undefined }
    throw error
  }
  const file = JSON.parse(text) as Partial<StoreFile<R>>
  if (file.format !== FORMAT || file.version !== 1 || !Array.isArray(file.reviews)) {
    throw new VerifiedReviewsError(
      `${path} is not a review store file (format ${FORMAT}, version 1); refusing to overwrite it`,
    )
  }
  return {
    reviews: new Map(file.reviews.map((review) => [review.review_id, review])),
    checkpoint: file.checkpoint ?? undefined,
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
