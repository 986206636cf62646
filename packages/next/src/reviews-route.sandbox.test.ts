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

  it('refuses a cursor it did not sign with a 400 naming it, without calling the API', async () => {
    const api = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-001'],
      sort: 'publish_date',
      desc: 'publish_date',
      limit: 3,
    })
    await sb.admin('DELETE', 'stats')
    const response = await route().GET(
      new Request(
        `https://shop.example/api/reviews?product_variation_id=SKU-001&limit=3&cursor=${api.nextCursor}`,
      ),
    )
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe('cursor')
    expect((await sb.stats()).total).toBe(0)
  })

  it('goes on from the cursor it signed', async () => {
    const first = (await (
      await route().GET(new Request('https://shop.example/api/reviews?product_variation_id=SKU-001&limit=3'))
    ).json()) as ReviewsEndpointBody
    const response = await route().GET(
      new Request(
        `https://shop.example/api/reviews?product_variation_id=SKU-001&limit=3&cursor=${first.nextCursor}`,
      ),
    )
    expect(response.status).toBe(200)
  })

  it('answers the fields the island draws, without order or product identifiers', async () => {
    const response = await route().GET(
      new Request('https://shop.example/api/reviews?product_variation_id=SKU-001&limit=3'),
    )
    const text = await response.text()
    for (const field of [
      'order_date',
      'order_reference',
      'order_id',
      'product_ean',
      'product_upc',
      'product_mpn',
    ])
      expect(text).not.toContain(`"${field}"`)
  })
})
