/**
 * Where this package keeps build data: a folder of the Next.js build directory, which `next build`
 * empties when it starts (it keeps only `cache`), so each build fetches afresh and `next start` finds
 * what its build fetched.
 */
export async function buildDirectory(distDir = '.next'): Promise<string> {
  const { isAbsolute, join } = await import('node:path')
  return join(isAbsolute(distDir) ? distDir : join(process.cwd(), distDir), 'verified-reviews')
}

/** The review store file the build prefetch writes and the revalidate route starts from. */
export async function buildStorePath(distDir?: string): Promise<string> {
  const { join } = await import('node:path')
  return join(await buildDirectory(distDir), 'product-reviews.json')
}
