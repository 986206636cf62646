import { mkdtemp, rm } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_FULL_SYNC } from '../../../../../test/fixtures/demo-full-sync.ts'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { openSqliteFile } from '../base/sqlite.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { type PrefetchProgress, prefetchBuildData } from './build-data.ts'
import { holdRun } from './run-once.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
let directory: string

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'vr-prefetch-progress-'))
})
afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('the progress of prefetchBuildData', () => {
  it('tells each page of summaries and reviews, with the reviews a first sync expects', async () => {
    const told: PrefetchProgress[] = []
    await prefetchBuildData({ client: sb.client(), directory, onProgress: (progress) => told.push(progress) })
    expect(told[0]).toEqual({ phase: 'summaries', products: 60, calls: 1 })
    const reviews = told.filter((progress) => progress.phase === 'reviews')
    expect(reviews).toHaveLength(15)
    expect(reviews[0]).toEqual({ phase: 'reviews', reviews: 200, expected: 3000, calls: 1 })
    expect(reviews.at(-1)).toEqual({ phase: 'reviews', reviews: 3000, expected: 3000, calls: 15 })
  })

  it('ends with a report of the calls made against the fewest that could do', async () => {
    const told: PrefetchProgress[] = []
    await prefetchBuildData({ client: sb.client(), directory, onProgress: (progress) => told.push(progress) })
    expect(told.at(-1)).toEqual({
      phase: 'done',
      report: DEMO_FULL_SYNC,
    })
  })

  it('expects no count of an incremental sync, whose lower bound is one review call', async () => {
    const store = createMemoryReviewStore()
    await prefetchBuildData({ client: sb.client(), directory, buildId: 'first', store })
    const told: PrefetchProgress[] = []
    await prefetchBuildData({
      client: sb.client(),
      directory,
      buildId: 'second',
      store,
      onProgress: (progress) => told.push(progress),
    })
    expect(told.find((progress) => progress.phase === 'reviews')).toMatchObject({ expected: undefined })
    expect(told.at(-1)).toMatchObject({
      phase: 'done',
      report: { mode: 'incremental', reviews: 3000, newReviews: 0, lowerBound: 2 },
    })
  })

  it('tells a waiting process which process fetches', async () => {
    const file = await openSqliteFile(join(directory, 'reviews.sqlite'), 5000)
    holdRun(file, 'build', { pid: process.pid, host: hostname(), since: Date.now() })
    file.close()
    const told: PrefetchProgress[] = []
    await expect(
      prefetchBuildData({
        client: sb.client(),
        directory,
        waitTimeout: 200,
        onProgress: (progress) => told.push(progress),
      }),
    ).rejects.toThrow(/gave up after waiting/)
    expect(told).toEqual([
      {
        phase: 'waiting',
        holder: `process ${process.pid} on ${hostname()} (build in ${join(directory, 'reviews.sqlite')})`,
        waitedMs: 0,
      },
    ])
  })
})
