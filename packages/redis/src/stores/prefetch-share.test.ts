import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { prefetchBuildData } from '@verified-reviews/core/prefetch'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { connectionsFor, redisForFile } from '../../../../test/fixtures/redis.ts'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { createRedisPrefetchShare } from './prefetch-share.ts'

const redis = redisForFile()
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const CATALOGUE = Array.from({ length: 60 }, (_, i) => `SKU-${String(i + 1).padStart(3, '0')}`)

const connect = connectionsFor(redis)

// Each "machine" has its own build directory: only Redis connects them.
let machines: string[]
beforeEach(async () => {
  machines = await Promise.all([1, 2, 3].map(() => mkdtemp(join(tmpdir(), 'vr-redis-prefetch-'))))
})
afterEach(async () => {
  await Promise.all(machines.map((directory) => rm(directory, { recursive: true, force: true })))
})

describe('createRedisPrefetchShare', () => {
  it('lets one of three machines fetch the build data while the others read it from Redis', async () => {
    const results = await Promise.all(
      machines.map((directory) =>
        prefetchBuildData({
          client: sb.client(),
          directory,
          buildId: 'commit-abc',
          share: createRedisPrefetchShare(connect()),
          productIds: CATALOGUE,
        }),
      ),
    )
    expect(results.filter((data) => data.fetchedHere)).toHaveLength(1)
    expect(results.map((data) => data.reviews('SKU-058').length)).toEqual([681, 681, 681])
    expect((await sb.stats()).operations).toEqual({
      'products.list': 1,
      'products.reviews.list': 15,
      'token.published': 1,
    })
  })

  it('keeps the build data in Redis for its ttl', async () => {
    await prefetchBuildData({
      client: sb.client(),
      directory: machines[0] as string,
      buildId: 'commit-def',
      share: createRedisPrefetchShare(connect(), { ttl: 3600 }),
      productIds: CATALOGUE,
    })
    const ttl = Number((await redis.command('TTL', 'vr:prefetch:prefetch:commit-def')).slice(1))
    expect(ttl).toBeGreaterThan(3500)
  })

  it('keeps the lock of a fetch that outlasts lockTtl, so no other machine fetches too', async () => {
    // 15 review pages of 200 ms each: the fetch takes longer than lockTtl.
    await sb.faults([{ operation: 'products.reviews.list', latencyMs: 200 }])
    const share = () => createRedisPrefetchShare(connect(), { lockTtl: 2000 })
    const [first, second] = await Promise.all([
      prefetchBuildData({
        client: sb.client(),
        directory: machines[0] as string,
        buildId: 'slow',
        share: share(),
        productIds: CATALOGUE,
      }),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        prefetchBuildData({
          client: sb.client(),
          directory: machines[1] as string,
          buildId: 'slow',
          share: share(),
          productIds: CATALOGUE,
        }),
      ),
    ])
    expect([first.fetchedHere, second.fetchedHere]).toEqual([true, false])
    expect((await sb.stats()).operations['products.reviews.list']).toBe(15)
  })

  it('falls back to the SQLite file of the machine, with one warning, when Redis is down', async () => {
    await redis.kill()
    const warn = vi.fn()
    const data = await prefetchBuildData({
      client: sb.client(),
      directory: machines[0] as string,
      buildId: 'offline',
      share: createRedisPrefetchShare(connect()),
      productIds: CATALOGUE,
      logger: { warn },
    })
    expect(data.reviews('SKU-058')).toHaveLength(681)
    expect(warn).toHaveBeenCalledTimes(1)
    // The build data of the machine's own file: its reviews, summaries and state.
    expect((await readdir(machines[0] as string)).sort()).toEqual([
      'reviews.sqlite',
      'reviews.sqlite-shm',
      'reviews.sqlite-wal',
    ])
  })
})
