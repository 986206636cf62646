import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createReviewsRoute } from './reviews-route.ts'

const request = () => new Request('https://shop.example/api/reviews?product_variation_id=SKU-001&limit=3')

beforeEach(() => {
  vi.stubEnv('VERIFIED_REVIEWS_CLIENT_ID', '')
  vi.stubEnv('VERIFIED_REVIEWS_CLIENT_SECRET', 'a-secret')
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('the reviews route of a server without credentials', () => {
  it('answers 503 to the browser, naming no variable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const response = await createReviewsRoute().GET(request())
    expect(response.status).toBe(503)
    expect(JSON.stringify(await response.json())).not.toMatch(/VERIFIED_REVIEWS|clientId/)
  })

  it('logs once, on the server, which variable is missing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const route = createReviewsRoute()
    await route.GET(request())
    await route.GET(request())
    expect(error).toHaveBeenCalledTimes(1)
    expect(String(error.mock.calls[0]?.[0])).toMatch(
      /^\[@verified-reviews\/next\] the reviews route answers 503 until VERIFIED_REVIEWS_CLIENT_ID is set/,
    )
    expect(String(error.mock.calls[0]?.[0])).not.toContain('VERIFIED_REVIEWS_CLIENT_SECRET')
  })

  it('says nothing while next build prerenders it (the build has said the credentials are missing)', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build')
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const response = await createReviewsRoute().GET(request())
    expect(response.status).toBe(503)
    expect(error).not.toHaveBeenCalled()
  })
})
