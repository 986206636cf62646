import { handedBuildOptions } from './build-handoff.ts'

/**
 * Where this package keeps build data: a folder of the Next.js build directory, which `next build`
 * empties when it starts (it keeps only `cache`), so each build fetches afresh and `next start` finds
 * what its build fetched.
 */
export async function buildDirectory(distDir?: string): Promise<string> {
  const { isAbsolute, join } = await import('node:path')
  const dir = distDir ?? nextDistDir()
  return join(isAbsolute(dir) ? dir : join(process.cwd(), dir), 'verified-reviews')
}

/** The Next.js build directory: `VERIFIED_REVIEWS_DIST_DIR` when `next.config` sets another `distDir`, else `.next`. */
export function nextDistDir(): string {
  return handedBuildOptions().distDir ?? '.next'
}

/**
 * The review store the build prefetch writes and the revalidate route starts from: the SQLite file of
 * `prefetchBuildData` in the build directory.
 */
export async function buildStorePath(distDir?: string): Promise<string> {
  const { join } = await import('node:path')
  return join(await buildDirectory(distDir), 'reviews.sqlite')
}
