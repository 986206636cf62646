import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSandbox, type Sandbox } from '@verified-reviews/sandbox'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { getBuildData, prefetchedProductReviews } from './build-data.ts'

let sb: Sandbox
let distDir: string

beforeAll(async () => {
  sb = await createSandbox({ seed: 1, rateLimit: 0 })
})
afterAll(async () => {
  await sb.close()
})
beforeEach(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'vr-next-build-'))
  vi.stubEnv('VERIFIED_REVIEWS_ORIGIN', sb.origin)
  vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', sb.clientId)
  vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', sb.clientSecret)
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
