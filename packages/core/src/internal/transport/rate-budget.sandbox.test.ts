import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { createClient } from '../client/client.ts'

// 10 requests a second, told in the sandbox's rate-limit headers and refused with a 429 beyond.
const sb = sandboxForFile({ seed: 1, rateLimit: 10 })

describe("the client's own rate budget against an API limited to 10 requests a second", () => {
  it('sends a burst of 96 concurrent calls once each, with no 429, all of them succeeding', async () => {
    const { origin, clientId, clientSecret } = sb.sandbox
    const client = createClient({ origin, clientId, clientSecret })
    const started = Date.now()
    const results = await Promise.allSettled(
      Array.from({ length: 96 }, () => client.products.list({ limit: 1 })),
    )
    const seconds = (Date.now() - started) / 1000
    const stats = await sb.stats()
    console.log(
      `96 calls at 10 requests/s: ${stats.total} requests (token included) in ${seconds.toFixed(1)} s`,
    )
    expect(results.filter((result) => result.status === 'rejected')).toEqual([])
    expect(stats.rateLimited).toBe(0)
    expect(stats.operations['products.list']).toBe(96)
    // Paced at the limit, 96 calls take some 10 s; the bound only catches a budget that hangs.
    expect(seconds).toBeLessThan(30)
  }, 40_000)
})
