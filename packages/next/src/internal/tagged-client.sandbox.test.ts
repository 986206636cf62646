import { continuationCursor } from '@verified-reviews/core/endpoint'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../test/fixtures/sandbox.ts'
import { nextTagging } from './tagged-client.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
let requests: Array<{ url: string; next: { revalidate?: number; tags?: string[] } | undefined }>

beforeEach(() => {
  requests = []
})

function client() {
  return sb.client({
    fetch: (input, init) => {
      requests.push({ url: input, next: (init as { next?: { tags?: string[] } }).next })
      return fetch(input, init)
    },
    requestOptions: nextTagging(600),
  })
}

function readsOf(path: string) {
  return requests.filter((request) => new URL(request.url).pathname.endsWith(path))
}

describe('nextTagging', () => {
  it('tags a product reviews read with the product and revalidates it after the given seconds', async () => {
    await client().products.reviews.list({ product_variation_id: ['SKU-001'], limit: 2 })
    expect(readsOf('/products/reviews')[0]?.next).toEqual({
      revalidate: 600,
      tags: ['verified-reviews:product:SKU-001', 'verified-reviews'],
    })
  })

  it('tags a bulk ratings read with every product it asks for', async () => {
    await client().products.ratings.list({ type: 'product_variation_id', value: ['SKU-001', 'SKU-002'] })
    expect(readsOf('/products/ratings')[0]?.next?.tags).toEqual([
      'verified-reviews:product:SKU-001',
      'verified-reviews:product:SKU-002',
      'verified-reviews',
    ])
  })

  it('tags a bulk ratings read of more products than Next.js keeps tags with everything alone', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `SKU-${i + 1}`)
    await client().products.ratings.list({ type: 'product_variation_id', value: ids })
    expect(readsOf('/products/ratings')[0]?.next?.tags).toEqual(['verified-reviews'])
  })

  it('tags the summaries and the structured data of a product with the product', async () => {
    const vr = client()
    await vr.products.list({ product_variation_id: ['SKU-003'] })
    await vr.products.structuredData.get({
      product_variation_id: 'SKU-003',
      canonical_url: 'https://shop.example/p/3',
    })
    expect(readsOf('/products')[0]?.next?.tags).toContain('verified-reviews:product:SKU-003')
    expect(readsOf('/products/structured-datas')[0]?.next?.tags).toContain('verified-reviews:product:SKU-003')
  })

  it('tags brand reads with the brand, or with the shops they filter on', async () => {
    const vr = client()
    await vr.brands.reviews.list({ limit: 1 })
    await vr.brands.list({ shop_key: ['shop-paris', 'shop-lyon'] })
    expect(readsOf('/brands/reviews')[0]?.next?.tags).toEqual(['verified-reviews:brand', 'verified-reviews'])
    expect(readsOf('/brands')[0]?.next?.tags).toEqual([
      'verified-reviews:shop:shop-paris',
      'verified-reviews:shop:shop-lyon',
      'verified-reviews',
    ])
  })

  it('keeps the tags a caller gives', async () => {
    await client().products.reviews.list(
      { product_variation_id: ['SKU-001'], limit: 1 },
      { fetchOptions: { next: { tags: ['mine'], revalidate: 60 } } },
    )
    expect(readsOf('/products/reviews')[0]?.next).toEqual({
      revalidate: 60,
      tags: ['mine', 'verified-reviews:product:SKU-001', 'verified-reviews'],
    })
  })

  it('sends token requests without Next.js options', async () => {
    await client().products.reviews.list({ limit: 1 })
    expect(readsOf('/token')).toEqual([expect.objectContaining({ next: undefined })])
  })

  it('goes on from a continuation cursor with the API', async () => {
    const vr = client()
    const newest = {
      product_variation_id: ['SKU-002'],
      sort: ['publish_date'],
      desc: ['publish_date'],
    } as const
    const first = await vr.products.reviews.list({ ...newest, limit: 5 })
    const next = await vr.products.reviews.list({
      ...newest,
      limit: 5,
      cursor: continuationCursor(first.data),
    })
    const direct = await first.getNextPage()
    expect(next.data.map((review) => review.review_id)).toEqual(direct.data.map((review) => review.review_id))
  })

  it('tags every page of a list walked with for await', async () => {
    for await (const _ of client().products.reviews.list({ product_variation_id: ['SKU-002'], limit: 10 })) {
      // walks both pages
    }
    const pages = readsOf('/products/reviews')
    expect(pages).toHaveLength(2)
    for (const page of pages) expect(page.next?.tags).toContain('verified-reviews:product:SKU-002')
  })

  it('leaves the reads it does not tag without Next.js options', async () => {
    await client().legacy.products.ratings.get({ ref: ['SKU-001'] })
    expect(readsOf('/products/ratings')).toEqual([expect.objectContaining({ next: undefined })])
  })

  it('keeps a page iterable when the cursor is the API one', async () => {
    const ids: string[] = []
    for await (const review of client().products.reviews.list({
      product_variation_id: ['SKU-002'],
      limit: 10,
    })) {
      ids.push(review.review_id)
    }
    expect(ids).toHaveLength(19)
  })
})
