import { describe, expect, it } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { fromLegacyRatingsParams, fromLegacyReviewsParams } from './legacy-params.ts'

const websiteId = '0b6f4a52-8a3b-4d7e-9f1c-2d3e4f5a6b7c'
const fields = (notes: { field: string }[]) => notes.map((n) => n.field)

describe('fromLegacyReviewsParams', () => {
  it('turns ref into product_variation_id and rate into review_rate', () => {
    const { params } = fromLegacyReviewsParams({ websiteId, ref: ['SKU-1', 'SKU-2'], rate: [5, 4, 5] })
    expect(params.product_variation_id).toEqual(['SKU-1', 'SKU-2'])
    expect(params.review_rate).toEqual([4, 5])
  })

  it('drops the website id with a note, since the credentials carry it', () => {
    expect(fields(fromLegacyReviewsParams({ websiteId }).dropped)).toEqual(['websiteId'])
  })

  it('keeps the legacy default order, newest publication first, when sortBy is absent', () => {
    const { params } = fromLegacyReviewsParams({ websiteId })
    expect([params.sort, params.desc]).toEqual([['publish_date'], ['publish_date']])
  })

  it('renames sort fields and names them all in desc for DESC', () => {
    const { params } = fromLegacyReviewsParams({ websiteId, sortBy: ['rate', 'id'], sortDirection: 'DESC' })
    expect(params.sort).toEqual(['review_rate', 'review_id'])
    expect(params.desc).toEqual(['review_rate', 'review_id'])
  })

  it('sorts ascending without desc for ASC', () => {
    const { params } = fromLegacyReviewsParams({ websiteId, sortBy: ['product_ref'], sortDirection: 'ASC' })
    expect(params.sort).toEqual(['product_variation_id'])
    expect(params.desc).toBeUndefined()
  })

  it('drops sort fields that the Published API cannot sort on, with a note', () => {
    const result = fromLegacyReviewsParams({ websiteId, sortBy: ['brand', 'publish_date'] })
    expect(result.params.sort).toEqual(['publish_date'])
    expect(result.dropped).toContainEqual({
      field: 'sortBy',
      reason: 'brand has no sortable Published counterpart',
    })
  })

  it('leaves sort out and notes the direction when no sort field maps', () => {
    const result = fromLegacyReviewsParams({ websiteId, sortBy: ['brand'], sortDirection: 'ASC' })
    expect(result.params.sort).toBeUndefined()
    expect(fields(result.dropped)).toContain('sortDirection')
  })

  it('pages by 200 when the legacy call had no limit', () => {
    const result = fromLegacyReviewsParams({ websiteId })
    expect(result.params.limit).toBe(200)
    expect(result.take).toBeUndefined()
  })

  it('keeps a limit as page size and as a per-product cap', () => {
    const result = fromLegacyReviewsParams({ websiteId, limit: 20 })
    expect([result.params.limit, result.take, result.perProduct]).toEqual([20, 20, true])
  })

  it('caps the page size at 200 and says so', () => {
    const result = fromLegacyReviewsParams({ websiteId, limit: 500 })
    expect([result.params.limit, result.take]).toEqual([200, 500])
    expect(result.dropped.find((n) => n.reason.includes('capped'))?.field).toBe('limit')
  })

  it('refuses a limit that is not a positive integer', () => {
    expect(() => fromLegacyReviewsParams({ websiteId, limit: 0 })).toThrow(ValidationError)
  })

  it('turns an offset into a per-product skip and explains why it is no cursor', () => {
    const result = fromLegacyReviewsParams({ websiteId, offset: 30 })
    expect([result.skip, result.perProduct]).toEqual([30, true])
    expect(result.dropped.find((n) => n.field === 'offset')?.reason).toMatch(/cursor/)
  })

  it('skips nothing without an offset', () => {
    expect(fromLegacyReviewsParams({ websiteId }).skip).toBe(0)
  })
})

describe('fromLegacyRatingsParams', () => {
  it('looks references up in bulk by product_variation_id', () => {
    expect(fromLegacyRatingsParams({ websiteId, ref: ['B', 'A'] })).toMatchObject({
      operation: 'products.ratings.list',
      params: { type: 'product_variation_id', value: ['B', 'A'] },
    })
  })

  it('walks every product summary when no reference is given', () => {
    const result = fromLegacyRatingsParams({ websiteId })
    expect(result).toMatchObject({ operation: 'products.list', params: { limit: 200 } })
    expect(fields(result.dropped)).toEqual(['websiteId', 'ref'])
  })
})
