import { createClient, type RateLimitEvent, ValidationError } from '@verified-reviews/core'
import { createMemoryCache } from '@verified-reviews/core/cache'
import { afterEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ rateLimit: 0 })

/** A fetch that records each request and forwards it to the sandbox. */
function recorder() {
  const requests: { url: string; init: RequestInit }[] = []
  const fetchThrough = (url: string, init: RequestInit) => {
    requests.push({ url, init })
    return fetch(url, init)
  }
  return { requests, fetch: fetchThrough }
}

describe('addresses', () => {
  it('moves every default address to the origin, keeping its path', async () => {
    const { requests, fetch } = recorder()
    const vr = sb.client({ fetch })
    await vr.products.list()
    await vr.purchaseEvents.submit({
      events: [
        {
          purchase_reference: 'A',
          purchase_date: '2026-03-01T10:00:00Z',
          consumer: {},
          sales_channel: { channel: 'online' },
        },
      ],
    })
    await vr.legacy.products.ratings.get({ ref: ['SKU-001'] })
    await vr.genesis.static.brand()
    const paths = requests.map((request) => new URL(request.url).pathname)
    expect(requests.every((request) => request.url.startsWith(`${sb.sandbox.origin}/`))).toBe(true)
    expect(paths).toEqual([
      '/realms/skeepers/protocol/openid-connect/token',
      '/verified-reviews/v1/published/products',
      '/am/oauth2/alpha/access_token',
      `/purchase-event/websites/${sb.sandbox.websiteId}/purchase-events`,
      `/v1/websites/${sb.sandbox.websiteId}/products/ratings`,
      `/genesis/static/${sb.sandbox.websiteId}/infosite.txt`,
    ])
  })

  it('lets one address be set alone', async () => {
    const { requests, fetch } = recorder()
    const vr = createClient({
      clientId: sb.sandbox.clientId,
      clientSecret: sb.sandbox.clientSecret,
      publishedUrl: `${sb.sandbox.origin}/verified-reviews/v1/published`,
      publishedTokenUrl: `${sb.sandbox.origin}/realms/skeepers/protocol/openid-connect/token`,
      fetch,
    })
    await vr.products.list()
    expect(requests.map((request) => new URL(request.url).origin)).toEqual([
      sb.sandbox.origin,
      sb.sandbox.origin,
    ])
  })

  it('refuses an origin that is no http(s) URL', () => {
    expect(() => createClient({ origin: 'localhost:4010' })).toThrow(ValidationError)
  })
})

describe('environment variables', () => {
  const saved = { ...process.env }

  afterEach(() => {
    process.env = { ...saved }
  })

  it('reads the credentials and the origin from VERIFIED_REVIEWS_*', async () => {
    process.env.VERIFIED_REVIEWS_CLIENT_ID = sb.sandbox.clientId
    process.env.VERIFIED_REVIEWS_CLIENT_SECRET = sb.sandbox.clientSecret
    process.env.VERIFIED_REVIEWS_ORIGIN = sb.sandbox.origin
    const page = await createClient().products.list()
    expect(page.data).toHaveLength(10)
  })

  it('prefers options over the environment', async () => {
    process.env.VERIFIED_REVIEWS_CLIENT_SECRET = 'wrong'
    const page = await sb.client({ clientSecret: sb.sandbox.clientSecret }).products.list()
    expect(page.data).toHaveLength(10)
  })
})

describe('fetch options and headers', () => {
  it('passes fetchOptions through to fetch, per request over the client', async () => {
    const { requests, fetch } = recorder()
    const vr = sb.client({ fetch, fetchOptions: { next: { revalidate: 60 } }, headers: { 'x-shop': 'demo' } })
    await vr.products.list(
      {},
      { fetchOptions: { next: { tags: ['products'] } }, headers: { 'x-page': 'home' } },
    )
    const api = requests.find((request) => request.url.includes('/products'))
    expect(api?.init).toHaveProperty('next', { tags: ['products'] })
    expect(api?.init.headers).toMatchObject({ 'x-shop': 'demo', 'x-page': 'home' })
  })

  it('never passes fetchOptions to a token request', async () => {
    const { requests, fetch } = recorder()
    await sb.client({ fetch, fetchOptions: { next: { revalidate: 60 } } }).products.list()
    const token = requests.find((request) => request.url.includes('/token'))
    expect(token?.init).toBeDefined()
    expect(token?.init).not.toHaveProperty('next')
  })
})

describe('tokens', () => {
  it('shares one token request among concurrent calls', async () => {
    const vr = sb.client()
    await Promise.all([
      vr.products.list(),
      vr.products.reviews.list(),
      vr.brands.list(),
      vr.brands.reviews.list(),
      vr.products.ratings.list({ type: 'product_variation_id', value: ['SKU-001'] }),
    ])
    expect((await sb.stats()).operations['token.published']).toBe(1)
  })

  it('keeps one token per audience', async () => {
    const vr = sb.client()
    await vr.products.list()
    await vr.purchaseEvents.submit({
      events: [
        {
          purchase_reference: 'T-1',
          purchase_date: '2026-03-01T10:00:00Z',
          consumer: {},
          sales_channel: { channel: 'online' },
        },
      ],
    })
    await vr.brands.list()
    const { operations } = await sb.stats()
    expect(operations['token.published']).toBe(1)
    expect(operations['token.purchase-events']).toBe(1)
  })

  it('reuses its token across calls', async () => {
    const vr = sb.client()
    for (let i = 0; i < 5; i++) await vr.products.list()
    expect((await sb.stats()).operations['token.published']).toBe(1)
  })
})

describe('rate limits', () => {
  const limited = sandboxForFile({ rateLimit: 4 })

  it('waits before the API refuses it when the rate-limit headers say the budget is spent', async () => {
    const statuses: number[] = []
    const events: RateLimitEvent[] = []
    const vr = limited.client({
      fetch: async (url, init) => {
        const response = await fetch(url, init)
        statuses.push(response.status)
        return response
      },
      onRateLimit: (event) => void events.push(event),
    })
    let count = 0
    for await (const _ of vr.products.reviews.list({ limit: 200 })) count++
    expect(count).toBe(3000)
    expect(statuses).not.toContain(429)
    expect(events.some((event) => event.reason === 'budget')).toBe(true)
  })
})

describe('cache', () => {
  it('answers an identical read from the cache', async () => {
    const vr = sb.client({ cache: createMemoryCache() })
    const first = await vr.products.list({ limit: 5 })
    const second = await vr.products.list({ limit: 5 })
    expect(second.data).toEqual(first.data)
    expect((await sb.stats()).operations['products.list']).toBe(1)
  })

  it('makes one request for concurrent identical reads', async () => {
    const vr = sb.client({ cache: createMemoryCache() })
    await Promise.all([vr.brands.list(), vr.brands.list(), vr.brands.list()])
    expect((await sb.stats()).operations['brands.list']).toBe(1)
  })

  it('keeps pages working from the cache, cursors included', async () => {
    const vr = sb.client({ cache: createMemoryCache() })
    const walk = async () => {
      const ids: string[] = []
      for await (const review of vr.brands.reviews.list({ limit: 200 })) ids.push(review.review_id)
      return ids
    }
    const first = await walk()
    const second = await walk()
    expect(second).toEqual(first)
    expect((await sb.stats()).operations['brands.reviews.list']).toBe(3)
  })

  it('sends a call with cache: false to the API', async () => {
    const vr = sb.client({ cache: createMemoryCache() })
    await vr.products.list()
    await vr.products.list({}, { cache: false })
    expect((await sb.stats()).operations['products.list']).toBe(2)
  })

  it('serves a stale answer while the API fails', async () => {
    const vr = sb.client({ cache: { store: createMemoryCache(), ttl: 0, staleIfError: 60 }, maxRetries: 0 })
    const fresh = await vr.products.list()
    await sb.faults([{ operation: 'products.list', status: 500 }])
    const stale = await vr.products.list()
    expect(stale.data).toEqual(fresh.data)
  })

  it('drops the answers of a tag', async () => {
    const store = createMemoryCache()
    const vr = sb.client({ cache: { store, tags: ['reviews'] } })
    await vr.products.list()
    await store.deleteByTag('reviews')
    await vr.products.list()
    expect((await sb.stats()).operations['products.list']).toBe(2)
  })
})
