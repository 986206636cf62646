// `withVerifiedReviews({ brandReviews: true })`: the build syncs the brand and shop reviews and their
// statistics into its store, the server's replica (its file, or Redis) is brought up to them, the shop
// page reads them from the first render, and the first revalidate call after the deploy goes on
// incrementally for brands as for products.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@verified-reviews/core'
import { openSqliteReplica } from '@verified-reviews/core/sync'
import { BrandReviews as BrandReviewsFromApi, type BrandReviewsViewProps } from '@verified-reviews/react'
import type { ReactElement } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { freshProcess } from '../../../test/fixtures/fresh-process.ts'
import { connectionsFor, redisForFile } from '../../../test/fixtures/redis.ts'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { withRedisCache } from '../../redis/src/next-config.ts'
import { createRedisReplica } from '../../redis/src/stores/summary-store.ts'
import { getBuildData } from './build-data.ts'
import { shareClientState } from './clients.ts'
import { BrandReviews } from './components.tsx'
import { withVerifiedReviews } from './config.ts'
import { BUILD_REPLICA_VARIABLE } from './internal/build-replica.ts'
import { buildStorePath } from './internal/paths.ts'
import { markRenderCacheShared } from './internal/render-cache-sharing.ts'
import { replicaCatchingUp } from './internal/replica.ts'
import { createRevalidateRoute, type RevalidateRouteBody } from './revalidate-route.ts'

const SECRET = 'a-secret-of-the-scheduler-0123456789'
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const redis = redisForFile()
const connect = connectionsFor(redis)
let distDir: string
let logs: string[]

beforeEach(async () => {
  freshProcess()
  distDir = await mkdtemp(join(tmpdir(), 'vr-build-brands-'))
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
  // Set by the config wrappers at `next build`: restored after each test.
  vi.stubEnv('__VERIFIED_REVIEWS_BUILD_CHECK', undefined)
  vi.stubEnv('VERIFIED_REVIEWS_BUILD_BRAND_REVIEWS', undefined)
  vi.stubEnv(BUILD_REPLICA_VARIABLE, '')
  vi.stubEnv('REDIS_URL', '')
  logs = []
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logs.push(String(line)))
})
afterEach(async () => {
  freshProcess()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  await rm(distDir, { recursive: true, force: true })
})

/**
 * `next build` of a site whose config is `withVerifiedReviews(withRedisCache({}), { brandReviews })`: the
 * config at the start of the build, then the build prefetch of the pages. The API calls of the build
 * (the credentials check's token aside), then a sandbox whose counts start again, as a server's would.
 */
async function nextBuild(brandReviews: boolean | undefined): Promise<Record<string, number>> {
  await withVerifiedReviews(withRedisCache({}), brandReviews === undefined ? {} : { brandReviews })(
    'phase-production-build',
    { defaultConfig: {} },
  )
  await sb.admin('DELETE', 'stats')
  vi.stubEnv('NEXT_PHASE', 'phase-production-build')
  await getBuildData()
  vi.stubEnv('NEXT_PHASE', '')
  const { operations } = await sb.stats()
  await sb.admin('DELETE', 'stats')
  return operations
}

/** A call of the revalidate route, as a scheduler makes it. */
async function revalidate(): Promise<RevalidateRouteBody> {
  const answer = await createRevalidateRoute({ secret: SECRET, revalidate: () => undefined }).POST(
    new Request('https://shop.example/api/revalidate-reviews', {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}` },
    }),
  )
  expect(answer.status).toBe(200)
  return (await answer.json()) as RevalidateRouteBody
}

const shop = async (shopKey: string | undefined, searchParams: Record<string, string> = {}) =>
  ((await BrandReviews({ shopKey, searchParams })) as ReactElement<BrandReviewsViewProps>).props

/** The same view through the API (the environment's client, as the test stubbed it). */
const shopFromApi = async (shopKey: string | undefined, searchParams: Record<string, string> = {}) =>
  (
    (await BrandReviewsFromApi({
      shopKey,
      searchParams,
      client: createClient(),
    })) as ReactElement<BrandReviewsViewProps>
  ).props

/** The shop page's first render of the brand and of a shop, with the views of a shopper, from a fresh server. */
async function shopPagesFromTheFirstRender(): Promise<void> {
  const views: [string | undefined, Record<string, string>][] = [
    [undefined, {}],
    ['shop-lyon', {}],
    ['shop-lyon', { vr_sort: 'lowest', vr_rate: '1,2' }],
  ]
  const rendered: BrandReviewsViewProps[] = []
  for (const [shopKey, params] of views) rendered.push(await shop(shopKey, params))
  // No API call, and no sync started in the background: the replica holds a fresh sync.
  expect(replicaCatchingUp()).toBeUndefined()
  expect((await sb.stats()).operations).toEqual({})
  for (const [index, [shopKey, params]] of views.entries()) {
    const api = await shopFromApi(shopKey, params)
    const props = rendered[index]
    expect(props?.reviews?.length, JSON.stringify([shopKey, params])).toBeGreaterThan(0)
    expect(props?.reviews?.map((review) => review.review_id)).toEqual(
      api.reviews?.map((review) => review.review_id),
    )
    expect(props?.rating).toEqual(api.rating)
  }
  await sb.admin('DELETE', 'stats')
}

/** The first revalidate call of a fresh server when nothing changed: a token, one call of each sync. */
async function firstRevalidateCallIsIncremental(): Promise<void> {
  const body = await revalidate()
  const { operations, total } = await sb.stats()
  console.info(`first revalidate call after a build with brandReviews: ${JSON.stringify(operations)}`)
  expect(body.sync.products).toMatchObject({ mode: 'incremental', calls: 1 })
  expect(body.sync.brands).toMatchObject({ mode: 'incremental', calls: 1, newReviews: 0 })
  expect(body.shops).toEqual([])
  expect(operations).toEqual({ 'token.published': 1, 'products.reviews.list': 1, 'brands.reviews.list': 1 })
  expect(total).toBeLessThanOrEqual(3)
}

describe('a build with brandReviews', () => {
  it('syncs the brand and shop reviews and their statistics into its store, once, and says so', async () => {
    const calls = await nextBuild(true)
    const built = openSqliteReplica(await buildStorePath())
    try {
      const reviews = await built.brands.reviews.count()
      expect(reviews).toBeGreaterThan(200)
      expect((await built.brands.reviews.getCheckpoint())?.completedAt).toBeDefined()
      expect(await built.brands.ratings.fetchedAt()).toBeDefined()
      const [brand, lyon] = await built.brands.ratings.getMany(['', 'shop-lyon'])
      expect(brand?.shop_key).toBe('')
      expect(lyon?.shop_key).toBe('shop-lyon')
      // A full walk (200 a call) and one call of statistics, besides what the products cost.
      const pages = Math.ceil(reviews / 200)
      expect(calls['brands.reviews.list']).toBe(pages)
      expect(calls['brands.list']).toBe(1)
      const said = logs.filter((line) => line.includes('build brand and shop reviews ready'))
      expect(said).toEqual([
        expect.stringContaining(`${reviews.toLocaleString('en-US')} reviews (full sync), ${pages} calls`),
      ])
      expect(said[0]).toContain('1 call (brands.list)')
      console.info(`build with brandReviews: ${said[0]} (build calls ${JSON.stringify(calls)})`)
    } finally {
      await built.close()
    }
  })

  it('makes no brand call without it', async () => {
    const calls = await nextBuild(undefined)
    expect(calls['brands.reviews.list']).toBeUndefined()
    expect(calls['brands.list']).toBeUndefined()
    expect(logs.some((line) => line.includes('brand and shop reviews ready'))).toBe(false)
  })
})

describe('a server after a build with brandReviews (its replica file)', () => {
  it('serves the shop page from the replica from the first render, with no API call', async () => {
    await nextBuild(true)
    freshProcess()
    await shopPagesFromTheFirstRender()
    expect(
      logs.some((line) => /now holds the build's reviews, and its brand and shop reviews/.test(line)),
    ).toBe(true)
  })

  it('goes on incrementally for brands as for products at the first revalidate call: at most 3 calls', async () => {
    await nextBuild(true)
    freshProcess()
    await firstRevalidateCallIsIncremental()
  })

  it('brings a replica file of an earlier deploy up to the build, brand part included', async () => {
    await nextBuild(true)
    freshProcess()
    // The earlier deploy's server: its replica, synced once.
    await revalidate()
    // The next deploy: a new build (into a folder `next build` emptied), the same replica file.
    await rm(join(distDir, 'verified-reviews'), { recursive: true, force: true })
    await sb.admin('POST', 'brand-reviews', [
      { shop_key: 'shop-lille', review_rate: 4, review_content: 'Published between two deploys' },
    ])
    freshProcess()
    await nextBuild(true)
    freshProcess()
    const lille = await shop('shop-lille')
    expect(lille.reviews?.[0]?.review_content).toBe('Published between two deploys')
    expect((await sb.stats()).operations).toEqual({})
    await firstRevalidateCallIsIncremental()
  })
})

describe('servers sharing a replica in Redis after a build with brandReviews', () => {
  /** A fresh server sharing the replica in Redis, as instrumentation.ts makes it. */
  function sharingServer(): void {
    freshProcess()
    shareClientState({ replica: createRedisReplica(connect()) })
    markRenderCacheShared()
  }

  it('find the brand part that the build wrote into Redis: the shop page reads it from the first render', async () => {
    vi.stubEnv('REDIS_URL', redis.url)
    await nextBuild(true)
    const replica = createRedisReplica(connect())
    const reviews = await replica.brands?.reviews.count()
    expect(reviews).toBeGreaterThan(200)
    expect((await replica.brands?.reviews.getCheckpoint())?.completedAt).toBeDefined()
    expect(await replica.brands?.ratings.fetchedAt()).toBeDefined()
    const said = logs.filter((line) => line.includes('The build wrote the brand part of the replica'))
    expect(said).toEqual([
      expect.stringContaining(`${reviews?.toLocaleString('en-US')} brand and shop reviews`),
    ])

    // A server without the build's files (standalone, serverless).
    await rm(distDir, { recursive: true, force: true })
    sharingServer()
    await shopPagesFromTheFirstRender()
    await firstRevalidateCallIsIncremental()
  })

  it('fill an empty Redis with the brand part of the build’s files at the first server’s first read', async () => {
    // Built without REDIS_URL: Redis stays empty, the build's files are on the server.
    await nextBuild(true)
    expect(await redis.command('DBSIZE')).toBe(':0\r\n')
    sharingServer()
    await shopPagesFromTheFirstRender()
    expect(
      logs.some((line) =>
        /shared review replica now holds the build's \d+ brand and shop reviews/.test(line),
      ),
    ).toBe(true)
    await firstRevalidateCallIsIncremental()
  })
})
