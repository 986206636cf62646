import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { ProductReview } from '../../types/published.ts'
import type { ReviewsCatalog } from '../catalog/local-catalog.ts'
import type { PrefetchProgress } from '../catalog/prefetch-progress.ts'
import { cursorSignerFromSecret } from '../cursor/signed-cursor.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { createSqliteReviewStore } from '../sync/sqlite-store.ts'
import { buildDataSource, loadProductView } from '../view/product-view.ts'
import { type CatalogSharing, createReviewsCatalog, type ReviewsCatalogOptions } from './reviews-catalog.ts'
import type { PrefetchShare } from './run-once.ts'

/** Seeded: 60 products, 3,000 product reviews; SKU-001 has 11 reviews, SKU-002 19, SKU-012 none. */
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
/** An account of more than 200 products, whose review count the named products' summaries do not give. */
const large = sandboxForFile({ seed: 3, products: 250, reviews: 1200, rateLimit: 0 })
const CATALOGUE = Array.from({ length: 60 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`)
const signer = cursorSignerFromSecret('a test secret of at least thirty-two characters')

/** The first page of the newest reviews that the review components show from a catalog at build time. */
function firstPage(data: ReviewsCatalog, ids: string[], limit: number) {
  return loadProductView({
    source: buildDataSource(data),
    ids,
    view: { sort: 'newest', rates: [] },
    limit,
    signer,
  })
}

function catalog(options: Omit<ReviewsCatalogOptions, 'client'> = {}) {
  return createReviewsCatalog({ client: sb.client(), ...options })
}

async function operations(): Promise<Record<string, number>> {
  const { 'token.published': _token, ...api } = (await sb.stats()).operations
  return api
}

let directories: string[] = []
beforeEach(async () => {
  directories = await Promise.all([1, 2].map(() => mkdtemp(join(tmpdir(), 'vr-catalog-'))))
})
afterEach(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })))
})

describe('createReviewsCatalog in one process', () => {
  it('fetches once for every concurrent caller (one summary walk, one sync)', async () => {
    const reviews = catalog()
    const [a, b] = await Promise.all([reviews.reviews('SKU-001'), reviews.reviews('SKU-002')])
    await reviews.reviews('SKU-001')
    expect([a.length, b.length]).toEqual([11, 19])
    expect(await operations()).toEqual({ 'products.list': 1, 'products.reviews.list': 15 })
    expect(reviews.calls()).toEqual({ reviews: 15, products: 1 })
  })

  it('fetches the reviews of the named products when that costs fewer calls than the sync', async () => {
    const named = catalog({ productIds: ['SKU-001', 'SKU-002'] })
    const report = await named.report()
    expect(report).toMatchObject({
      mode: 'named',
      reviews: 30,
      products: 2,
      calls: { reviews: 1, summaries: 1 },
      lowerBound: 2,
      estimate: { named: 1, sync: 15 },
    })
    expect(await operations()).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
    // The same reviews, in the same order, as the sync of every review gives.
    const all = catalog()
    expect(await named.reviews('SKU-002')).toEqual(await all.reviews('SKU-002'))
  })

  it('syncs every review when the build names most of the catalogue and the sync costs no more', async () => {
    const report = await catalog({ productIds: CATALOGUE }).report()
    expect(report).toMatchObject({ mode: 'full', reviews: 3000, calls: { reviews: 15, summaries: 1 } })
    expect(report.estimate).toEqual({ named: 15, sync: 15 })
    expect(await operations()).toEqual({ 'products.list': 1, 'products.reviews.list': 15 })
  })

  it('syncs incrementally from a store a finished sync left, in one call, rather than fetch the named reviews', async () => {
    const store = createMemoryReviewStore<ProductReview>()
    await catalog({ store }).report()
    await sb.admin('DELETE', 'stats')
    const report = await catalog({ store, productIds: CATALOGUE.slice(0, 30) }).report()
    expect(report).toMatchObject({ mode: 'incremental', calls: { reviews: 1, summaries: 1 } })
    expect(await operations()).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
  })

  it("keeps the named products' reviews in a kept store, which a sync of the account never takes for its own", async () => {
    const store = createMemoryReviewStore<ProductReview>()
    const named = CATALOGUE.slice(0, 40)
    const first = await catalog({ store, productIds: named }).report()
    expect(first).toMatchObject({ mode: 'named', calls: { reviews: first.estimate.named } })
    const held = (await store.getCheckpoint())?.products
    // The named products with reviews (4 of the 40 have none): those the store holds.
    expect(held).toHaveLength(36)
    expect(held).toEqual(await store.keys())
    await sb.admin('DELETE', 'stats')
    // The whole account: a full sync, not an incremental one that would stop at a named review.
    const account = catalog({ store })
    expect(await account.report()).toMatchObject({ mode: 'full', reviews: 3000, calls: { reviews: 15 } })
    expect(await account.reviews('SKU-050')).toEqual(await catalog().reviews('SKU-050'))
    expect((await store.getCheckpoint())?.products).toBeUndefined()
    await sb.admin('DELETE', 'stats')
    // Named again: the account's store serves them by its incremental sync.
    expect(await catalog({ store, productIds: named }).report()).toMatchObject({
      mode: 'incremental',
      calls: { reviews: 1 },
    })
  })

  it('reads reviews a loader already synced without a call', async () => {
    const reviews = catalog({ store: createMemoryReviewStore<ProductReview>(), sync: false })
    expect(await reviews.reviews('SKU-001')).toEqual([])
    expect(await reviews.syncReport()).toBeUndefined()
    expect(await operations()).toEqual({})
  })

  it('takes the ratings from the summaries, without a ratings call', async () => {
    const data = catalog({ productIds: ['SKU-001', 'SKU-012'] })
    const ratings = await data.ratings(['SKU-001', 'SKU-012'])
    expect([...ratings.keys()]).toEqual(['SKU-001'])
    expect(ratings.get('SKU-001')).toEqual((await data.summaries()).get('SKU-001')?.ratings)
    expect(await operations()).toEqual({ 'products.list': 1 })
  })

  it('gives the first page of a product group, newest first, with a signed cursor to go on from', async () => {
    const data = catalog({ productIds: ['SKU-001', 'SKU-002'] })
    const page = await firstPage(data, ['SKU-001', 'SKU-002'], 10)
    expect(page.data).toHaveLength(10)
    expect(page.summary?.ratings.count_total).toBe(30)
    const dates = page.data.map((review) => Date.parse(review.publish_date))
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    expect(page.nextCursor).toEqual(expect.any(String))
    expect(await firstPage(data, ['SKU-001'], 20)).toMatchObject({ nextCursor: undefined })
  })

  it('reads a first page through the SQLite store’s index, the same page as from every review of each product', async () => {
    const indexed = catalog({
      store: createSqliteReviewStore(join(directories[0] as string, 'reviews.sqlite')),
    })
    expect(indexed.newestReviews).toBeDefined()
    const whole: ReviewsCatalog = { ...indexed, newestReviews: undefined }
    for (const ids of [...CATALOGUE.map((id) => [id]), ['SKU-001', 'SKU-002'], ['SKU-012']]) {
      for (const limit of [5, 11, 12]) {
        expect(await firstPage(indexed, ids, limit)).toEqual(await firstPage(whole, ids, limit))
      }
    }
  })

  it('tells the pages of summaries and reviews and the report, with the reviews it expects', async () => {
    const told: PrefetchProgress[] = []
    await catalog({ productIds: ['SKU-001', 'SKU-002'], onProgress: (p) => told.push(p) }).report()
    expect(told.map((p) => p.phase)).toEqual(['summaries', 'reviews', 'done'])
    expect(told[1]).toEqual({ phase: 'reviews', reviews: 30, expected: 30, calls: 1 })
  })
})

describe('createReviewsCatalog shared by the processes of a build', () => {
  it('lets one fetch for the build workers of a machine (lock file) and gives the same first page', async () => {
    const sharing: CatalogSharing = { directory: directories[0] as string, buildId: 'workers' }
    const [one, two] = [catalog({ sharing }), catalog({ sharing })]
    const [a, b] = await Promise.all([firstPage(one, ['SKU-002'], 5), firstPage(two, ['SKU-002'], 5)])
    expect(b).toEqual(a)
    expect(a).toEqual(await firstPage(catalog(), ['SKU-002'], 5))
    expect(await operations()).toEqual({ 'products.list': 2, 'products.reviews.list': 30 })
    expect((await one.report()).mode).toBe('full')
  })

  it('reads the same first pages from the shared file as from every review of each product', async () => {
    const sharing: CatalogSharing = { directory: directories[0] as string, buildId: 'pages' }
    const shared = catalog({ sharing })
    const whole: ReviewsCatalog = { ...catalog(), newestReviews: undefined }
    for (const ids of [...CATALOGUE.map((id) => [id]), ['SKU-001', 'SKU-002'], ['SKU-012']]) {
      for (const limit of [5, 11, 12]) {
        expect(await firstPage(shared, ids, limit)).toEqual(await firstPage(whole, ids, limit))
      }
    }
  })

  it('lets one machine fetch for the others through a share, named products included', async () => {
    const texts = new Map<string, string>()
    const locks = new Set<string>()
    const share: PrefetchShare = {
      get: async (name) => texts.get(name),
      set: async (name, text) => void texts.set(name, text),
      lock: async (name) => {
        if (locks.has(name)) return undefined
        locks.add(name)
        return { release: async () => void locks.delete(name) }
      },
    }
    const machines = directories.map((directory) =>
      catalog({ productIds: ['SKU-001', 'SKU-002'], sharing: { directory, buildId: 'machines', share } }),
    )
    const reports = await Promise.all(machines.map((machine) => machine.report()))
    expect(reports.map((report) => report.mode)).toEqual(['named', 'named'])
    expect(await Promise.all(machines.map(async (m) => (await m.reviews('SKU-001')).length))).toEqual([
      11, 11,
    ])
    expect(await operations()).toEqual({ 'products.list': 1, 'products.reviews.list': 1 })
  })
})

describe('createReviewsCatalog naming a few products of an account of more than 200', () => {
  async function reviewCalls(): Promise<Record<string, number>> {
    const { 'token.published': _token, ...api } = (await large.stats()).operations
    return api
  }

  it('fetches the named reviews into a store each run starts without (keptStore: false)', async () => {
    const store = createMemoryReviewStore<ProductReview>()
    const report = await createReviewsCatalog({
      client: large.client(),
      productIds: ['SKU-001', 'SKU-002'],
      store,
      keptStore: false,
    }).report()
    expect(report).toMatchObject({ mode: 'named', estimate: { named: 1, sync: undefined } })
    expect(await reviewCalls()).toEqual({ 'products.list': 2, 'products.reviews.list': 1 })
  })

  it('syncs once into a store kept between runs, so that the next run is incremental', async () => {
    const store = createMemoryReviewStore<ProductReview>()
    const first = await createReviewsCatalog({
      client: large.client(),
      productIds: ['SKU-001'],
      store,
    }).report()
    expect(first.mode).toBe('full')
    const second = await createReviewsCatalog({
      client: large.client(),
      productIds: ['SKU-001'],
      store,
    }).report()
    expect(second).toMatchObject({ mode: 'incremental', calls: { reviews: 1 } })
  })
})
