/**
 * Bytes a review costs in the site's replica (a figure, not a test): `--reviews` reviews over `--products`
 * products written as a sync writes them (pages of 200, each with its checkpoint) into the SQLite review
 * store (the file's size after close, divided by the reviews) and into the Redis review store (INFO
 * memory `used_memory` after minus before, divided by the reviews), in three forms: whole, as the API
 * sends them (before `replicaLanguages`), kept with the 13 languages, and kept for a site in en, fr and
 * de; with, per store and form, the time the writes took (the store's part of a full sync: the reviews are
 * built before), the mean time of reading a view's first page of 10 reviews of one product (`query`, in
 * SQLite; `getMany` of 10 ids in Redis, whose store has no `query`), over 1,000 products, and the time
 * of a walk over every review (`each()` in SQLite, `all()` in Redis). The reviews are the sandbox's seeded ones (seed 1: 3,000 reviews with their 13 translations),
 * copied under new ids (UUID-shaped, as the API's), products and dates. Redis is a `redis-server` of
 * this script's own, on a free port, with no persistence.
 *
 *   pnpm bench:replica-size [--reviews 100000] [--products 10000]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createClient, type Language, type ProductReview } from '@verified-reviews/core'
import {
  createSqliteReviewStore,
  keptReview,
  type ReviewStore,
  type SyncCheckpoint,
} from '@verified-reviews/core/sync'
import { createRedisConnection, createRedisReviewStore } from '@verified-reviews/redis'
import { createSandbox } from '@verified-reviews/sandbox'

const PAGE = 200
const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '100000' },
    products: { type: 'string', default: '10000' },
  },
})
const reviews = Number(values.reviews)
const products = Number(values.products)

const sb = await createSandbox({ seed: 1, rateLimit: 0 })
const vr = createClient({ origin: sb.origin, clientId: sb.clientId, clientSecret: sb.clientSecret })
const templates: ProductReview[] = []
for await (const review of vr.products.reviews.list({ limit: PAGE })) templates.push(review)
await sb.close()

const start = Date.parse('2020-01-01T00:00:00Z')
const reviewAt = (i: number): ProductReview => ({
  ...(templates[i % templates.length] as ProductReview),
  review_id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
  product_variation_id: `SKU-${String(i % products).padStart(5, '0')}`,
  publish_date: new Date(start + i * 60_000).toISOString(),
})

interface Form {
  name: string
  review: (review: ProductReview) => ProductReview
}
const kept = (languages: readonly Language[]) => (review: ProductReview) =>
  keptReview(review, languages) as ProductReview
const FORMS: Form[] = [
  { name: 'whole (before)', review: (review) => review },
  {
    name: 'kept, 13 languages',
    review: kept(['bg', 'cs', 'de', 'el', 'en', 'es', 'fr', 'it', 'nl', 'pl', 'pt', 'sk', 'tr']),
  },
  { name: 'kept, en fr de', review: kept(['en', 'fr', 'de']) },
]

/**
 * Writes every review in `form` as a full sync does: a page of 200 and its checkpoint per write; answers
 * the reviews' mean bytes of JSON and the seconds the writes took.
 */
async function fill(
  store: ReviewStore<ProductReview>,
  form: Form,
): Promise<{ json: number; seconds: number }> {
  let json = 0
  let writing = 0
  const checkpoint: SyncCheckpoint = { phase: 'full', newReviews: 0, updatedReviews: 0, affected: [] }
  for (let first = 0; first < reviews; first += PAGE) {
    const page: ProductReview[] = []
    for (let i = first; i < Math.min(reviews, first + PAGE); i++) {
      const review = form.review(reviewAt(i))
      json += Buffer.byteLength(JSON.stringify(review))
      page.push(review)
    }
    checkpoint.newReviews += page.length
    const started = performance.now()
    await store.putMany(page, checkpoint)
    writing += performance.now() - started
  }
  await store.setCheckpoint({ ...checkpoint, phase: 'idle', completedAt: new Date().toISOString() })
  return { json: json / reviews, seconds: writing / 1000 }
}

/** Products whose first page the read figures read: 1,000 spread over the catalogue. */
const READS = Math.min(1000, products)
const productAt = (i: number) => `SKU-${String(Math.floor((i * products) / READS)).padStart(5, '0')}`

/** Mean microseconds of one call of `read`, over the {@link READS} products. */
async function meanMicros(read: (product: string, i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < READS; i++) await read(productAt(i), i)
  return ((performance.now() - started) * 1000) / READS
}

/** Seconds a walk over every review takes (`walk` answers the reviews it saw, checked against them all). */
async function walkSeconds(walk: () => Promise<number>): Promise<number> {
  const started = performance.now()
  const seen = await walk()
  if (seen !== reviews) throw new Error(`the walk saw ${seen} reviews of ${reviews}`)
  return (performance.now() - started) / 1000
}

/** The ids of up to 10 reviews of the `p`-th product (`reviewAt` gives review `i` to product `i % products`). */
const idsOf = (p: number) => {
  const ids: string[] = []
  for (let i = p; i < reviews && ids.length < 10; i += products) ids.push(reviewAt(i).review_id)
  return ids
}

async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.env.REDIS_SERVER ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  for await (const chunk of child.stdout ?? []) {
    output += String(chunk)
    if (output.includes('Ready to accept connections')) return child
  }
  throw new Error(`redis-server did not start:\n${output}`)
}

const directory = await mkdtemp(join(tmpdir(), 'vr-bench-replica-'))
const redisPort = await freePort()
const redis = await startRedis(redisPort)
const connection = createRedisConnection({ url: `redis://127.0.0.1:${redisPort}`, commandTimeout: 60_000 })
// The stores connect it on first use; INFO and FLUSHALL go to it before they do.
if (!connection.client.isOpen) await connection.client.connect()
const usedMemory = async (): Promise<number> => {
  const info = String(await connection.client.sendCommand(['INFO', 'memory']))
  return Number(/used_memory:(\d+)/.exec(info)?.[1])
}

const rows: string[][] = []
try {
  for (const [i, form] of FORMS.entries()) {
    const file = join(directory, `replica-${i}.sqlite`)
    const sqlite = createSqliteReviewStore<ProductReview>(file)
    const { json, seconds: sqliteWrite } = await fill(sqlite, form)
    await sqlite.close()
    const sqliteBytes = (await stat(file)).size
    const reading = createSqliteReviewStore<ProductReview>(file)
    const sqliteView = await meanMicros(async (product) => {
      const page = await reading.query?.({ keys: [product], order: 'newest', rates: [], limit: 10 })
      if (page?.data.length !== Math.min(10, Math.ceil(reviews / products))) throw new Error('a short page')
    })
    const sqliteWalk = await walkSeconds(async () => {
      let seen = 0
      for await (const _ of reading.each()) seen++
      return seen
    })
    await reading.close()

    await connection.client.sendCommand(['FLUSHALL'])
    const before = await usedMemory()
    const redisStore = createRedisReviewStore<ProductReview>(connection)
    const { seconds: redisWrite } = await fill(redisStore, form)
    const redisBytes = (await usedMemory()) - before
    const redisGet = await meanMicros(async (_, i) => {
      const ids = idsOf(Math.floor((i * products) / READS))
      if ((await redisStore.getMany(ids)).some((review) => review === undefined))
        throw new Error('a review missing')
    })
    const redisWalk = await walkSeconds(async () => (await redisStore.all()).length)
    await connection.client.sendCommand(['FLUSHALL'])

    rows.push([
      form.name,
      json.toFixed(0),
      (sqliteBytes / reviews).toFixed(0),
      `${(sqliteBytes / 2 ** 20).toFixed(1)} MiB`,
      sqliteWrite.toFixed(1),
      sqliteView.toFixed(0),
      sqliteWalk.toFixed(2),
      (redisBytes / reviews).toFixed(0),
      `${(redisBytes / 2 ** 20).toFixed(1)} MiB`,
      redisWrite.toFixed(1),
      redisGet.toFixed(0),
      redisWalk.toFixed(2),
    ])
  }
} finally {
  await connection.close()
  redis.kill('SIGTERM')
  await rm(directory, { recursive: true, force: true })
}

console.log(
  `Replica size: ${reviews.toLocaleString('en')} reviews over ${products.toLocaleString('en')} products ` +
    `(the sandbox's seed 1: ${templates.length} reviews, copied)\n`,
)
const header = [
  'form',
  'JSON B/review',
  'SQLite B/review',
  'SQLite file',
  'write s',
  'view 10 µs',
  'each() s',
  'Redis B/review',
  'Redis used_memory',
  'write s',
  'get 10 µs',
  'all() s',
]
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
)
for (const row of [header, ...rows]) {
  console.log(
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  '),
  )
}
