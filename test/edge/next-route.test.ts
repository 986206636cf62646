import type { ProductReview } from '@verified-reviews/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../fixtures/sandbox.ts'
import { bundleForEdge, EDGE_ROUTE_CONDITIONS, edgeRuntimeWith, runInEdge } from './edge-bundle.ts'

// The reviews route of @verified-reviews/next with `export const runtime = 'edge'`, bundled as Next.js
// bundles an edge route handler (the edge conditions and `react-server`, 'use client' modules as
// client references, a Node.js module an error only when used, the optional tracing package left
// out) and run in Vercel's Edge Runtime, configured by process.env as Next.js's edge runtime is.
const sb = sandboxForFile({ seed: 1, rateLimit: 0 })
let bundle = ''

beforeAll(async () => {
  bundle = await bundleForEdge(`export { GET, runtime } from './fixtures/reviews-route.ts'`, {
    conditions: EDGE_ROUTE_CONDITIONS,
    nodeModules: 'unsupported',
    serverComponents: true,
    external: ['@opentelemetry/api'],
  })
})

interface Answer {
  status: number
  cacheControl: string | null
  body: { data?: ProductReview[]; nextCursor?: string | null; error?: { field?: string } }
}

/** GETs `query` of the route in a fresh edge runtime. */
function get(query: string): Promise<Answer> {
  return runInEdge<Answer>(
    edgeRuntimeWith(bundle, { env: sb.env() }),
    `const response = await entry.GET(new Request('https://shop.example/api/reviews?${query}'))
     return { status: response.status, cacheControl: response.headers.get('cache-control'), body: await response.json() }`,
  )
}

const ids = (reviews: readonly Pick<ProductReview, 'review_id'>[] = []) =>
  reviews.map((review) => review.review_id)

describe('the Next.js reviews route on the edge runtime', () => {
  it('says it runs on the edge, and reaches no Node.js module', async () => {
    expect(bundle).not.toContain('does not support Node.js')
    expect(await runInEdge<string>(edgeRuntimeWith(bundle), 'return entry.runtime')).toBe('edge')
  })

  it('answers a page of reviews with its cache headers', async () => {
    const answer = await get('product_variation_id=SKU-001&limit=5')
    const onNode = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-001'],
      sort: ['publish_date'],
      desc: ['publish_date'],
      limit: 5,
    })
    expect(answer.status).toBe(200)
    expect(answer.cacheControl).toMatch(/^public, s-maxage=\d+, stale-while-revalidate=\d+$/)
    expect(ids(answer.body.data)).toEqual(ids(onNode.data))
  })

  it('goes on with the signed cursor it answered', async () => {
    const first = await get('product_variation_id=SKU-002&limit=10')
    const cursor = first.body.nextCursor ?? ''
    const second = await get(`product_variation_id=SKU-002&limit=10&cursor=${encodeURIComponent(cursor)}`)
    expect(cursor).toMatch(/^s1\./)
    expect(second.status).toBe(200)
    expect(ids(second.body.data)).toHaveLength(9)
    expect(ids(second.body.data)).not.toContain(ids(first.body.data)[0])
  })

  it('refuses a cursor it did not sign, naming it', async () => {
    const answer = await get('product_variation_id=SKU-001&cursor=forged')
    expect(answer).toMatchObject({ status: 400, body: { error: { field: 'cursor' } } })
  })
})
