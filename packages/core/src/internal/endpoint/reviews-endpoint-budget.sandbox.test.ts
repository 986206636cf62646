import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { handleReviewsRequest } from './reviews-endpoint.ts'

// 10 requests a second, as the sandbox reports it in its rate-limit headers.
const sb = sandboxForFile({ seed: 1, rateLimit: 10 })

async function reviewCalls(): Promise<number> {
  return (await sb.stats()).operations['products.reviews.list'] ?? 0
}

const products = ['SKU-001', 'SKU-002', 'SKU-003', 'SKU-004', 'SKU-005', 'SKU-006', 'SKU-007', 'SKU-008']

describe('the rate reserve of handleReviewsRequest, with the budget a client learns from the API', () => {
  it('answers 503 without calling the API once its calls took their half of the rate window', async () => {
    const client = sb.client()
    // A page renders first: the client learns the limits from its answer.
    await client.products.list({ limit: 1 })
    const results = await Promise.all(
      products.map((id) =>
        handleReviewsRequest(new URLSearchParams(`product_variation_id=${id}`), { client }),
      ),
    )
    const refused = results.filter((result) => result.status === 503)
    // Half of 10 a second: at most 5 calls of the endpoint within a window, the others refused at once.
    expect(await reviewCalls()).toBeLessThanOrEqual(5)
    expect(refused.length).toBeGreaterThanOrEqual(3)
    for (const result of refused) expect(Number(result.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect((await sb.stats()).rateLimited).toBe(0)
  })

  it('calls the API again once the rate window is over', async () => {
    const client = sb.client()
    await client.products.list({ limit: 1 })
    await Promise.all(
      products.map((id) =>
        handleReviewsRequest(new URLSearchParams(`product_variation_id=${id}`), { client }),
      ),
    )
    const before = await reviewCalls()
    await new Promise((resolve) => setTimeout(resolve, 1300))
    const result = await handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), {
      client,
    })
    expect(result.status).toBe(200)
    expect(await reviewCalls()).toBe(before + 1)
  })
})
