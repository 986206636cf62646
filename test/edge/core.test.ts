import type { ProductReview } from '@verified-reviews/core'
import { buildProductJsonLd, serializeJsonLd } from '@verified-reviews/core/jsonld'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'
import { bundleForEdge, edgeRuntimeWith, runInEdge } from './edge-bundle.ts'

// Core as an edge bundle resolves it (`edge-light`, `worker`, then `browser`), run in Vercel's Edge
// Runtime against the sandbox: the client (token, pages, retries), the JSON-LD builder and the reviews
// endpoint, with fetch and Web Crypto alone.
const ENTRY = `
export { createClient } from '@verified-reviews/core'
export { continuationCursor, createReviewsHandler, cursorSigner } from '@verified-reviews/core/endpoint'
export { buildProductJsonLd, serializeJsonLd } from '@verified-reviews/core/jsonld'
`

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
let bundle = ''

beforeAll(async () => {
  bundle = await bundleForEdge(ENTRY)
})

/** Runs `body` in a fresh edge runtime, where `client()` makes a client of the sandbox. */
function inEdge<T>(body: string): Promise<T> {
  const options = JSON.stringify({
    origin: sb.sandbox.origin,
    clientId: sb.sandbox.clientId,
    clientSecret: sb.sandbox.clientSecret,
  })
  return runInEdge<T>(
    edgeRuntimeWith(bundle),
    `const client = (more = {}) => entry.createClient({ ...${options}, ...more }); ${body}`,
  )
}

const NEWEST = { sort: ['publish_date'], desc: ['publish_date'] } as const

async function newestFirst(productId: string): Promise<ProductReview[]> {
  const all: ProductReview[] = []
  const walk = sb.client().products.reviews.list({ product_variation_id: [productId], ...NEWEST, limit: 200 })
  for await (const review of walk) all.push(review)
  return all
}

const ids = (reviews: readonly Pick<ProductReview, 'review_id'>[]) =>
  reviews.map((review) => review.review_id)

describe('core in the Edge Runtime', () => {
  it('runs where there is no process, require, Buffer or node: module', async () => {
    expect(bundle).not.toMatch(/\brequire\(\s*["']node:/)
    const globals = await runInEdge<string[]>(
      edgeRuntimeWith(bundle),
      'return [EdgeRuntime, typeof process, typeof require, typeof Buffer, typeof crypto.subtle.importKey]',
    )
    expect(globals).toEqual(['edge-runtime', 'undefined', 'undefined', 'undefined', 'function'])
  })

  it('gets a token and reads a page of reviews, as on Node.js', async () => {
    const page = await inEdge<{ data: ProductReview[]; next: boolean }>(`
      const page = await client().products.reviews.list({ product_variation_id: ['SKU-001'], limit: 5 })
      return { data: page.data, next: page.hasNextPage() }
    `)
    const onNode = await sb.client().products.reviews.list({ product_variation_id: ['SKU-001'], limit: 5 })
    expect(ids(page.data)).toEqual(ids(onNode.data))
    expect(page.next).toBe(onNode.hasNextPage())
  })

  it('keeps one token for its calls, and gets a new one when the API refuses it', async () => {
    await inEdge(`
      const vr = client()
      await vr.products.list({ limit: 1 })
      await vr.brands.list()
      await vr.products.reviews.list({ limit: 1 })
    `)
    const tokens = async () => (await sb.stats()).operations['token.published'] ?? 0
    expect(await tokens()).toBe(1)
    // The sandbox forgets its tokens between the two calls: the second one is refused with a 401.
    const expire = `await fetch('${sb.sandbox.origin}/__sandbox/tokens/expire', { method: 'POST', headers: { 'content-type': 'application/json' } })`
    const refreshed = await inEdge<number>(`
      const vr = client()
      await vr.products.list({ limit: 1 })
      ${expire}
      return (await vr.products.list({ limit: 1 })).data.length
    `)
    expect(refreshed).toBe(1)
    expect(await tokens()).toBe(3)
  })

  it('walks every page of a list with for await', async () => {
    const walked = await inEdge<string[]>(`
      const ids = []
      for await (const review of client().products.reviews.list({ product_variation_id: ['SKU-058'], ...${JSON.stringify(NEWEST)}, limit: 7 }))
        ids.push(review.review_id)
      return ids
    `)
    expect(walked).toEqual(ids(await newestFirst('SKU-058')))
  })

  it('retries a failed request after its backoff and says so', async () => {
    await sb.faults([{ operation: 'products.reviews.list', status: 503, count: 2 }])
    const outcome = await inEdge<{ retries: number[]; count: number }>(`
      const retries = []
      const vr = client({ onRetry: (event) => { retries.push(event.error.status) } })
      const page = await vr.products.reviews.list({ product_variation_id: ['SKU-001'], limit: 3 })
      return { retries, count: page.data.length }
    `)
    expect(outcome).toEqual({ retries: [503, 503], count: 3 })
  })

  it('builds the same JSON-LD of a product as on Node.js', async () => {
    const url = 'https://shop.example/products/SKU-001'
    const edge = await inEdge<string>(`
      const vr = client()
      const [rating] = await vr.products.ratings.list({ type: 'product_variation_id', value: ['SKU-001'] })
      const page = await vr.products.reviews.list({ product_variation_id: ['SKU-001'], ...${JSON.stringify(NEWEST)}, limit: 5 })
      const node = entry.buildProductJsonLd({ url: '${url}', rating, reviews: page.data, logger: { warn() {} } })
      return entry.serializeJsonLd(node)
    `)
    const vr = sb.client()
    const [rating] = await vr.products.ratings.list({ type: 'product_variation_id', value: ['SKU-001'] })
    const page = await vr.products.reviews.list({ product_variation_id: ['SKU-001'], ...NEWEST, limit: 5 })
    const onNode = serializeJsonLd(
      buildProductJsonLd({ url, rating, reviews: page.data, logger: { warn() {} } }),
    )
    expect(edge).toBe(onNode)
    expect(JSON.parse(edge)).toMatchObject({
      '@type': 'Product',
      aggregateRating: { '@type': 'AggregateRating' },
    })
  })

  it('serves every page of a product through the reviews endpoint, its cursors signed with Web Crypto', async () => {
    const walked = await inEdge<{ ids: string[]; statuses: number[]; signed: boolean }>(`
      const handle = entry.createReviewsHandler({ client: client() })
      const ids = []
      const statuses = []
      let signed = true
      let cursor = null
      do {
        const query = 'product_variation_id=SKU-058&limit=20' + (cursor === null ? '' : '&cursor=' + encodeURIComponent(cursor))
        const response = await handle(new Request('https://shop.example/api/reviews?' + query))
        statuses.push(response.status)
        const body = await response.json()
        ids.push(...body.data.map((review) => review.review_id))
        cursor = body.nextCursor
        if (cursor !== null && !cursor.startsWith('s1.')) signed = false
      } while (cursor !== null)
      return { ids, statuses, signed }
    `)
    const all = await newestFirst('SKU-058')
    expect(walked.ids).toEqual(ids(all))
    expect(walked.statuses.every((status) => status === 200)).toBe(true)
    expect(walked.statuses.length).toBeGreaterThan(1)
    expect(walked.signed).toBe(true)
  })

  it('goes on from the continuation cursor of a page shown from local data', async () => {
    const all = await newestFirst('SKU-058')
    const shown = all.slice(0, 10).map(({ review_id, publish_date }) => ({ review_id, publish_date }))
    const body = await inEdge<{ data: { review_id: string }[] }>(`
      const vr = client()
      const cursor = await entry.cursorSigner(vr).sign(
        { kind: 'product', id: 'SKU-058', sort: 'newest', rates: [], limit: 10 },
        entry.continuationCursor(${JSON.stringify(shown)}),
      )
      const handle = entry.createReviewsHandler({ client: vr })
      const response = await handle(new Request('https://shop.example/api/reviews?product_variation_id=SKU-058&limit=10&cursor=' + encodeURIComponent(cursor)))
      return response.json()
    `)
    expect(ids(body.data)).toEqual(ids(all.slice(10, 20)))
  })
})
