/**
 * Measures the API calls of real builds against the sandbox, next to the lower bound
 * ceil(reviews / 200) + ceil(products / 200): `pnpm --filter @verified-reviews/astro measure`.
 *
 * - `catalog`: 60 product pages, each with `<ProductReviews>` and a product marker (injection).
 * - `shop`: the content loaders (product reviews, brand reviews, ratings) and the injection.
 *
 * Each fixture is built twice; between the builds three reviews are published.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '../../../test/fixtures/sandbox.ts'
import verifiedReviews from '../src/index.ts'
import { buildFixture, pointEnvironmentAt, readPages, takeOperations } from './build-fixture.ts'

const PRODUCTS = 60
const REVIEWS = 3000
const lowerBound = Math.ceil(REVIEWS / 200) + Math.ceil(PRODUCTS / 200)

function row(label: string, operations: Record<string, number>): string {
  const { 'token.published': _token, ...api } = operations
  const total = Object.values(api).reduce((sum, count) => sum + count, 0)
  const detail = Object.entries(api)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} ${count}`)
    .join(', ')
  return `${label}: ${total} calls (${detail})`
}

const sb = await startSandbox({ seed: 1 })
const restore = pointEnvironmentAt(sb)
try {
  console.log(`Sandbox seed 1: ${REVIEWS} product reviews, 500 brand reviews, ${PRODUCTS} products`)
  console.log(
    `Lower bound for product reviews and ratings: ceil(${REVIEWS}/200) + ceil(${PRODUCTS}/200) = ${lowerBound}`,
  )
  for (const fixture of ['catalog', 'shop']) {
    await sb.sandbox.reset()
    const outDir = await mkdtemp(join(tmpdir(), `vr-measure-${fixture}-`))
    const cacheDir = await mkdtemp(join(tmpdir(), `vr-measure-${fixture}-cache-`))
    try {
      const build = () =>
        buildFixture(fixture, {
          site: 'https://shop.example',
          outDir,
          cacheDir,
          integrations: [verifiedReviews()],
        })
      await takeOperations(sb)
      await build()
      const pages = (await readPages(outDir)).size
      console.log(row(`${fixture}, first build (${pages} pages)`, await takeOperations(sb)))
      await sb.admin('POST', 'product-reviews', [
        { product_variation_id: 'SKU-001' },
        { product_variation_id: 'SKU-002' },
        { product_variation_id: 'SKU-003' },
      ])
      await takeOperations(sb)
      await build()
      console.log(row(`${fixture}, second build after 3 new reviews`, await takeOperations(sb)))
    } finally {
      await rm(outDir, { recursive: true, force: true })
      await rm(cacheDir, { recursive: true, force: true })
    }
  }
} finally {
  restore()
  await sb.close()
}
