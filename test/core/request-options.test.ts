import {
  createClient,
  type OperationCall,
  type RequestOptions,
  type RequestOptionsHook,
  ValidationError,
} from '@verified-reviews/core'
import { createMemoryCache } from '@verified-reviews/core/cache'
import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

/** A fetch that records each request and forwards it to the sandbox. */
function recorder() {
  const requests: { path: string; init: RequestInit }[] = []
  const fetchThrough = (url: string, init: RequestInit) => {
    requests.push({ path: new URL(url).pathname, init })
    return fetch(url, init)
  }
  return { requests, fetch: fetchThrough }
}

/** A hook that records what it sees and answers `answer`. */
function watching(answer: (call: OperationCall) => RequestOptions | undefined = () => undefined) {
  const calls: OperationCall[] = []
  const hook: RequestOptionsHook = (call) => {
    calls.push(call)
    return answer(call)
  }
  return { calls, hook }
}

const EVENT = {
  purchase_reference: 'HOOK-1',
  purchase_date: '2026-03-01T10:00:00Z',
  consumer: {},
  sales_channel: { channel: 'online' },
} as const

describe('requestOptions', () => {
  it('sees every operation by its name, with the parameters it was called with', async () => {
    const { calls, hook } = watching()
    const vr = sb.client({ requestOptions: hook })
    await vr.products.list()
    await vr.products.reviews.list({ product_variation_id: ['SKU-001'], limit: 1 })
    await vr.products.ratings.list({ type: 'product_variation_id', value: ['SKU-001'] })
    await vr.brands.list({ shop_key: ['shop-paris'] })
    await vr.brands.reviews.list({ limit: 1 })
    await vr.purchaseEvents.submit({ events: [EVENT] })
    await vr.legacy.products.ratings.get({ ref: ['SKU-001'] })
    await vr.genesis.static.brand()
    expect(calls.map(({ operation, params }) => [operation, params])).toEqual([
      ['products.list', {}],
      ['products.reviews.list', { product_variation_id: ['SKU-001'], limit: 1 }],
      ['products.ratings.list', { type: 'product_variation_id', value: ['SKU-001'] }],
      ['brands.list', { shop_key: ['shop-paris'] }],
      ['brands.reviews.list', { limit: 1 }],
      ['purchaseEvents.submit', { events: [EVENT] }],
      ['legacy.products.ratings.get', { ref: ['SKU-001'] }],
      ['genesis.static.brand', {}],
    ])
  })

  it('gives each request of the call what it returns, never to the token request', async () => {
    const { requests, fetch } = recorder()
    const vr = sb.client({
      fetch,
      requestOptions: ({ operation }) =>
        operation === 'products.reviews.list' ? { fetchOptions: { priority: 'low' } } : undefined,
    })
    await vr.products.reviews.list({ product_variation_id: ['SKU-001'], limit: 1 })
    await vr.products.list({ limit: 1 })
    expect(requests.map((request) => [request.path, request.init.priority])).toEqual([
      ['/realms/skeepers/protocol/openid-connect/token', undefined],
      ['/verified-reviews/v1/published/products/reviews', 'low'],
      ['/verified-reviews/v1/published/products', undefined],
    ])
  })

  it('is asked once per call, and its options hold for every page walked', async () => {
    const { requests, fetch } = recorder()
    const { calls, hook } = watching(() => ({ headers: { 'x-hook': 'yes' } }))
    const vr = sb.client({ fetch, requestOptions: hook })
    const ids: string[] = []
    for await (const review of vr.products.reviews.list({ product_variation_id: ['SKU-002'], limit: 10 }))
      ids.push(review.review_id)
    const pages = requests.filter((request) => request.path.endsWith('/products/reviews'))
    expect(ids.length).toBeGreaterThan(10)
    expect(calls).toHaveLength(1)
    expect(pages.length).toBeGreaterThan(1)
    for (const page of pages) expect((page.init.headers as Record<string, string>)['x-hook']).toBe('yes')
  })

  it("sees the caller's options and is laid over them, fetch options and headers entry by entry", async () => {
    const { requests, fetch } = recorder()
    const { calls, hook } = watching(() => ({
      fetchOptions: { priority: 'low' },
      headers: { 'x-hook': 'hook' },
    }))
    const vr = sb.client({ fetch, requestOptions: hook })
    const mine: RequestOptions = {
      fetchOptions: { keepalive: true, priority: 'high' },
      headers: { 'x-caller': 'caller', 'x-hook': 'caller' },
    }
    await vr.products.list({ limit: 1 }, mine)
    expect(calls[0]?.options).toBe(mine)
    const sent = requests.find((request) => request.path.endsWith('/products'))?.init
    expect(sent).toMatchObject({ keepalive: true, priority: 'low' })
    expect(sent?.headers).toMatchObject({ 'x-caller': 'caller', 'x-hook': 'hook' })
  })

  it('adds cache tags the store can drop', async () => {
    const store = createMemoryCache()
    const { requests, fetch } = recorder()
    const vr = sb.client({
      fetch,
      cache: store,
      requestOptions: ({ operation, params }) =>
        operation === 'products.list'
          ? { cache: { tags: [`p:${String(params.product_variation_id)}`] } }
          : undefined,
    })
    await vr.products.list({ product_variation_id: ['SKU-001'] })
    await store.deleteByTag('p:SKU-001')
    await vr.products.list({ product_variation_id: ['SKU-001'] })
    expect(requests.filter((request) => request.path.endsWith('/products'))).toHaveLength(2)
  })

  it('is not asked for a call whose parameters are refused', async () => {
    const { calls, hook } = watching()
    const vr = sb.client({ requestOptions: hook })
    await expect(vr.products.reviews.list({ limit: 0 })).rejects.toThrow(ValidationError)
    expect(calls).toEqual([])
  })

  it('fails the call, naming requestOptions, when it answers something other than options', async () => {
    const vr = sb.client({ requestOptions: () => 'tags' as unknown as RequestOptions })
    await expect(vr.products.list()).rejects.toThrow(
      /requestOptions: must return request options or undefined; for products.list it returned string/,
    )
  })

  it('must be a function', () => {
    expect(() => createClient({ requestOptions: {} as unknown as RequestOptionsHook })).toThrow(
      /requestOptions/,
    )
  })
})
