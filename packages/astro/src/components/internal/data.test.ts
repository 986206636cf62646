import { cursorSigner, isContinuationCursor } from '@verified-reviews/core/endpoint'
import type { ReviewView } from '@verified-reviews/core/internal'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import { shared, sharedClient, startRun } from '../../internal/shared.ts'
import { brandView, productView } from './data.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

beforeEach(() => {
  const { origin, clientId, clientSecret } = sb.sandbox
  startRun({
    clientOptions: { origin, clientId, clientSecret },
    command: 'dev',
    storeDir: undefined,
    locale: undefined,
  })
})

const newest: ReviewView = { sort: 'newest', rates: [] }

async function reviewCalls(operation = 'products.reviews.list'): Promise<number> {
  return (await sb.stats()).operations[operation] ?? 0
}

describe('productView on a page rendered on demand', () => {
  it('signs the cursors it hands to the page’s links with the key of the shared client', async () => {
    const first = await productView(['SKU-001'], newest, 5, false)
    const scope = { kind: 'product', id: 'SKU-001', sort: 'newest', rates: [], limit: 5 } as const
    expect(first.nextCursor).toMatch(/^s1\./)
    expect(await cursorSigner(sharedClient()).open(scope, first.nextCursor)).toMatch(/.+/)
  })

  it('goes on from a vr_cursor it signed', async () => {
    const first = await productView(['SKU-001'], newest, 5, false)
    const second = await productView(['SKU-001'], { ...newest, cursor: first.nextCursor }, 5, false)
    expect(second.cursor).toBe(first.nextCursor)
    expect(second.data.map((review) => review.review_id)).not.toEqual(
      first.data.map((review) => review.review_id),
    )
  })

  it('shows the first page for an API cursor in vr_cursor that it did not sign, asking the API once', async () => {
    const api = await sb.client().products.reviews.list({
      product_variation_id: ['SKU-001'],
      sort: ['publish_date'],
      desc: ['publish_date'],
      limit: 5,
    })
    const before = await reviewCalls()
    const shown = await productView(['SKU-001'], { ...newest, cursor: api.nextCursor }, 5, false)
    expect(shown.cursor).toBeUndefined()
    expect(shown.data.map((review) => review.review_id)).toEqual(api.data.map((review) => review.review_id))
    expect(await reviewCalls()).toBe(before + 1)
  })

  it('shows the first page for a signed vr_cursor moved to another page size', async () => {
    const first = await productView(['SKU-001'], newest, 5, false)
    const moved = await productView(['SKU-001'], { ...newest, cursor: first.nextCursor }, 6, false)
    expect(moved.cursor).toBeUndefined()
  })
})

describe('productView during astro build', () => {
  beforeEach(() => {
    const { origin, clientId, clientSecret } = sb.sandbox
    startRun({
      clientOptions: { origin, clientId, clientSecret },
      command: 'build',
      storeDir: undefined,
      locale: undefined,
    })
  })
  const scope = { kind: 'product', id: 'SKU-001', sort: 'newest', rates: [], limit: 5 } as const

  it('reads the first page of a prerendered page from the build’s catalog, once for every page', async () => {
    const first = await productView(['SKU-001'], newest, 5, true)
    expect(shared().catalog).toBeDefined()
    // The catalog's page goes on with a continuation cursor, which an API page never hands out.
    const next = await cursorSigner(sharedClient()).open(scope, first.nextCursor)
    expect(isContinuationCursor(next ?? '')).toBe(true)
    const before = await reviewCalls()
    const again = await productView(['SKU-001'], newest, 5, true)
    expect(again.data).toEqual(first.data)
    expect(await reviewCalls()).toBe(before)
  })

  it('asks the API for another view, and for a page rendered on demand, without opening the catalog', async () => {
    const before = await reviewCalls()
    await productView(['SKU-001'], { sort: 'lowest', rates: [] }, 5, true)
    const onDemand = await productView(['SKU-001'], newest, 5, false)
    expect(await reviewCalls()).toBe(before + 2)
    expect(shared().catalog).toBeUndefined()
    const next = await cursorSigner(sharedClient()).open(scope, onDemand.nextCursor)
    expect(isContinuationCursor(next ?? '')).toBe(false)
  })
})

describe('brandView on a page rendered on demand', () => {
  it('shows the first page for a vr_cursor it did not sign, asking the API once', async () => {
    const api = await sb
      .client()
      .brands.reviews.list({ sort: ['publish_date'], desc: ['publish_date'], limit: 5 })
    const before = await reviewCalls('brands.reviews.list')
    const shown = await brandView(undefined, { ...newest, cursor: api.nextCursor }, 5)
    expect(shown.cursor).toBeUndefined()
    expect(await reviewCalls('brands.reviews.list')).toBe(before + 1)
  })

  it('goes on from a vr_cursor it signed', async () => {
    const first = await brandView(undefined, newest, 5)
    const second = await brandView(undefined, { ...newest, cursor: first.nextCursor }, 5)
    expect(second.cursor).toBe(first.nextCursor)
  })
})
