import type { BrandReview, ProductReview } from '@verified-reviews/core'
import {
  createMemoryReviewStore,
  createSqliteReviewStore,
  type ReviewStore,
  type SyncedReview,
} from '@verified-reviews/core/sync'
import { seedFromBuild } from '../seed-from-build.ts'
import { buildStorePath } from './paths.ts'

/**
 * Where a sync keeps its reviews: `'build'` (a store that starts from the review store the build
 * prefetch left in `.next/verified-reviews/`, so the first sync after `next start` is incremental),
 * `'memory'` (empty at each start: the first sync walks every review), the path of an SQLite file (a
 * JSON store file of an earlier version there is imported once, in place), or any
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
 * An SQLite store that starts from what the build's store holds: a copy of its file (and of its WAL,
 * when the build left one) in a folder of the system's temporary directory (removed when the process
 * exits), so that the build's files stay as the build left them, and the server reads a product's
 * reviews through the file's index, holding none in memory. Without a build store the copy starts
 * empty, and the first call makes a full sync.
 */
async function fromBuild(distDir: string | undefined): Promise<ReviewStore<ProductReview>> {
  const { copyFile, mkdtemp } = await import('node:fs/promises')
  const { rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const source = await buildStorePath(distDir)
  const dir = await mkdtemp(join(tmpdir(), 'verified-reviews-revalidate-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const copy = join(dir, 'reviews.sqlite')
  const missing = (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  // No process of the build writes the file any more: its bytes are a whole database.
  await copyFile(source, copy).catch(missing)
  await copyFile(`${source}-wal`, `${copy}-wal`).catch(missing)
  return createSqliteReviewStore(copy)
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
  const store = isStore<ProductReview>(option) ? option : createSqliteReviewStore(option)
  return seed ? seedFromBuild(store, distDir === undefined ? {} : { distDir }) : store
}

/**
 * The brand review store an option names. The build keeps no brand reviews: `'build'` is the table
 * `brand_reviews` of the server's replica file (`replicaFile`), which a restart finds, else memory.
 */
export function openBrandStore(
  option: ReviewStoreOption<BrandReview>,
  replicaFile?: string,
): ReviewStore<BrandReview> {
  if (isStore<BrandReview>(option)) return option
  if (option === 'build' && replicaFile !== undefined) {
    return createSqliteReviewStore<BrandReview>(replicaFile, { name: 'brand_reviews' })
  }
  if (option === 'build' || option === 'memory') return createMemoryReviewStore<BrandReview>()
  return createSqliteReviewStore<BrandReview>(option)
}
