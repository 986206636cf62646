import type { BrandReview, ProductReview } from '@verified-reviews/core'
import {
  createJsonFileReviewStore,
  createMemoryReviewStore,
  type ReviewStore,
  type SyncedReview,
} from '@verified-reviews/core/sync'
import { seedFromBuild } from '../seed-from-build.ts'
import { buildStorePath } from './paths.ts'

/**
 * Where a sync keeps its reviews: `'build'` (a store that starts from the review store the build
 * prefetch left in `.next/verified-reviews/`, so the first sync after `next start` is incremental),
 * `'memory'` (empty at each start: the first sync walks every review), the path of a JSON file, or any
 * `ReviewStore` (a database or Redis shared by several servers). A file or a `ReviewStore` that holds no
 * sync yet starts from the build's store too (see `seedFromBuild`).
 */
export type ReviewStoreOption<R extends SyncedReview> = 'build' | 'memory' | string | ReviewStore<R>

function isStore<R extends SyncedReview>(value: unknown): value is ReviewStore<R> {
  return (
    typeof value === 'object' && value !== null && typeof (value as ReviewStore<R>).putMany === 'function'
  )
}

/**
 * A JSON file store that starts from what the build's store file holds: a copy of the file and its
 * journal in a folder of the system's temporary directory (removed when the process exits), so that
 * the build's files stay as the build left them and the server holds where each review is, not every
 * review (a copy into a memory store peaked at 1 GB for 100,000 reviews). Without a build store the
 * copy starts empty, and the first call makes a full sync.
 */
async function fromBuild(distDir: string | undefined): Promise<ReviewStore<ProductReview>> {
  const { copyFile, mkdtemp } = await import('node:fs/promises')
  const { rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const source = await buildStorePath(distDir)
  const dir = await mkdtemp(join(tmpdir(), 'verified-reviews-revalidate-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const copy = join(dir, 'product-reviews.json')
  const missing = (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await copyFile(source, copy).catch(missing)
  await copyFile(`${source}.journal`, `${copy}.journal`).catch(missing)
  return createJsonFileReviewStore(copy)
}

/**
 * The store an option names; `'build'` needs the build's directory (`distDir`). A store of the user's (a
 * `ReviewStore` or a file) is seeded from the build's store when `seed` says so (see `seedFromBuild`).
 */
export async function openProductStore(
  option: ReviewStoreOption<ProductReview>,
  { distDir, seed = true }: { distDir?: string | undefined; seed?: boolean | undefined } = {},
): Promise<ReviewStore<ProductReview>> {
  if (option === 'build') return fromBuild(distDir)
  if (option === 'memory') return createMemoryReviewStore()
  const store = isStore<ProductReview>(option) ? option : createJsonFileReviewStore(option)
  return seed ? seedFromBuild(store, distDir === undefined ? {} : { distDir }) : store
}

/** The brand review store an option names; the build keeps no brand reviews, so `'build'` is `'memory'`. */
export function openBrandStore(option: ReviewStoreOption<BrandReview>): ReviewStore<BrandReview> {
  if (isStore<BrandReview>(option)) return option
  if (option === 'build' || option === 'memory') return createMemoryReviewStore<BrandReview>()
  return createJsonFileReviewStore<BrandReview>(option)
}
