import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { freshReviewsClient, revalidateSeconds, reviewsClient } from './clients.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const realFetch = globalThis.fetch
let patched: string[]
let original: string[]

beforeEach(() => {
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  // Stands in for the fetch Next.js patches, which keeps the one it replaced.
  patched = []
  original = []
  const next = Object.assign(
    (input: string, init?: RequestInit) => {
      patched.push(new URL(input).pathname)
      return realFetch(input, init)
    },
    {
      _nextOriginalFetch: (input: string, init?: RequestInit) => {
        original.push(new URL(input).pathname)
        return realFetch(input, init)
      },
    },
  )
  vi.stubGlobal('fetch', next)
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})

describe('revalidateSeconds', () => {
  it('is one hour by default', () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '')
    expect(revalidateSeconds()).toBe(3600)
  })

  it('reads VERIFIED_REVIEWS_REVALIDATE', () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '120')
    expect(revalidateSeconds()).toBe(120)
  })

  it('refuses a value that is not a whole number of seconds', () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '1h')
    expect(() => revalidateSeconds()).toThrow(/whole number of seconds/)
  })
})

describe('the clients of the environment', () => {
  it('are kept while the environment stays the same, and rebuilt when it changes', () => {
    const first = reviewsClient()
    expect(reviewsClient()).toBe(first)
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '60')
    expect(reviewsClient()).not.toBe(first)
  })

  it('send reads through the Next.js fetch and token requests around it', async () => {
    // Another environment, so a client with no token yet.
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '61')
    await reviewsClient().products.reviews.list({ product_variation_id: ['SKU-001'], limit: 1 })
    expect(patched).toEqual(['/verified-reviews/v1/published/products/reviews'])
    expect(original).toEqual(['/realms/skeepers/protocol/openid-connect/token'])
  })

  it('send every request of the fresh client around the Next.js fetch', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '62')
    await freshReviewsClient().products.reviews.list({ limit: 1 })
    expect(patched).toEqual([])
    expect(original).toEqual([
      '/realms/skeepers/protocol/openid-connect/token',
      '/verified-reviews/v1/published/products/reviews',
    ])
  })
})
