// `next build` with withRedisCache and REDIS_URL writes the replica into Redis, so that a server without
// the build's files (`output: 'standalone'`, a serverless function) reads it; and a server whose render
// cache is shared refuses a replica of its own.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReactElement } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { freshProcess } from '../../../test/fixtures/fresh-process.ts'
import { prefetchAsNextBuild, productReviewsView } from '../../../test/fixtures/next-build.ts'
import { connectionsFor, redisForFile } from '../../../test/fixtures/redis.ts'
import { startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { withRedisCache } from '../../redis/src/next-config.ts'
import { createRedisReplica } from '../../redis/src/stores/summary-store.ts'
import { shareClientState } from './clients.ts'
import { ProductRating } from './components.tsx'
import { BUILD_REPLICA_VARIABLE } from './internal/build-replica.ts'
import { markRenderCacheShared } from './internal/render-cache-sharing.ts'

const PRODUCT = 'SKU-058'
const redis = redisForFile()
const connect = connectionsFor(redis)
let sb: TestSandbox
let distDir: string
let logs: string[]

beforeAll(async () => {
  sb = await startSandbox({ seed: 1, rateLimit: 0 })
})
afterAll(async () => {
  await sb.close()
})
beforeEach(async () => {
  freshProcess()
  distDir = await mkdtemp(join(tmpdir(), 'vr-build-replica-'))
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
  vi.stubEnv('REDIS_URL', redis.url)
  // Restored after the test, though withRedisCache sets it.
  vi.stubEnv(BUILD_REPLICA_VARIABLE, '')
  logs = []
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logs.push(String(line)))
})
afterEach(async () => {
  freshProcess()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  await rm(distDir, { recursive: true, force: true })
})

/** `next build`: the config as `next build` loads it, then the build prefetch of the pages. */
async function nextBuild(): Promise<void> {
  await withRedisCache({})('phase-production-build', { defaultConfig: {} })
  await prefetchAsNextBuild(sb)
}

const view = (searchParams: Record<string, string | undefined>) => productReviewsView(PRODUCT, searchParams)

describe('next build with withRedisCache and REDIS_URL', () => {
  it('writes the replica into Redis, which a server without the build files reads with no API call', async () => {
    await nextBuild()
    const replica = createRedisReplica(connect())
    const reviews = await replica.reviews.count()
    expect(reviews).toBeGreaterThan(0)
    expect((await replica.reviews.getCheckpoint())?.completedAt).toBeDefined()
    expect(await replica.summaries.count()).toBeGreaterThan(0)
    const said = logs.filter((line) => line.includes('The build wrote the replica'))
    expect(said).toEqual([expect.stringContaining(`${reviews.toLocaleString('en-US')} reviews`)])
    expect(said[0]).toContain(`Redis redis://127.0.0.1:${redis.port} (keys vr:…)`)
    console.info(`build replica: ${said[0]}`)

    // A fresh server with no build directory (standalone, serverless), sharing the replica in Redis.
    await rm(distDir, { recursive: true, force: true })
    freshProcess()
    shareClientState({ replica: createRedisReplica(connect()) })
    markRenderCacheShared()
    const first = await view({})
    const lowest = await view({ vr_sort: 'lowest', vr_rate: '1,2' })
    const rating = (await ProductRating({ productId: PRODUCT })) as ReactElement<{
      rating?: { count_total: number }
    }>
    expect(first.reviews?.length).toBeGreaterThan(0)
    expect(lowest.reviews?.every((review) => review.review_rate <= 2)).toBe(true)
    expect(rating.props.rating?.count_total).toBeGreaterThan(0)
    expect((await sb.stats()).total).toBe(0)
    await expect(readdir(distDir)).rejects.toThrow()
  })

  it('leaves a replica that a revalidation carried past the build as it is', async () => {
    await nextBuild()
    const replica = createRedisReplica(connect())
    const checkpoint = await replica.reviews.getCheckpoint()
    if (checkpoint === undefined) throw new Error('no checkpoint')
    const later = { ...checkpoint, completedAt: new Date(Date.now() + 60_000).toISOString() }
    await replica.reviews.setCheckpoint(later)
    await replica.reviews.putMany([])
    const before = await replica.reviews.count()
    // The next build: a new process, in a build directory that `next build` emptied.
    await rm(join(distDir, 'verified-reviews'), { recursive: true, force: true })
    freshProcess()
    logs = []
    await nextBuild()
    expect(logs.filter((line) => line.includes('left as it is'))).toHaveLength(1)
    expect(await replica.reviews.getCheckpoint()).toEqual(later)
    expect(await replica.reviews.count()).toBe(before)
  })

  it('writes nothing into Redis without REDIS_URL', async () => {
    vi.stubEnv('REDIS_URL', '')
    await nextBuild()
    expect(await redis.command('DBSIZE')).toBe(':0\r\n')
    expect(logs.some((line) => line.includes('The build wrote the replica'))).toBe(false)
  })
})

describe('a server whose render cache is shared', () => {
  it('refuses its own replica file, once, naming what to do, and its pages read the API', async () => {
    vi.stubEnv('REDIS_URL', '')
    await nextBuild()
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    markRenderCacheShared()
    const first = await view({})
    await view({ vr_sort: 'oldest' })
    expect(first.reviews?.length).toBeGreaterThan(0)
    expect((await sb.stats()).total).toBeGreaterThan(0)
    expect(errors).toHaveBeenCalledTimes(1)
    expect(String(errors.mock.calls[0]?.[0])).toContain(
      'shareClientState({ replica: createRedisReplica(redis) })',
    )
    // No replica of its own was opened or made (the build keeps its data beside, as `build-<account>.sqlite`).
    const cached = await readdir(join(distDir, 'cache', 'verified-reviews'))
    expect(cached.filter((name) => name.startsWith('replica-'))).toEqual([])
  })

  it('says so at its start when register() gave shareClientState no replica', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    markRenderCacheShared()
    expect(errors).toHaveBeenCalledTimes(1)
    freshProcess()
    shareClientState({ replica: createRedisReplica(connect()) })
    markRenderCacheShared()
    expect(errors).toHaveBeenCalledTimes(1)
  })
})
