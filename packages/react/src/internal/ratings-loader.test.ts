import type { ProductRating, ProductRatingListParams } from '@verified-reviews/core'
import { describe, expect, it } from 'vitest'
import { loadRating, type RatingsClient } from './ratings-loader.ts'

function rating(id: string): ProductRating {
  return {
    product_variation_id: id,
    product_ean: `ean-${id}`,
    average: 4,
    count_total: 1,
    count_1: 0,
    count_2: 0,
    count_3: 0,
    count_4: 1,
    count_5: 0,
    extras: [],
  }
}

/** A client whose bulk ratings call records each list of identifiers and answers those not starting with `none`. */
function fakeClient(answer?: (ids: string[]) => Promise<ProductRating[]>) {
  const calls: string[][] = []
  const client = {
    products: {
      ratings: {
        list: (params: ProductRatingListParams) => {
          const ids = params.value as string[]
          calls.push(ids)
          return answer
            ? answer(ids)
            : Promise.resolve(ids.filter((id) => !id.startsWith('none')).map(rating))
        },
      },
    },
  } as unknown as RatingsClient
  return { client, calls }
}

describe('loadRating', () => {
  it('asks for every identifier of one tick in one call', async () => {
    const { client, calls } = fakeClient()
    const ids = Array.from({ length: 24 }, (_, i) => `SKU-${i}`)
    const ratings = await Promise.all(ids.map((id) => loadRating(client, 'product_variation_id', id)))
    expect(calls).toEqual([ids])
    expect(ratings.map((r) => r?.product_variation_id)).toEqual(ids)
  })

  it('sends at most 200 identifiers per call', async () => {
    const { client, calls } = fakeClient()
    const ids = Array.from({ length: 450 }, (_, i) => `SKU-${i}`)
    await Promise.all(ids.map((id) => loadRating(client, 'product_variation_id', id)))
    expect(calls.map((call) => call.length)).toEqual([200, 200, 50])
    expect(calls.flat()).toEqual(ids)
  })

  it('sends an identifier asked for twice once', async () => {
    const { client, calls } = fakeClient()
    const [a, b] = await Promise.all([
      loadRating(client, 'product_variation_id', 'SKU-1'),
      loadRating(client, 'product_variation_id', 'SKU-1'),
    ])
    expect(calls).toEqual([['SKU-1']])
    expect(a).toBe(b)
  })

  it('gives undefined for a product the answer leaves out (no reviews)', async () => {
    const { client } = fakeClient()
    expect(await loadRating(client, 'product_variation_id', 'none-1')).toBeUndefined()
  })

  it('matches GTIN lookups on product_ean, in a call of their own', async () => {
    const { client, calls } = fakeClient(async (ids) => ids.map((ean) => rating(ean.replace('ean-', ''))))
    const [byEan, byId] = await Promise.all([
      loadRating(client, 'product_ean', 'ean-A'),
      loadRating(client, 'product_variation_id', 'B'),
    ])
    expect(byEan?.product_variation_id).toBe('A')
    expect(byId?.product_variation_id).toBe('B')
    expect(calls).toHaveLength(2)
  })

  it('starts a new call for identifiers asked for after the batch left', async () => {
    const { client, calls } = fakeClient()
    await loadRating(client, 'product_variation_id', 'SKU-1')
    await loadRating(client, 'product_variation_id', 'SKU-2')
    expect(calls).toEqual([['SKU-1'], ['SKU-2']])
  })

  it('rejects every waiter of a failed call with the same error', async () => {
    const failure = new Error('down')
    const { client } = fakeClient(() => Promise.reject(failure))
    const results = await Promise.allSettled(
      ['A', 'B', 'C'].map((id) => loadRating(client, 'product_variation_id', id)),
    )
    expect(results.map((result) => (result.status === 'rejected' ? result.reason : result))).toEqual([
      failure,
      failure,
      failure,
    ])
  })
})
