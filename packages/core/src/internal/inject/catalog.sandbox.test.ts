import { describe, expect, it } from 'vitest'
import { sandboxForFile } from '../../../../../test/fixtures/sandbox.ts'
import type { ProductReview } from '../../types/published.ts'
import { createMemoryReviewStore } from '../sync/memory-store.ts'
import { createReviewsCatalog } from './catalog.ts'

const sb = sandboxForFile({ seed: 1 })

function catalog(options: Omit<Parameters<typeof createReviewsCatalog>[0], 'client'> = {}) {
  return createReviewsCatalog({ client: sb.client(), ...options })
}

async function operations(): Promise<Record<string, number>> {
  const { 'token.published': _token, ...api } = (await sb.stats()).operations
  return api
}

describe('createReviewsCatalog', () => {
  it('syncs the reviews once for every caller, then answers from the store', async () => {
    const reviews = catalog()
    const [a, b] = await Promise.all([reviews.reviews('SKU-001'), reviews.reviews('SKU-002')])
    await reviews.reviews('SKU-001')
    expect(a).toHaveLength(11)
    expect(b).toHaveLength(19)
    expect(await operations()).toEqual({ 'products.reviews.list': 15 })
    expect(reviews.calls()).toEqual({ reviews: 15, ratings: 0, products: 0 })
  })

  it('reads reviews a loader already synced without a call', async () => {
    const store = createMemoryReviewStore<ProductReview>()
    const reviews = catalog({ store, sync: false })
    expect(await reviews.reviews('SKU-001')).toEqual([])
    expect(await reviews.syncReport()).toBeUndefined()
    expect(await operations()).toEqual({})
  })

  it('fetches the ratings of products it has not fetched yet, in bulk', async () => {
    const ratings = catalog()
    const first = await ratings.ratings(['SKU-001', 'SKU-002', 'SKU-012'])
    const again = await ratings.ratings(['SKU-002', 'SKU-001'])
    expect([...first.keys()]).toEqual(['SKU-001', 'SKU-002'])
    expect(again.get('SKU-001')).toEqual(first.get('SKU-001'))
    expect(await operations()).toEqual({ 'products.ratings.list': 1 })
  })

  it('takes the ratings from the summaries once they are fetched, without a call', async () => {
    const data = catalog()
    const summaries = await data.summaries()
    const ratings = await data.ratings(['SKU-001', 'SKU-012'])
    expect([...ratings.keys()]).toEqual(['SKU-001'])
    expect(ratings.get('SKU-001')).toEqual(summaries.get('SKU-001')?.ratings)
    expect(await operations()).toEqual({ 'products.list': 1 })
  })
})
