import { cursorSigner } from '@verified-reviews/core/endpoint'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxForFile } from '../../../test/fixtures/sandbox.ts'
import { reviewsClient } from './clients.ts'
import { brandReviewView, productReviewView } from './review-view.ts'

const sb = sandboxForFile({ seed: 1, rateLimit: 0 })

beforeEach(() => {
  for (const [name, value] of Object.entries(sb.env())) vi.stubEnv(name, value)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

const productScope = { kind: 'product', id: 'SKU-001', sort: 'oldest', rates: [4, 5], limit: 10 } as const

describe('productReviewView', () => {
  it('gives the first page the same key whatever junk the search params carry', async () => {
    const keys = await Promise.all([
      productReviewView('SKU-001', {}),
      productReviewView('SKU-001', { utm: 'x'.repeat(6000) }),
      productReviewView('SKU-001', { vr_sort: 'newest', vr_rate: '9,x', other: ['a', 'b'] }),
      productReviewView('SKU-001', Promise.resolve(new URLSearchParams('vr_sort=bogus&__proto__=1'))),
    ])
    expect(keys.map((key) => JSON.stringify(key))).toEqual(['{}', '{}', '{}', '{}'])
  })

  it('keeps the sort and the rates, in one spelling', async () => {
    expect(await productReviewView('SKU-001', { vr_sort: 'oldest', vr_rate: '5,4,5' })).toEqual({
      vr_sort: 'oldest',
      vr_rate: '4,5',
    })
  })

  it('keeps a cursor this site signed for this list, and drops a forged one or one of another list, with no API call', async () => {
    const signed = await cursorSigner(reviewsClient()).sign(productScope, 'abc')
    const params = { vr_sort: 'oldest', vr_rate: '4,5' }
    expect(await productReviewView('SKU-001', { ...params, vr_cursor: signed })).toEqual({
      ...params,
      vr_cursor: signed,
    })
    const forged = `s1.${'A'.repeat(43)}.abc`
    expect(await productReviewView('SKU-001', { ...params, vr_cursor: forged })).toEqual(params)
    expect(await productReviewView('SKU-002', { ...params, vr_cursor: signed })).toEqual(params)
    expect(await productReviewView('SKU-001', { ...params, vr_cursor: signed }, { limit: 20 })).toEqual(
      params,
    )
    const { operations } = await sb.stats()
    expect(Object.keys(operations).filter((name) => !name.startsWith('token'))).toEqual([])
  })
})

describe('brandReviewView', () => {
  it('keeps a cursor signed for the shop it names only', async () => {
    const scope = { kind: 'brand', id: 'shop-1', sort: 'newest', rates: [], limit: 10 } as const
    const signed = await cursorSigner(reviewsClient()).sign(scope, 'p2')
    expect(await brandReviewView('shop-1', { vr_cursor: signed })).toEqual({ vr_cursor: signed })
    expect(await brandReviewView(undefined, { vr_cursor: signed })).toEqual({})
  })
})
