import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  createMemoryReviewStore,
  createSqliteReviewStore,
  syncProductReviews,
} from '@verified-reviews/core/sync'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { getBuildData } from './build-data.ts'
import {
  createRevalidateRoute,
  type RevalidateRouteBody,
  type RevalidateRouteOptions,
} from './revalidate-route.ts'

vi.mock('next/cache.js', () => ({ revalidateTag: vi.fn() }))

const SECRET = 'a-secret-of-the-scheduler-0123456789'
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
let revalidated: Array<[string, unknown]>

beforeEach(() => {
  revalidated = []
  // A fresh process's state: no replica opened, none bypassed by a route of an earlier test.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('verified-reviews.next.replica')]
})
afterEach(() => {
  vi.unstubAllEnvs()
})

function route(options: RevalidateRouteOptions = {}) {
  return createRevalidateRoute({
    secret: SECRET,
    store: 'memory',
    client: sb.client(),
    revalidate: (tag, profile) => revalidated.push([tag, profile]),
    ...options,
  })
}

function call(method: 'GET' | 'POST', authorization?: string, query = '') {
  return new Request(`https://shop.example/api/revalidate-reviews${query}`, {
    method,
    headers: authorization === undefined ? {} : { authorization },
  })
}

async function addReviews(items: Array<Record<string, unknown>>, kind = 'product-reviews') {
  await sb.admin('POST', kind, items)
}

/**
 * Runs `test` with a build directory holding the review store a build prefetch leaves (a full sync of
 * the sandbox), then removes it.
 */
async function withBuildStore(test: (distDir: string, built: string) => Promise<void>): Promise<void> {
  const distDir = await mkdtemp(join(tmpdir(), 'vr-next-dist-'))
  try {
    const built = join(distDir, 'verified-reviews', 'reviews.sqlite')
    const store = createSqliteReviewStore(built)
    await syncProductReviews({ client: sb.client(), store })
    // A build fetches the summaries of its products, which count as the day's sweep.
    const checkpoint = await store.getCheckpoint()
    if (checkpoint !== undefined)
      await store.setCheckpoint({ ...checkpoint, sweep: { at: new Date().toISOString(), resynced: {} } })
    await store.close()
    await test(distDir, built)
  } finally {
    await rm(distDir, { recursive: true, force: true })
  }
}

describe('createRevalidateRoute', () => {
  it('refuses a call without the secret, with 401 and no sync', async () => {
    const response = await route().POST(call('POST'))
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect(revalidated).toEqual([])
  })

  it('refuses a wrong secret', async () => {
    expect((await route().POST(call('POST', `Bearer ${SECRET}x`))).status).toBe(401)
  })

  it('refuses every call when no secret is configured', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE_SECRET', '')
    vi.stubEnv('CRON_SECRET', '')
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect((await route({ secret: '' }).POST(call('POST', 'Bearer '))).status).toBe(401)
  })

  it("accepts Vercel Cron's GET with CRON_SECRET", async () => {
    vi.stubEnv('CRON_SECRET', 'the-cron-secret-0123456789')
    const response = await route().GET(call('GET', 'Bearer the-cron-secret-0123456789'))
    expect(response.status).toBe(200)
  })

  it('revalidates every product and shop after a first sync into an empty store', async () => {
    const response = await route().POST(call('POST', `Bearer ${SECRET}`))
    const body = (await response.json()) as RevalidateRouteBody
    expect(body.sync.products).toEqual({
      mode: 'full',
      newReviews: 3000,
      updatedReviews: 0,
      removedReviews: 0,
      calls: 15,
    })
    expect(body.products).toHaveLength(54)
    expect(revalidated).toContainEqual(['verified-reviews:brand', 'max'])
  })

  it('revalidates only the products whose reviews changed since the last call', async () => {
    const handler = route({ brandStore: false })
    await handler.POST(call('POST', `Bearer ${SECRET}`))
    revalidated = []
    await addReviews([{ product_variation_id: 'SKU-002' }, { product_variation_id: 'SKU-040' }])
    const response = await handler.POST(call('POST', `Bearer ${SECRET}`))
    const body = (await response.json()) as RevalidateRouteBody
    expect(body).toEqual({
      products: ['SKU-002', 'SKU-040'],
      brand: false,
      shops: [],
      revalidated: ['verified-reviews:product:SKU-002', 'verified-reviews:product:SKU-040'],
      sync: {
        products: { mode: 'incremental', newReviews: 2, updatedReviews: 0, removedReviews: 0, calls: 1 },
      },
    })
    expect(revalidated).toEqual([
      ['verified-reviews:product:SKU-002', 'max'],
      ['verified-reviews:product:SKU-040', 'max'],
    ])
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('revalidates the brand and the shop whose reviews changed', async () => {
    const handler = route()
    await handler.POST(call('POST', `Bearer ${SECRET}`))
    revalidated = []
    await addReviews([{ shop_key: 'shop-lyon' }], 'brand-reviews')
    const body = (await (await handler.POST(call('POST', `Bearer ${SECRET}`))).json()) as RevalidateRouteBody
    expect(revalidated.map(([tag]) => tag)).toEqual([
      'verified-reviews:brand',
      'verified-reviews:shop:shop-lyon',
    ])
    expect(body).toMatchObject({ brand: true, shops: ['shop-lyon'] })
  })

  it("answers the brand's own reviews as brand, not as a shop with an empty key", async () => {
    const handler = route()
    await handler.POST(call('POST', `Bearer ${SECRET}`))
    revalidated = []
    await addReviews([{ shop_key: '' }], 'brand-reviews')
    const body = (await (await handler.POST(call('POST', `Bearer ${SECRET}`))).json()) as RevalidateRouteBody
    expect(body).toMatchObject({ brand: true, shops: [], revalidated: ['verified-reviews:brand'] })
  })

  it('starts incrementally from the review store the build left', async () => {
    await withBuildStore(async (distDir) => {
      await addReviews([{ product_variation_id: 'SKU-007' }])
      const response = await route({ store: 'build', distDir, brandStore: false }).POST(
        call('POST', `Bearer ${SECRET}`),
      )
      expect(((await response.json()) as RevalidateRouteBody).products).toEqual(['SKU-007'])
    })
  })

  it("keeps its reviews in a copy of the build's store, whose files it leaves as they were", async () => {
    await withBuildStore(async (distDir, built) => {
      const files = async () => {
        const names = (await readdir(dirname(built))).sort()
        return Promise.all(names.map(async (name) => [name, await readFile(join(dirname(built), name))]))
      }
      const before = await files()
      const handler = route({ store: 'build', distDir, brandStore: false })
      await addReviews([{ product_variation_id: 'SKU-007' }])
      const first = await handler.POST(call('POST', `Bearer ${SECRET}`))
      expect(((await first.json()) as RevalidateRouteBody).products).toEqual(['SKU-007'])
      await addReviews([{ product_variation_id: 'SKU-008' }])
      await sb.admin('DELETE', 'stats')
      const second = await handler.POST(call('POST', `Bearer ${SECRET}`))
      expect(((await second.json()) as RevalidateRouteBody).products).toEqual(['SKU-008'])
      expect((await sb.stats()).operations['products.reviews.list']).toBe(1)
      expect(await files()).toEqual(before)
    })
  })

  it('starts a store of yours that holds no sync from the review store the build left', async () => {
    await withBuildStore(async (distDir) => {
      await addReviews([{ product_variation_id: 'SKU-007' }])
      const store = createMemoryReviewStore()
      const response = await route({ store, distDir, brandStore: false }).POST(
        call('POST', `Bearer ${SECRET}`),
      )
      const body = (await response.json()) as RevalidateRouteBody
      expect(body.products).toEqual(['SKU-007'])
      expect(body.sync.products).toMatchObject({ mode: 'incremental', calls: 1 })
      expect(await store.count()).toBe(3001)
    })
  })

  it('leaves a store of yours empty with seedFromBuild: false, so that its first call is a full sync', async () => {
    await withBuildStore(async (distDir) => {
      const handler = route({
        store: createMemoryReviewStore(),
        distDir,
        brandStore: false,
        seedFromBuild: false,
      })
      const response = await handler.POST(call('POST', `Bearer ${SECRET}`))
      expect(((await response.json()) as RevalidateRouteBody).sync.products.mode).toBe('full')
    })
  })

  it('passes the revalidation profile on', async () => {
    const handler = route({ brandStore: false, profile: { expire: 0 } })
    await handler.POST(call('POST', `Bearer ${SECRET}`))
    expect(revalidated[0]?.[1]).toEqual({ expire: 0 })
  })

  it('runs a full sync on ?mode=full, which finds nothing new after a first sync', async () => {
    const handler = route({ brandStore: false })
    await handler.POST(call('POST', `Bearer ${SECRET}`))
    const response = await handler.POST(call('POST', `Bearer ${SECRET}`, '?mode=full'))
    const body = (await response.json()) as RevalidateRouteBody
    expect(body.sync.products).toMatchObject({ mode: 'full', newReviews: 0, calls: 15 })
    expect(body.products).toEqual([])
  })

  it('refuses an unknown mode with 400 naming it', async () => {
    const response = await route().POST(call('POST', `Bearer ${SECRET}`, '?mode=everything'))
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { field: 'mode' } })
  })

  it('answers 502 without revalidating anything when the API fails, and a later call syncs', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await sb.faults([{ operation: 'products.reviews.list', status: 500, count: 3 }])
    const handler = route({
      brandStore: false,
      client: sb.client({ maxRetries: 0 }),
    })
    const failed = await handler.POST(call('POST', `Bearer ${SECRET}`))
    expect(failed.status).toBe(502)
    expect(revalidated).toEqual([])
    await handler.POST(call('POST', `Bearer ${SECRET}`))
    await handler.POST(call('POST', `Bearer ${SECRET}`))
    const later = await handler.POST(call('POST', `Bearer ${SECRET}`))
    expect(later.status).toBe(200)
    expect(((await later.json()) as RevalidateRouteBody).sync.products.newReviews).toBe(3000)
  })

  it('says that the next call resumes a sync the API broke off, in a log line with the package prefix', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    await sb.faults([{ operation: 'products.reviews.list', status: 500, count: 3 }])
    const failed = await route({ brandStore: false, client: sb.client({ maxRetries: 0 }) }).POST(
      call('POST', `Bearer ${SECRET}`),
    )
    expect(((await failed.json()) as { error: { message: string } }).error.message).toBe(
      'a review sync failed; the next call resumes it',
    )
    expect(String(logged.mock.lastCall?.[0])).toMatch(/^\[@verified-reviews\/next\] a review sync failed: /)
  })

  it('says what to fix, not that the next call resumes, when the credentials are refused', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'not-the-secret')
    const handler = createRevalidateRoute({ secret: SECRET, store: 'memory', brandStore: false })
    for (let call_ = 0; call_ < 2; call_++) {
      const failed = await handler.POST(call('POST', `Bearer ${SECRET}`))
      expect(failed.status).toBe(502)
      const { message } = ((await failed.json()) as { error: { message: string } }).error
      expect(message).toBe(
        'a review sync failed: the API credentials were refused (see the server log); every call fails the same way until the configuration of this server is fixed',
      )
    }
    expect(String(logged.mock.lastCall?.[0])).toMatch(
      /^\[@verified-reviews\/next\] a review sync failed: VERIFIED_REVIEWS_CLIENT_ID \(\S+\) and VERIFIED_REVIEWS_CLIENT_SECRET were refused/,
    )
  })

  it('names the missing credentials instead of saying that the next call resumes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', '')
    const failed = await createRevalidateRoute({ secret: SECRET, store: 'memory', brandStore: false }).POST(
      call('POST', `Bearer ${SECRET}`),
    )
    expect(failed.status).toBe(502)
    expect(((await failed.json()) as { error: { message: string } }).error.message).toBe(
      'a review sync failed: VERIFIED_REVIEWS_CLIENT_SECRET is not set; every call fails the same way until the configuration of this server is fixed',
    )
  })

  it("makes at most 3 calls on its first call after a deploy (the build's summaries count as the day's sweep), then sweeps a day later", async () => {
    const distDir = await mkdtemp(join(tmpdir(), 'vr-next-deploy-'))
    try {
      for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
      vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
      vi.stubEnv('NEXT_PHASE', 'phase-production-build')
      expect((await getBuildData())?.productIds).toHaveLength(60)
      vi.stubEnv('NEXT_PHASE', 'phase-production-server')
      const handler = route({ store: 'build', distDir, brandStore: false, client: sb.client() })
      await addReviews([{ product_variation_id: 'SKU-007' }])
      // A review withdrawn upstream, which no list shows as changed.
      const [gone] = (
        await sb.client().products.reviews.list({ product_variation_id: ['SKU-013'], limit: 1 })
      ).data
      await sb.admin('DELETE', `product-reviews/${gone?.review_id}`)
      await sb.admin('DELETE', 'stats')

      const first = (await (
        await handler.POST(call('POST', `Bearer ${SECRET}`))
      ).json()) as RevalidateRouteBody
      expect(first.products).toEqual(['SKU-007'])
      expect(first.sync.products.sweep).toBeUndefined()
      // A token, the reviews published since, the summary of the product they changed.
      const stats = await sb.stats()
      expect(stats.total).toBeLessThanOrEqual(3)
      expect(stats.operations).toMatchObject({ 'products.reviews.list': 1, 'products.list': 1 })

      // A day later the sweep finds the withdrawn review, and revalidates its product.
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + 25 * 3_600_000)
      await sb.admin('DELETE', 'stats')
      const later = (await (
        await handler.POST(call('POST', `Bearer ${SECRET}`))
      ).json()) as RevalidateRouteBody
      expect(later.products).toEqual(['SKU-013'])
      expect(later.sync.products.sweep).toMatchObject({ resynced: ['SKU-013'], removedReviews: 1 })
      const swept = await sb.stats()
      // ⌈60/200⌉ summaries and one list of SKU-013's reviews, besides the sync's call (and a token).
      expect(swept.operations).toMatchObject({ 'products.list': 1, 'products.reviews.list': 2 })
      expect(later.sync.products.sweep?.calls).toBe(2)
      await sb.admin('DELETE', 'stats')
      const again = (await (
        await handler.POST(call('POST', `Bearer ${SECRET}`))
      ).json()) as RevalidateRouteBody
      expect(again.sync.products.sweep).toBeUndefined()
      expect((await sb.stats()).operations['products.list'] ?? 0).toBe(0)
    } finally {
      vi.useRealTimers()
      await rm(distDir, { recursive: true, force: true })
    }
  })
})
