import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { handleReviewsRequest } from './reviews-endpoint.ts'
import { clientInternals } from './signed-cursor.ts'

// 10 requests a second, as the sandbox reports it in its rate-limit headers.
const sb = sandboxForFile({ seed: 1, rateLimit: 10 })

async function reviewCalls(): Promise<number> {
  return (await sb.stats()).operations['products.reviews.list'] ?? 0
}

describe('the rate reserve of handleReviewsRequest, with the budget a client learns from the API', () => {
  it('answers 503 without calling the API once page rendering has spent half of the rate window', async () => {
    const client = sb.client()
    const internals = clientInternals(client)
    expect(internals?.rateShare()).toBeUndefined()
    // Pages render through the same client until half of the window is spent.
    while ((internals?.rateShare() ?? 1) > 0.5) await client.products.list({ limit: 1 })
    const result = await handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), {
      client,
    })
    expect(result.status).toBe(503)
    expect(Number(result.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(await reviewCalls()).toBe(0)
  })

  it('calls the API again once the rate window is over', async () => {
    const client = sb.client()
    const internals = clientInternals(client)
    while ((internals?.rateShare() ?? 1) > 0.5) await client.products.list({ limit: 1 })
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const result = await handleReviewsRequest(new URLSearchParams('product_variation_id=SKU-001'), {
      client,
    })
    expect(result.status).toBe(200)
    expect(await reviewCalls()).toBe(1)
  })
})
