import type { ReviewsEndpointBody } from '@verified-reviews/core/endpoint'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { createReviewsRoute } from './reviews-route.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

function route() {
  return createReviewsRoute({
    client: sb.client(),
    sMaxAge: 120,
  })
}

describe('createReviewsRoute', () => {
  it('answers a page of reviews with shared-cache headers', async () => {
    const response = await route().GET(
      new Request('https://shop.example/api/reviews?product_variation_id=SKU-001&limit=3&locale=fr'),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, s-maxage=120, stale-while-revalidate=86400')
    const body = (await response.json()) as ReviewsEndpointBody
    expect(body.data).toHaveLength(3)
    expect(typeof body.nextCursor).toBe('string')
  })

  it('answers bad input with a 400 naming the parameter', async () => {
    const response = await route().GET(
      new Request('https://shop.example/api/reviews?product_variation_id=SKU-001&sort=best'),
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: { message: 'sort must be one of newest, oldest, highest, lowest', field: 'sort' },
    })
  })
})
