import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cursorSigner } from '@verified-reviews/core/endpoint'
import { buildDataSource, loadProductView } from '@verified-reviews/core/internal'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { buildCatalog, getBuildData, prefetchedProductReviews } from './build-data.ts'
import { writeBuildProducts } from './internal/build-products.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const large = sandboxForFile({ seed: 3, products: 250, reviews: 1200, rateLimit: 0 })
let distDir: string

beforeEach(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'vr-next-build-'))
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(distDir, { recursive: true, force: true })
})

describe('getBuildData', () => {
  it('is undefined outside next build', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-server')
    expect(await getBuildData()).toBeUndefined()
    expect(await prefetchedProductReviews('SKU-001')).toBeUndefined()
  })

  it('fetches the catalogue once during next build and leaves the review store for the revalidate route', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    const data = await getBuildData()
    expect(data?.productIds).toHaveLength(60)
    expect(data?.calls).toEqual({ reviews: 15, summaries: 1 })
    expect((await readdir(join(distDir, 'verified-reviews'))).sort()).toEqual([
      'reviews.sqlite',
      'reviews.sqlite-shm',
      'reviews.sqlite-wal',
    ])
  })

  it("gives one product's summary and reviews, newest first", async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    const product = await prefetchedProductReviews('SKU-002')
    expect(product?.summary?.ratings.count_total).toBe(19)
    const dates = product?.reviews.map((review) => review.publish_date) ?? []
    expect(dates).toHaveLength(19)
    expect(dates).toEqual([...dates].sort().reverse())
  })

  it('fetches only the reviews of the products withVerifiedReviews names, when that costs fewer calls', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    vi.stubEnv('VERIFIED_REVIEWS_BUILD_PRODUCTS', '')
    await writeBuildProducts(['SKU-001', 'SKU-002'])
    const data = await getBuildData()
    expect(data?.productIds).toEqual(['SKU-001', 'SKU-002'])
    expect(data?.calls).toEqual({ reviews: 1, summaries: 1 })
    expect(data?.report).toMatchObject({ mode: 'named', reviews: 30, lowerBound: 2 })
    expect(data?.reviews('SKU-002')).toHaveLength(19)
    const { 'token.published': _token, ...api } = (await sb.stats()).operations
    expect(api).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
  })

  it('gives the components the first page of a product from the build data, with a cursor to go on', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    const catalog = await buildCatalog()
    const signer = cursorSigner(undefined, 'a cursor secret of thirty-two characters or more')
    if (catalog === undefined) throw new Error('no build catalog')
    const page = await loadProductView({
      source: buildDataSource(catalog),
      ids: ['SKU-002'],
      view: { sort: 'newest', rates: [] },
      limit: 10,
      signer,
    })
    expect(page.data).toHaveLength(10)
    expect(page.summary?.ratings.count_total).toBe(19)
    expect(page.nextCursor).toEqual(expect.any(String))
  })

  it("gives every later page the build's one catalog without making its options again", async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    const first = await buildCatalog()
    expect(first).toBeDefined()
    const reads = new Map<string, number>()
    const environment = process.env
    process.env = new Proxy(environment, {
      get(target, name, receiver) {
        if (typeof name === 'string') reads.set(name, (reads.get(name) ?? 0) + 1)
        return Reflect.get(target, name, receiver)
      },
    })
    try {
      expect(await buildCatalog()).toBe(first)
    } finally {
      process.env = environment
    }
    // The build folder's name reads the environment once; the options (a client among them) read it
    // some six times more, at every page.
    expect(reads.get('VERIFIED_REVIEWS_CLIENT_ID')).toBe(1)
  })

  it('fetches the named products of an account of more than 200 by their ids: each build starts without a store', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    for (const [name, value] of Object.entries(large.env())) vi.stubEnv(name, value)
    vi.stubEnv('VERIFIED_REVIEWS_BUILD_PRODUCTS', '')
    await writeBuildProducts(['SKU-001', 'SKU-002'])
    const data = await getBuildData()
    expect(data?.report).toMatchObject({ mode: 'named', products: 2 })
    const { 'token.published': _token, ...api } = (await large.stats()).operations
    // One call for the first page of the walk (it has more), one for the named summaries, one for reviews.
    expect(api).toEqual({ 'products.list': 2, 'products.reviews.list': 1 })
  })
})
