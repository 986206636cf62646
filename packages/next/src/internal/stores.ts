import type { BrandReview, ProductReview } from '@verified-reviews/core'
import {
  createJsonFileReviewStore,
  createMemoryReviewStore,
  type ReviewStore,
  type SyncedReview,
} from '@verified-reviews/core/sync'
import type { ReviewStoreOption } from '../revalidate-route.ts'
import { buildStorePath } from './paths.ts'

function isStore<R extends SyncedReview>(value: unknown): value is ReviewStore<R> {
  return (
    typeof value === 'object' && value !== null && typeof (value as ReviewStore<R>).putMany === 'function'
  )
}

/** A memory store holding what the build's store file holds, or nothing when there is no such file. */
async function fromBuild(distDir: string | undefined): Promise<ReviewStore<ProductReview>> {
  const memory = createMemoryReviewStore()
  const file = createJsonFileReviewStore(await buildStorePath(distDir))
  const checkpoint = await file.getCheckpoint()
  if (checkpoint !== undefined) await memory.putMany(await file.all(), checkpoint)
  return memory
}

/** The store an option names; `'build'` needs the build's directory (`distDir`). */
export async function openProductStore(
  option: ReviewStoreOption<ProductReview>,
  distDir?: string,
): Promise<ReviewStore<ProductReview>> {
  if (isStore<ProductReview>(option)) return option
  if (option === 'build') return fromBuild(distDir)
  if (option === 'memory') return createMemoryReviewStore()
  return createJsonFileReviewStore(option)
}

/** The brand review store an option names; the build keeps no brand reviews, so `'build'` is `'memory'`. */
export function openBrandStore(option: ReviewStoreOption<BrandReview>): ReviewStore<BrandReview> {
  if (isStore<BrandReview>(option)) return option
  if (option === 'build' || option === 'memory') return createMemoryReviewStore<BrandReview>()
  return createJsonFileReviewStore<BrandReview>(option)
}
