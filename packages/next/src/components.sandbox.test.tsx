import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReviewsEndpointBody } from '@verified-reviews/core/endpoint'
import { ProductReviewsView, type ProductReviewsViewProps, RatingBadge } from '@verified-reviews/react'
import type { ReactElement } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSandbox, type TestSandbox } from '../../../test/fixtures/sandbox.ts'
import { ProductRating, ProductReviews } from './components.tsx'
import { FAILED_RENDER_TAG } from './internal/failed-render-tag.ts'
import { createReviewsRoute } from './reviews-route.ts'

/** The tags of the tagged fetches of `data:` URLs: what the components tag a render with. */
const tagged: string[][] = []
const realFetch = globalThis.fetch

let sb: TestSandbox
let distDir: string

// Not reset between tests: the clients of the environment live across them, with their tokens, as in one
// Next.js process; only the statistics start again.
beforeAll(async () => {
  sb = await startSandbox({ seed: 1, rateLimit: 0 })
})
afterAll(async () => {
  await sb.close()
})
beforeEach(async () => {
  tagged.length = 0
  vi.stubGlobal('fetch', (input: string, init?: RequestInit & { next?: { tags?: string[] } }) => {
    if (input.startsWith('data:')) tagged.push(init?.next?.tags ?? [])
    return realFetch(input, init)
  })
  distDir = await mkdtemp(join(tmpdir(), 'vr-next-components-'))
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  vi.stubEnv('VERIFIED_REVIEWS_DIST_DIR', distDir)
  await sb.admin('DELETE', 'stats')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  await rm(distDir, { recursive: true, force: true })
})

async function calls(): Promise<Record<string, number>> {
  return (await sb.stats()).operations
}

describe('ProductReviews during next build', () => {
  beforeEach(() => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
  })

  it('shows the first page from the build prefetch, with a cursor the island goes on from', async () => {
    const element = (await ProductReviews({
      productId: 'SKU-058',
      limit: 10,
    })) as ReactElement<ProductReviewsViewProps>
    expect(element.type).toBe(ProductReviewsView)
    expect(element.props.reviews).toHaveLength(10)
    expect(element.props.summary?.ratings.count_total).toBe(681)
    // Signed with the key of the environment's client: the reviews route of that client goes on from it.
    expect(element.props.nextCursor).toMatch(/^s1\..{43}\.~vr1~/)
    const response = await createReviewsRoute().GET(
      new Request(
        `https://shop.example/api/reviews?product_variation_id=SKU-058&limit=10&cursor=${element.props.nextCursor}`,
      ),
    )
    expect(response.status).toBe(200)
    expect(((await response.json()) as ReviewsEndpointBody).data).toHaveLength(10)
  })

  it('tags the page with the product, as a tagged fetch would', async () => {
    await ProductReviews({ productId: 'SKU-001' })
    expect(tagged).toEqual([['verified-reviews:product:SKU-001', 'verified-reviews']])
  })

  it('makes one prefetch for every page of the build', async () => {
    for (const productId of ['SKU-001', 'SKU-002', 'SKU-003']) await ProductReviews({ productId })
    await ProductRating({ productId: 'SKU-004' })
    expect(await calls()).toMatchObject({ 'products.list': 1, 'products.reviews.list': 15 })
  })

  it('gives no next cursor to a product whose reviews fit on the first page', async () => {
    const element = (await ProductReviews({ productId: 'SKU-006' })) as ReactElement<ProductReviewsViewProps>
    expect(element.props.reviews).toHaveLength(2)
    expect(element.props.nextCursor).toBeUndefined()
  })

  it('asks the API for a view chosen by search params', async () => {
    const element = (await ProductReviews({
      productId: 'SKU-001',
      searchParams: { vr_sort: 'lowest' },
    })) as ReactElement<ProductReviewsViewProps>
    expect(element.type).toBe(ProductReviewsView)
    const rates = element.props.reviews.map((review) => review.review_rate)
    expect(rates).toEqual([...rates].sort((a, b) => a - b))
    expect((await calls())['products.reviews.list']).toBe(1)
  })

  it('shows a product rating from the build prefetch', async () => {
    const element = (await ProductRating({ productId: 'SKU-058', locale: 'fr' })) as ReactElement<{
      rating: { count_total: number }
      locale: string
    }>
    expect(element.type).toBe(RatingBadge)
    expect(element.props.rating.count_total).toBe(681)
    expect(element.props.locale).toBe('fr')
  })
})

describe('a component of next build without review data', () => {
  beforeEach(() => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'not-the-secret')
  })

  it('stops the build when the credentials are refused, naming their variables', async () => {
    await expect(ProductReviews({ productId: 'SKU-001' })).rejects.toThrow(
      /ProductReviews has no review data: VERIFIED_REVIEWS_CLIENT_ID \(.+\) and VERIFIED_REVIEWS_CLIENT_SECRET were refused: .*the build stops/,
    )
  })

  it('with failOnError off, renders nothing, and the build log says why once, not once per page', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_FAIL_ON_ERROR', '0')
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await ProductReviews({ productId: 'SKU-001' })).toBeNull()
    expect(await ProductReviews({ productId: 'SKU-002' })).toBeNull()
    expect(await ProductRating({ productId: 'SKU-003' })).toBeNull()
    expect(error).toHaveBeenCalledTimes(1)
    expect(String(error.mock.calls[0]?.[0])).toContain(
      `VERIFIED_REVIEWS_CLIENT_ID (${sb.sandbox.clientId}) and VERIFIED_REVIEWS_CLIENT_SECRET were refused`,
    )
  })

  it('still tags the page, so that a revalidation after the fix refreshes it', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_FAIL_ON_ERROR', '0')
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await ProductReviews({ productId: 'SKU-001' })
    expect(tagged).toEqual([['verified-reviews:product:SKU-001', 'verified-reviews']])
  })

  it('stops the build with failOnError even when no credentials are set', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', '')
    vi.stubEnv('VERIFIED_REVIEWS_FAIL_ON_ERROR', '1')
    await expect(ProductReviews({ productId: 'SKU-001' })).rejects.toThrow(
      /ProductReviews has no review data: VERIFIED_REVIEWS_CLIENT_SECRET is not set: .*failOnError is on/,
    )
  })

  it('makes no call when the check at the start of the build failed, which said it already', async () => {
    vi.stubEnv('__VERIFIED_REVIEWS_BUILD_CHECK', 'VERIFIED_REVIEWS_CLIENT_ID is not set')
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await ProductReviews({ productId: 'SKU-001' })).toBeNull()
    expect(error).not.toHaveBeenCalled()
    expect(await calls()).toEqual({})
  })
})

describe('ProductReviews outside next build', () => {
  it('renders the reviews from the API with the client of the environment', async () => {
    const element = (await ProductReviews({ productId: 'SKU-001' })) as ReactElement<ProductReviewsViewProps>
    expect(element.type).toBe(ProductReviewsView)
    expect(element.props.reviews.length).toBeGreaterThan(0)
    expect(await calls()).toMatchObject({ 'products.list': 1, 'products.reviews.list': 1 })
    // A render that did not fail is not marked as one.
    expect(tagged.flat()).not.toContain(FAILED_RENDER_TAG)
  })

  it('renders the batched ProductRating from one bulk call', async () => {
    const element = (await ProductRating({ productId: 'SKU-001' })) as ReactElement<{ rating: unknown }>
    expect(element.type).toBe(RatingBadge)
    expect(element.props.rating).toBeDefined()
    expect((await calls())['products.ratings.list']).toBe(1)
  })

  it('marks a render whose API call failed, so that it is kept 30 s at most and never replaces a good one', async () => {
    await sb.faults([{ operation: '*', status: 503 }])
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect(await ProductReviews({ productId: 'SKU-002' })).toBeNull()
    } finally {
      await sb.faults([])
    }
    expect(tagged).toContainEqual([FAILED_RENDER_TAG])
    expect(error).toHaveBeenCalledOnce()
    expect(String(error.mock.calls[0]?.[0])).toMatch(
      /^\[@verified-reviews\/next\] ProductReviews rendered without reviews because the API call failed/,
    )
  })
})
