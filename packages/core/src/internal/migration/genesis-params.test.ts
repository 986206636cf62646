import { describe, expect, it } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { fromGenesisProductBody, fromGenesisStaticFile, fromGenesisWebsiteParams } from './genesis-params.ts'

const fields = (notes: { field: string }[]) => notes.map((n) => n.field)

describe('fromGenesisWebsiteParams', () => {
  it('keeps the Genesis default order, newest publication first', () => {
    const { params } = fromGenesisWebsiteParams({})
    expect([params.sort, params.desc]).toEqual([['publish_date'], ['publish_date']])
  })

  it('turns order_by and order_type into sort and desc', () => {
    const { params } = fromGenesisWebsiteParams({ order_by: 'rate', order_type: 'ASC' })
    expect([params.sort, params.desc]).toEqual([['review_rate'], undefined])
  })

  it('turns range into limit and caps it at 200', () => {
    expect(fromGenesisWebsiteParams({ range: 50 }).params.limit).toBe(50)
    const capped = fromGenesisWebsiteParams({ range: 300 })
    expect(capped.params.limit).toBe(200)
    expect(fields(capped.dropped)).toContain('range')
  })

  it('turns a page number into items to skip and keeps one page', () => {
    const result = fromGenesisWebsiteParams({ range: 20, p: 3 })
    expect([result.skip, result.take, result.perProduct]).toEqual([40, 20, false])
    expect(result.dropped.find((n) => n.field === 'p')?.reason).toMatch(/cursor/)
  })

  it('counts pages of the Genesis default size when range is absent', () => {
    expect(fromGenesisWebsiteParams({ p: 2 }).skip).toBe(10)
  })

  it('refuses a page number below 1', () => {
    expect(() => fromGenesisWebsiteParams({ p: 0 })).toThrow(ValidationError)
  })

  it('turns a rate comparison into the ratings that pass it', () => {
    const of = (sign: '=' | '!=' | '<' | '<=' | '>' | '>=', compare: number | string) =>
      fromGenesisWebsiteParams({ field: 'rate', sign, compare }).params.review_rate
    expect([of('>=', 4), of('<', '3'), of('!=', 5), of('=', 2), of('>', 4), of('<=', 1)]).toEqual([
      [4, 5],
      [1, 2],
      [1, 2, 3, 4],
      [2],
      [5],
      [1],
    ])
  })

  it('keeps nothing when no rating passes the comparison', () => {
    const result = fromGenesisWebsiteParams({ field: 'rate', sign: '<', compare: 1 })
    expect(result.params.review_rate).toBeUndefined()
    expect(result.take).toBe(0)
  })

  it('drops an incomplete rate filter with a note', () => {
    const result = fromGenesisWebsiteParams({ field: 'rate', sign: '>=' })
    expect(result.params.review_rate).toBeUndefined()
    expect(fields(result.dropped)).toContain('field, sign, compare')
  })

  it('drops authentication, format and language filters with a note each', () => {
    const result = fromGenesisWebsiteParams({
      idWebsite: 'w',
      token: 't',
      format: 'json',
      iso_code: 'fr',
      plateforme: 'fr',
    })
    expect(fields(result.dropped)).toEqual(['idWebsite, token', 'format', 'iso_code', 'plateforme'])
  })
})

describe('fromGenesisProductBody', () => {
  it('replaces a reviews query by products.reviews.list over the same products', () => {
    const result = fromGenesisProductBody({ query: 'reviews', product: ['SKU-1', 'SKU-2'] })
    expect(result).toMatchObject({
      operation: 'products.reviews.list',
      params: {
        product_variation_id: ['SKU-1', 'SKU-2'],
        limit: 200,
        sort: ['publish_date'],
        desc: ['publish_date'],
      },
    })
  })

  it('keeps the per-product limit and offset as take and skip per product', () => {
    const result = fromGenesisProductBody({ query: 'reviews', product: ['A'], limit: 5, offset: 10 })
    expect([result.take, result.skip, result.perProduct]).toEqual([5, 10, true])
    expect(fields(result.dropped)).toEqual(['idWebsite, token', 'limit', 'offset'])
  })

  it('keeps the Genesis default of 10 reviews per product', () => {
    expect(fromGenesisProductBody({ query: 'reviews', product: ['A'] }).take).toBe(10)
  })

  it('turns order into sort and desc', () => {
    const { params } = fromGenesisProductBody({ query: 'reviews', product: ['A'], order: 'rate_asc' })
    expect(params).toMatchObject({ sort: ['review_rate'] })
    expect('desc' in params).toBe(false)
  })

  it('turns a rate filter into review_rate', () => {
    const body = {
      query: 'reviews' as const,
      product: ['A'],
      field: 'rate' as const,
      sign: '>' as const,
      compare: 3,
    }
    expect(fromGenesisProductBody(body).params).toMatchObject({ review_rate: [4, 5] })
  })

  it('replaces an average query by products.ratings.list by product_variation_id', () => {
    expect(fromGenesisProductBody({ query: 'average', product: ['A', 'B'] })).toMatchObject({
      operation: 'products.ratings.list',
      params: { type: 'product_variation_id', value: ['A', 'B'] },
    })
  })

  it('drops the rate filter of an average query with a note', () => {
    const result = fromGenesisProductBody({
      query: 'average',
      product: ['A'],
      field: 'rate',
      sign: '=',
      compare: 5,
    })
    expect(fields(result.dropped)).toContain('field, sign, compare')
  })

  it('drops plateforme with a note', () => {
    const result = fromGenesisProductBody({ query: 'average', product: ['A'], plateforme: 'fr' })
    expect(fields(result.dropped)).toContain('plateforme')
  })
})

describe('fromGenesisStaticFile', () => {
  it('maps the brand file to brands.list without a filter, as the spec does, keeping the brand entry', () => {
    const call = fromGenesisStaticFile('infosite.txt')
    expect(call).toMatchObject({ operation: 'brands.list', entries: 'brand' })
    expect(call.params).toEqual({ limit: 200 })
  })

  it('maps the shop file to brands.list without a filter, keeping the shop entries', () => {
    const call = fromGenesisStaticFile('infoshops.txt')
    expect(call).toMatchObject({ operation: 'brands.list', entries: 'shops' })
    expect(call.params).toEqual({ limit: 200 })
  })

  it('notes that the website comes from the credentials', () => {
    expect(fields(fromGenesisStaticFile('infosite.txt').dropped)).toEqual(['idWebsite'])
  })

  it('refuses a name that is no Genesis static file, naming file', () => {
    expect(() => fromGenesisStaticFile('infos.txt' as never)).toThrow(ValidationError)
    expect(() => fromGenesisStaticFile('infos.txt' as never)).toThrow(/file/)
  })
})
