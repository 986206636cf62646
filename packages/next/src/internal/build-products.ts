import { ValidationError } from '@verified-reviews/core'
import { handToBuildWorkers } from './build-handoff.ts'

/**
 * Writes the products a build prerenders to a file of the system's temporary folder, named after the
 * `next build` process, and names it in `VERIFIED_REVIEWS_BUILD_PRODUCTS`, which the build workers
 * inherit (a file, because a list of thousands of ids is too long for a variable).
 */
export async function writeBuildProducts(
  products: readonly string[] | (() => readonly string[] | Promise<readonly string[]>),
): Promise<void> {
  const ids = typeof products === 'function' ? await products() : products
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id !== '')) {
    throw new ValidationError([{ field: 'products', message: 'must be a list of product ids (strings)' }])
  }
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { writeFile } = await import('node:fs/promises')
  const path = join(tmpdir(), `verified-reviews-next-build-${process.pid}.products.json`)
  await writeFile(path, JSON.stringify([...new Set(ids)]))
  handToBuildWorkers({ buildProducts: path })
}

/** The products the build names (from `VERIFIED_REVIEWS_BUILD_PRODUCTS`), or undefined for every product. */
export async function readBuildProducts(path: string | undefined): Promise<string[] | undefined> {
  if (path === undefined) return undefined
  const { readFile } = await import('node:fs/promises')
  const ids: unknown = JSON.parse(await readFile(path, 'utf8'))
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
    throw new ValidationError([
      { field: 'VERIFIED_REVIEWS_BUILD_PRODUCTS', message: `${path} holds no list of product ids` },
    ])
  }
  return ids
}
