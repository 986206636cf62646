/**
 * Benchmark of `createSqliteReviewStore` at a real catalogue's size (a figure, not a test): a full sync's
 * writes of `--reviews` reviews over `--products` products, in pages of 200, each page looked up first
 * (`getMany`, as the sync does to find what changed) then stored with its checkpoint (whose `affected`
 * grows to every product, as in a full sync); then the reviews of `--reads` products read by key. The
 * reviews are the sandbox's seeded ones (some 3 KB of JSON each, with their 13 translations), copied
 * under new ids, products and dates. The measured part runs in a child process that never held the
 * sandbox, so its peak RSS is the store's and the sync's own.
 *
 *   pnpm bench:sqlite-store [--reviews 1000000] [--products 10000] [--reads 10000]
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { ProductReview } from '@verified-reviews/core'
import { createSqliteReviewStore, type SyncCheckpoint } from '@verified-reviews/core/sync'

const PAGE = 200
const TEMPLATES = 1000
const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '1000000' },
    products: { type: 'string', default: '10000' },
    reads: { type: 'string', default: '10000' },
    child: { type: 'string' },
  },
})
const reviews = Number(values.reviews)
const products = Number(values.products)
const reads = Math.min(Number(values.reads), products)
const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`
/** Peak resident set of this process so far (`maxRSS` is in KiB). */
const peak = () => process.resourceUsage().maxRSS * 1024

if (values.child === undefined) {
  const directory = await mkdtemp(join(tmpdir(), 'vr-bench-sqlite-'))
  try {
    // Loaded here only: the measured child never holds the client nor the sandbox.
    const { createClient } = await import('@verified-reviews/core')
    const { createSandbox } = await import('@verified-reviews/sandbox')
    const sb = await createSandbox({ rateLimit: 0 })
    const vr = createClient({ origin: sb.origin, clientId: sb.clientId, clientSecret: sb.clientSecret })
    const templates: ProductReview[] = []
    for await (const review of vr.products.reviews.list({ limit: PAGE })) {
      templates.push(review)
      if (templates.length === TEMPLATES) break
    }
    await sb.close()
    await writeFile(join(directory, 'templates.json'), JSON.stringify(templates))
    const argv = process.argv.slice(2).filter((arg, i, all) => arg !== '--child' && all[i - 1] !== '--child')
    execFileSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), ...argv, '--child', directory],
      { stdio: 'inherit' },
    )
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
} else {
  const directory = values.child
  const templates = JSON.parse(await readFile(join(directory, 'templates.json'), 'utf8')) as ProductReview[]
  const file = join(directory, 'reviews.sqlite')
  const store = createSqliteReviewStore(file)
  const start = Date.parse('2020-01-01T00:00:00Z')
  const reviewAt = (i: number): ProductReview => ({
    ...(templates[i % templates.length] as ProductReview),
    review_id: `bench-${String(i).padStart(8, '0')}`,
    product_variation_id: `P${i % products}`,
    publish_date: new Date(start + i * 60_000).toISOString(),
  })
  // The JSON's UTF-8 size from one copy of each template, not from every review: measuring adds no garbage.
  let bytes = 0
  for (let i = 0; i < templates.length; i++) bytes += Buffer.byteLength(JSON.stringify(reviewAt(i)))
  bytes = (bytes / templates.length) * reviews
  const baseline = peak()
  const affected = new Set<string>()
  const writeStart = performance.now()
  for (let from = 0; from < reviews; from += PAGE) {
    const page = Array.from({ length: Math.min(PAGE, reviews - from) }, (_, k) => reviewAt(from + k))
    const held = await store.getMany(page.map((review) => review.review_id))
    if (held.some((review) => review !== undefined)) throw new Error('a new review was found held')
    for (const review of page) affected.add(review.product_variation_id)
    const done = from + PAGE >= reviews
    const checkpoint: SyncCheckpoint = {
      phase: done ? 'idle' : 'full',
      limit: PAGE,
      newReviews: from + page.length,
      updatedReviews: 0,
      affected: [...affected],
    }
    if (!done) checkpoint.cursor = `cursor-${from + PAGE}`
    await store.putMany(page, checkpoint)
    if ((from / PAGE) % 500 === 499) {
      const seconds = (performance.now() - writeStart) / 1000
      console.log(`  ${from + PAGE} reviews in ${seconds.toFixed(0)} s, peak RSS ${MiB(peak())}`)
    }
  }
  const writeSeconds = (performance.now() - writeStart) / 1000
  const writePeak = peak()

  const readStart = performance.now()
  let read = 0
  for (let p = 0; p < reads; p++) read += (await store.list(`P${(p * 7919) % products}`)).length
  const readSeconds = (performance.now() - readStart) / 1000
  const count = await store.count()
  await store.close()
  const size = (await stat(file)).size

  console.log(`sqlite review store: ${reviews} reviews over ${products} products, pages of ${PAGE}`)
  console.log(`  review JSON: ${(bytes / reviews / 1024).toFixed(2)} KiB on average, ${MiB(bytes)} in all`)
  console.log(
    `  write (getMany + putMany with checkpoint per page): ${writeSeconds.toFixed(1)} s, ` +
      `${Math.round(reviews / writeSeconds)} reviews/s, peak RSS ${MiB(writePeak)}`,
  )
  console.log(
    `  read ${reads} products by key (${read} reviews): ${readSeconds.toFixed(1)} s, ` +
      `${((readSeconds * 1000) / reads).toFixed(2)} ms a product`,
  )
  console.log(`  count(): ${count}; file size ${MiB(size)}; peak RSS overall ${MiB(peak())}`)
  console.log(`  (peak RSS of the child before the first write: ${MiB(baseline)}; node ${process.version})`)
}
