import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { BrandReview, ProductReview } from '../../types/published.ts'
import { createMemoryCache } from '../cache/memory-store.ts'
import type { CacheStore } from '../cache/store.ts'
import { createMemoryReviewStore } from './memory-store.ts'
import { createSqliteReviewStore } from './sqlite-store.ts'
import { syncBrandReviews, syncProductReviews } from './sync-reviews.ts'

const sb = sandboxForFile({ seed: 1 })

async function listCalls(operation = 'products.reviews.list'): Promise<number> {
  return (await sb.stats()).operations[operation] ?? 0
}

describe('syncProductReviews against the sandbox', () => {
  it('holds every seeded review after the first, full sync', async () => {
    const store = createMemoryReviewStore()
    const report = await syncProductReviews({ client: sb.client(), store })
    expect(report).toMatchObject({
      mode: 'full',
      newReviews: 3000,
      updatedReviews: 0,
      calls: 15,
      resumed: false,
    })
    expect(await store.count()).toBe(3000)
    expect(await listCalls()).toBe(15)
  })

  it('finds exactly the reviews added since, in one call, and names their products', async () => {
    const vr = sb.client()
    const store = createMemoryReviewStore()
    await syncProductReviews({ client: vr, store })
    const added = (await sb.admin('POST', 'product-reviews', [
      { product_variation_id: 'SKU-007' },
      { product_variation_id: 'SKU-001' },
      { product_variation_id: 'SKU-NEW' },
    ])) as ProductReview[]
    await sb.admin('DELETE', 'stats')
    const report = await syncProductReviews({ client: vr, store })
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 3, updatedReviews: 0, calls: 1 })
    expect(report.affectedProductIds).toEqual(['SKU-001', 'SKU-007', 'SKU-NEW'])
    expect(await listCalls()).toBe(1)
    expect(await store.getMany(added.map((r) => r.review_id))).toEqual(added)
    expect(await store.count()).toBe(3003)
  })

  it('goes past the cache of a client that has one: it never fills it, and a later sync sees new reviews', async () => {
    const cache = createMemoryCache()
    let stored = 0
    const counting: CacheStore = {
      ...cache,
      set: (key, value, options) => {
        stored++
        return cache.set(key, value, options)
      },
    }
    const vr = sb.client({ cache: { store: counting, ttl: 300 } })
    const store = createMemoryReviewStore()
    expect(await syncProductReviews({ client: vr, store })).toMatchObject({ mode: 'full', calls: 15 })
    // An answer cached by a reader of the same client: the sync's first page must not come from it.
    await vr.products.reviews.list({ limit: 200, sort: ['publish_date'], desc: ['publish_date'] })
    expect(stored).toBe(1)
    await sb.admin('POST', 'product-reviews', [{ product_variation_id: 'SKU-003' }])
    await sb.admin('DELETE', 'stats')
    const report = await syncProductReviews({ client: vr, store })
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 1, calls: 1 })
    expect(report.affectedProductIds).toEqual(['SKU-003'])
    expect(await listCalls()).toBe(1)
    expect(stored).toBe(1)
  })

  it('resumes an interrupted full sync from its checkpoint without fetching earlier pages again', async () => {
    const store = createMemoryReviewStore()
    let pages = 0
    const failing = sb.client({
      maxRetries: 0,
      fetch: async (input, init) => {
        const res = await fetch(input, init)
        if (new URL(input).pathname.endsWith('/products/reviews') && ++pages === 4) {
          await sb.admin('POST', 'faults', [{ operation: 'products.reviews.list', status: 500, rate: 1 }])
        }
        return res
      },
    })
    await expect(syncProductReviews({ client: failing, store })).rejects.toMatchObject({ status: 500 })
    expect(await store.count()).toBe(800)
    await sb.admin('DELETE', 'faults')
    await sb.admin('DELETE', 'stats')

    const report = await syncProductReviews({ client: sb.client(), store })
    expect(report).toMatchObject({ mode: 'full', resumed: true, newReviews: 3000, calls: 11 })
    expect(await listCalls()).toBe(11)
    expect(await store.count()).toBe(3000)
  })
})

describe('syncBrandReviews against the sandbox', () => {
  it('holds every seeded brand review, then finds a new one by its shop', async () => {
    const vr = sb.client()
    const store = createMemoryReviewStore<BrandReview>()
    expect(await syncBrandReviews({ client: vr, store })).toMatchObject({
      mode: 'full',
      newReviews: 500,
      calls: 3,
    })
    const [shop] = (await store.keys()).filter((key) => key !== '')
    await sb.admin('POST', 'brand-reviews', [{ shop_key: shop }])
    const report = await syncBrandReviews({ client: vr, store })
    expect(report).toMatchObject({ mode: 'incremental', newReviews: 1, calls: 1, affectedShopKeys: [shop] })
  })

  it('asks the sandbox only for brand reviews published since the newest one held', async () => {
    const urls: URL[] = []
    const vr = sb.client({
      fetch: (input, init) => {
        urls.push(new URL(input))
        return fetch(input, init)
      },
    })
    const store = createMemoryReviewStore<BrandReview>()
    await syncBrandReviews({ client: vr, store })
    const watermark = (await store.getCheckpoint())?.watermark
    await sb.admin('POST', 'brand-reviews', [{ shop_key: '' }])
    urls.length = 0
    expect(await syncBrandReviews({ client: vr, store })).toMatchObject({ newReviews: 1, calls: 1 })
    const [request] = urls.filter((url) => url.pathname.endsWith('/brands/reviews'))
    expect(request?.searchParams.get('publish_date.gte')).toBe(watermark)
  })
})

describe('syncProductReviews with replicaLanguages against the sandbox', () => {
  it('syncs into a trimmed SQLite store, then makes one call that updates nothing when nothing changed', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'vr-kept-'))
    const store = createSqliteReviewStore(join(directory, 'reviews.sqlite'))
    try {
      const vr = sb.client()
      const languages = ['en', 'fr', 'de'] as const
      expect(await syncProductReviews({ client: vr, store, replicaLanguages: languages })).toMatchObject({
        mode: 'full',
        newReviews: 3000,
      })
      const [held] = await store.all()
      expect(held).not.toHaveProperty('order_reference')
      await sb.admin('DELETE', 'stats')
      const report = await syncProductReviews({ client: vr, store, replicaLanguages: languages })
      expect(report).toMatchObject({ mode: 'incremental', newReviews: 0, updatedReviews: 0, calls: 1 })
      expect(await listCalls()).toBe(1)
    } finally {
      await store.close()
      await rm(directory, { recursive: true, force: true })
    }
  })
})
