import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { getBuildData, prefetchedProductReviews } from './build-data.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
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
      `next-build-${process.pid}.json`,
      `next-build-${process.pid}.reviews`,
      'product-reviews.json',
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
})
