// The content loaders used without the integration (only in content.config.ts), against the sandbox: their
// client comes from the project's .env, their lines go to their own logger, and their API calls are
// counted by the sandbox.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { productReview } from '../../../test/fixtures/reviews.ts'
import { sandboxForFile, startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { buildFixture, pointEnvironmentAt, readPages, takeOperations } from '../test/build-fixture.ts'
import { loaderContext } from '../test/loader-context.ts'
import { type ProductReviewsEntry, productRatingsLoader, productReviewsLoader } from './loaders.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const SEEDED = { reviews: 3000, products: 60 }
const NAMED = ['SKU-001', 'SKU-003', 'SKU-012']

let dir: string
// The tests own the VERIFIED_REVIEWS_* variables of the process: the loaders read the project's .env.
const saved = Object.entries(process.env).filter(([name]) => name.startsWith('VERIFIED_REVIEWS_'))

beforeEach(async () => {
  for (const [name] of saved) delete process.env[name]
  dir = await mkdtemp(join(tmpdir(), 'vr-astro-loaders-'))
  await writeDotEnv(sb.env())
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
  for (const [name, value] of saved) process.env[name] = value
})

async function writeDotEnv(variables: Record<string, string>): Promise<void> {
  const lines = Object.entries(variables).map(([name, value]) => `${name}=${value}\n`)
  await writeFile(join(dir, '.env'), lines.join(''))
}

const project = () => loaderContext(pathToFileURL(`${dir}/`))

/** The API calls since the last look, by operation (token requests left out), and their total. */
async function apiCalls(): Promise<{ operations: Record<string, number>; total: number }> {
  const { 'token.published': _token, ...operations } = await takeOperations(sb)
  return { operations, total: Object.values(operations).reduce((sum, count) => sum + count, 0) }
}

function entryOf(collection: ReturnType<typeof project>, id: string): ProductReviewsEntry {
  const entry = collection.entries.get(id)
  if (entry === undefined) throw new Error(`no entry ${id}`)
  return entry.data as unknown as ProductReviewsEntry
}

describe('productReviewsLoader without the integration', () => {
  it('loads 3 named products of an account of 3,000 reviews in at most 5 API calls', async () => {
    await apiCalls()
    const collection = project()
    await collection.load(productReviewsLoader({ products: NAMED }))
    const { operations, total } = await apiCalls()
    expect(operations).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
    expect(total).toBeLessThanOrEqual(5)
    expect([...collection.entries.keys()].sort()).toEqual(NAMED)
    expect(collection.lines.info.at(-1)).toBe('3 products with 22 reviews: 2 API calls; 3 entries written')
  })

  it('gives each product one entry: its rating and its reviews, newest first', async () => {
    const collection = project()
    await collection.load(productReviewsLoader({ products: async () => NAMED }))
    const entry = entryOf(collection, 'SKU-001')
    expect(entry.product_variation_id).toBe('SKU-001')
    expect(entry.rating).toMatchObject({ product_variation_id: 'SKU-001', count_total: 11 })
    expect(entry.reviews).toHaveLength(11)
    const dates = entry.reviews.map((review) => review.publish_date)
    expect(dates).toEqual([...dates].sort().reverse())
    expect(entry.reviews.every((review) => review.product_variation_id === 'SKU-001')).toBe(true)
  })

  it('gives a named product without reviews an entry with no rating and no reviews', async () => {
    const collection = project()
    await collection.load(productReviewsLoader({ products: NAMED }))
    expect(entryOf(collection, 'SKU-012')).toEqual({
      product_variation_id: 'SKU-012',
      rating: null,
      reviews: [],
    })
  })

  it('fetches on a later run only the reviews published since, in no more calls than the first', async () => {
    const collection = project()
    const loader = productReviewsLoader({ products: NAMED })
    await collection.load(loader)
    const first = await apiCalls()
    // The mark of the products held, which makes the next run ask only for what was published since.
    const mark = JSON.parse(collection.metadata.get('verified-reviews:product-sync') ?? '{}')
    expect(mark).toMatchObject({ phase: 'idle', products: ['SKU-001', 'SKU-003'] })
    await sb.admin('POST', 'product-reviews', [
      { product_variation_id: 'SKU-003', review_content: 'Arrived after the first build' },
    ])
    await collection.load(loader)
    const second = await apiCalls()
    expect(second.total).toBeLessThanOrEqual(first.total)
    expect(second.operations).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
    const reviews = entryOf(collection, 'SKU-003').reviews
    expect(reviews[0]?.review_content).toBe('Arrived after the first build')
    expect(new Set(reviews.map((review) => review.review_id)).size).toBe(reviews.length)
  })

  it('loads every product of the account without products, then only the new reviews', async () => {
    const collection = project()
    const loader = productReviewsLoader()
    await collection.load(loader)
    const first = await apiCalls()
    expect(first.operations).toEqual({ 'products.list': 1, 'products.reviews.list': SEEDED.reviews / 200 })
    expect(collection.entries.size).toBe(SEEDED.products)
    const held = [...collection.entries.values()].reduce(
      (sum, { data }) => sum + (data as unknown as ProductReviewsEntry).reviews.length,
      0,
    )
    expect(held).toBe(SEEDED.reviews)
    await collection.load(loader)
    expect((await apiCalls()).operations).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
  })

  it('starts over from a collection of one entry per review, left by an earlier version', async () => {
    const collection = project()
    collection.entries.set('old-review', { id: 'old-review', data: { ...productReview() } })
    collection.metadata.set('verified-reviews:sync', '{}')
    await collection.load(productReviewsLoader({ products: NAMED }))
    expect([...collection.entries.keys()].sort()).toEqual(NAMED)
  })

  it('stops the build with one line naming the variables when the credentials are refused', async () => {
    await writeDotEnv({ ...sb.env(), VERIFIED_REVIEWS_CLIENT_SECRET: 'not-the-secret' })
    const collection = project()
    await expect(collection.load(productReviewsLoader({ products: NAMED }))).rejects.toThrow(
      /^product reviews not loaded: VERIFIED_REVIEWS_CLIENT_ID \(.+\) and VERIFIED_REVIEWS_CLIENT_SECRET were refused: .+: the build stops/,
    )
    expect(collection.entries.size).toBe(0)
  })

  it('says once through its logger that it has no credentials, and loads nothing', async () => {
    await writeDotEnv({ VERIFIED_REVIEWS_ORIGIN: sb.sandbox.origin })
    const collection = project()
    await collection.load(productReviewsLoader({ products: NAMED }))
    expect(collection.lines.error).toEqual([
      expect.stringMatching(/^product reviews not loaded: .*VERIFIED_REVIEWS_CLIENT_ID/),
    ])
    expect(collection.entries.size).toBe(0)
    expect((await apiCalls()).total).toBe(0)
  })
})

describe('productRatingsLoader without the integration', () => {
  it('loads the ratings of the named products from their summaries, in one call', async () => {
    await apiCalls()
    const collection = project()
    await collection.load(productRatingsLoader({ products: NAMED }))
    expect((await apiCalls()).operations).toEqual({ 'products.list': 1 })
    expect([...collection.entries.keys()].sort()).toEqual(['SKU-001', 'SKU-003'])
  })
})

describe('astro build of a site whose config has no integration', () => {
  it('loads the named products with the loader alone, one entry each, in 2 API calls', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'vr-astro-standalone-out-'))
    const restore = pointEnvironmentAt(sb)
    try {
      await apiCalls()
      await buildFixture('standalone-loader', { outDir, cacheDir: join(dir, 'cache'), integrations: [] })
      expect((await apiCalls()).operations).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
      const html = (await readPages(outDir)).get('index.html') ?? ''
      expect(html).toContain('<p id="reviewed" data-rating="11">11</p>')
      expect(html).toContain('<p id="unreviewed" data-rating="null">0</p>')
    } finally {
      restore()
      await rm(outDir, { recursive: true, force: true })
    }
  })
})

describe('productReviewsLoader over a catalogue of 10,000 products and 100,000 reviews', () => {
  let large: TestSandbox
  beforeAll(async () => {
    large = await startSandbox({ seed: 1, products: 10_000, reviews: 100_000, rateLimit: 0 })
  }, 60_000)
  afterAll(async () => {
    await large?.close()
  })

  /** The API calls of the large sandbox since the last look, token requests left out. */
  async function largeCalls(): Promise<Record<string, number>> {
    const { 'token.published': _token, ...operations } = await takeOperations(large)
    return operations
  }

  it('loads 3 named products in at most 5 API calls, and no more on the next run', async () => {
    await writeDotEnv(large.env())
    const collection = project()
    // Ids of as many digits as the catalogue needs; SKU-99999 is unknown to the API.
    const named = ['SKU-00001', 'SKU-00002', 'SKU-99999']
    const loader = productReviewsLoader({ products: named })
    await largeCalls()
    await collection.load(loader)
    const first = await largeCalls()
    // An account of over 200 products: the first page of products.list, then the 3 by their ids.
    expect(first).toEqual({ 'products.list': 2, 'products.reviews.list': 1 })
    await collection.load(loader)
    expect(await largeCalls()).toEqual(first)
    expect([...collection.entries.keys()].sort()).toEqual(named)
    expect(entryOf(collection, 'SKU-99999')).toEqual({
      product_variation_id: 'SKU-99999',
      rating: null,
      reviews: [],
    })
  }, 60_000)
})
