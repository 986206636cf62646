import type { StoredToken, TokenStore } from '@verified-reviews/core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { freshReviewsClient, revalidateSeconds, reviewsClient, shareClientState } from './clients.ts'
import { CLIENT_KEY_HEADER } from './internal/cache-key-fetch.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
const realFetch = globalThis.fetch

/** A request as the fetch Next.js patches sees it: its path and the caching options it carries. */
interface Sent {
  path: string
  cache: RequestCache | undefined
  next: unknown
}
let sent: Sent[]

beforeEach(() => {
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
  sent = []
  // Stands in for the fetch Next.js patches: it reads `cache` and `next` from the request init.
  vi.stubGlobal('fetch', (input: string, init?: RequestInit & { next?: unknown }) => {
    sent.push({ path: new URL(input).pathname, cache: init?.cache, next: init?.next })
    return realFetch(input, init)
  })
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})

const TOKEN = '/realms/skeepers/protocol/openid-connect/token'
const REVIEWS = '/verified-reviews/v1/published/products/reviews'

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
    expect(() => revalidateSeconds()).toThrow(/VERIFIED_REVIEWS_REVALIDATE.*whole number of seconds/)
  })
})

describe('the clients of the environment', () => {
  it('are kept while the environment stays the same, and rebuilt when it changes', () => {
    const first = reviewsClient()
    expect(reviewsClient()).toBe(first)
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '60')
    expect(reviewsClient()).not.toBe(first)
  })

  it('send a read with its Next.js tags and revalidate time, for the data cache', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '61')
    await reviewsClient().products.reviews.list({ product_variation_id: ['SKU-001'], limit: 1 })
    expect(sent.find((request) => request.path === REVIEWS)).toEqual({
      path: REVIEWS,
      cache: undefined,
      next: { revalidate: 61, tags: ['verified-reviews:product:SKU-001', 'verified-reviews'] },
    })
  })

  it('send their token requests with cache: no-store, so Next.js never keeps a token', async () => {
    // Another environment, so a client with no token yet.
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '62')
    await reviewsClient().products.reviews.list({ product_variation_id: ['SKU-001'], limit: 1 })
    expect(sent.filter((request) => request.path === TOKEN)).toEqual([
      { path: TOKEN, cache: 'no-store', next: undefined },
    ])
  })

  it("send a cached read with its client's account in the cache key instead of the token", async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '64')
    const headers: Record<string, string>[] = []
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      headers.push({ ...(init?.headers as Record<string, string>) })
      return realFetch(input, init)
    })
    await reviewsClient().products.reviews.list({ product_variation_id: ['SKU-001'], limit: 1 })
    const env = sb.env()
    expect(headers.at(-1)).toMatchObject({
      [CLIENT_KEY_HEADER]: encodeURIComponent(
        `${env.VERIFIED_REVIEWS_ORIGIN} ${env.VERIFIED_REVIEWS_CLIENT_ID}`,
      ),
    })
    expect(headers.at(-1)?.authorization).toBeUndefined()
  })

  it('send every request of the fresh client with cache: no-store', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '63')
    await freshReviewsClient().products.reviews.list({ limit: 1 })
    expect(sent).toEqual([
      { path: TOKEN, cache: 'no-store', next: undefined },
      { path: REVIEWS, cache: 'no-store', next: undefined },
    ])
  })
})

/** A token store in memory, standing in for the Redis one that the instances of a site share. */
function memoryTokenStore(): TokenStore & { tokens: Map<string, StoredToken> } {
  const tokens = new Map<string, StoredToken>()
  return {
    tokens,
    get: async (key) => tokens.get(key),
    set: async (key, token) => void tokens.set(key, token),
    delete: async (key, value) => {
      if (tokens.get(key)?.value === value) tokens.delete(key)
    },
    lock: async () => ({ release: async () => {} }),
  }
}

describe('shareClientState', () => {
  afterEach(() => shareClientState({}))

  it('makes both clients of the process take their token from the shared store', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '64')
    const before = reviewsClient()
    const store = memoryTokenStore()
    shareClientState({ tokenStore: store })
    expect(reviewsClient()).not.toBe(before)
    await reviewsClient().products.reviews.list({ limit: 1 })
    await freshReviewsClient().products.reviews.list({ limit: 1 })
    expect(sent.filter((request) => request.path === TOKEN)).toHaveLength(1)
    expect(store.tokens.size).toBe(1)
  })

  it('lets a client of another instance use the token one instance stored', async () => {
    vi.stubEnv('VERIFIED_REVIEWS_REVALIDATE', '65')
    const store = memoryTokenStore()
    shareClientState({ tokenStore: store })
    await reviewsClient().products.reviews.list({ limit: 1 })
    // Another process: its clients are built anew, with the same store.
    shareClientState({ tokenStore: store })
    await reviewsClient().products.reviews.list({ limit: 1 })
    expect(sent.filter((request) => request.path === TOKEN)).toHaveLength(1)
    expect(sent.filter((request) => request.path === REVIEWS)).toHaveLength(2)
  })
})
