import { afterEach, describe, expect, it, vi } from 'vitest'
import { ValidationError } from '../base/errors.ts'
import { Issues, isIsoDate, isIsoDateTime } from '../base/validate.ts'
import { buildQuery, type OperationSchema, PAGING_RULES, queryString } from './query-string.ts'

const schema: OperationSchema = {
  name: 'products.reviews.list',
  sortable: ['publish_date', 'review_rate'],
  rules: {
    ...PAGING_RULES,
    product_variation_id: { kind: 'values', noWhitespace: true },
    product_sku: { kind: 'values' },
    review_rate: { kind: 'rates' },
    publish_date: { kind: 'dates' },
    is_verified: { kind: 'boolean' },
    search: { kind: 'text' },
  },
}

function query(params: unknown): Record<string, string> {
  const issues = new Issues()
  const result = buildQuery(schema, params, issues)
  issues.throwIfAny()
  return Object.fromEntries(result)
}

function fieldOf(params: unknown): string | undefined {
  try {
    query(params)
    return undefined
  } catch (error) {
    return error instanceof ValidationError ? error.field : 'not a ValidationError'
  }
}

describe('buildQuery', () => {
  it('joins arrays with commas and writes booleans and numbers as text', () => {
    expect(
      query({ product_variation_id: ['A', 'B'], review_rate: [4, 5], is_verified: true, limit: 200 }),
    ).toEqual({ product_variation_id: 'A,B', review_rate: '4,5', is_verified: 'true', limit: '200' })
  })

  it('accepts a comma-separated string as several values', () => {
    expect(query({ product_variation_id: 'A,B' })).toEqual({ product_variation_id: 'A,B' })
  })

  it('writes date operators as suffixed parameters, Dates as ISO strings', () => {
    expect(query({ publish_date: { gte: '2026-01-01', lt: new Date(Date.UTC(2026, 1, 1)) } })).toEqual({
      'publish_date.gte': '2026-01-01',
      'publish_date.lt': '2026-02-01T00:00:00.000Z',
    })
  })

  it('writes sort and desc when desc is within sort', () => {
    expect(query({ sort: ['publish_date', 'review_rate'], desc: 'publish_date' })).toEqual({
      sort: 'publish_date,review_rate',
      desc: 'publish_date',
    })
  })

  it('keeps whitespace inside identifiers where the rule allows it', () => {
    expect(query({ product_sku: ['TEE 42', ' TEE-43 '] })).toEqual({ product_sku: 'TEE 42, TEE-43 ' })
  })

  it('takes any number of identifiers', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `P${i}`)
    expect(query({ product_sku: many }).product_sku?.split(',')).toHaveLength(1000)
  })

  it('sends desc without sort as sort and desc of the same fields', () => {
    expect(query({ desc: ['review_rate', 'publish_date'] })).toEqual({
      sort: 'review_rate,publish_date',
      desc: 'review_rate,publish_date',
    })
  })

  it('skips parameters that are undefined or null', () => {
    expect(query({ limit: undefined, search: null })).toEqual({})
  })

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 201 }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ product_variation_id: [] }, 'product_variation_id'],
    [{ product_variation_id: ['A', ''] }, 'product_variation_id'],
    [{ product_variation_id: ['SKU 1'] }, 'product_variation_id'],
    [{ product_sku: ['TEE,42'] }, 'product_sku'],
    [{ product_sku: [' '] }, 'product_sku'],
    [{ review_rate: 6 }, 'review_rate'],
    [{ publish_date: { gte: '2026-02-30' } }, 'publish_date.gte'],
    [{ publish_date: { gte: 'yesterday' } }, 'publish_date.gte'],
    [{ publish_date: { eq: '2026-01-01' } }, 'publish_date.eq'],
    [{ publish_date: { gte: new Date('nope') } }, 'publish_date.gte'],
    [{ is_verified: 'true' }, 'is_verified'],
    [{ search: ' ' }, 'search'],
    [{ sort: '' }, 'sort'],
    [{ desc: [] }, 'desc'],
    [{ sort: 'review_rate', desc: 'publish_date' }, 'desc'],
    [{ cursor: '' }, 'cursor'],
    [{ limt: 20 }, 'limt'],
  ])('refuses %j, naming %s', (params, field) => {
    expect(fieldOf(params)).toBe(field)
  })

  it('reports every problem at once', () => {
    const issues = new Issues()
    buildQuery(schema, { limit: 0, sort: '' }, issues)
    expect(issues.list.map((issue) => issue.field)).toEqual(['limit', 'sort'])
  })

  it('reports a missing required parameter', () => {
    const issues = new Issues()
    buildQuery({ ...schema, required: ['search'] }, {}, issues)
    expect(issues.list).toEqual([{ field: 'search', message: 'is required' }])
  })
})

describe('sort fields outside the known ones', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('are sent as given, with one warning that names the known fields', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(query({ sort: 'author_firstname' })).toEqual({ sort: 'author_firstname' })
    query({ sort: 'author_firstname' })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toMatch(/sort names author_firstname.*\(publish_date, review_rate\)/)
  })
})

describe('queryString', () => {
  it('encodes a space as %20 and keeps the commas between list values', () => {
    const params = new URLSearchParams([
      ['product_sku', 'TEE 42,TEE+43'],
      ['search', 'a, b'],
    ])
    expect(queryString(params, schema)).toBe('product_sku=TEE%2042,TEE%2B43&search=a%2C%20b')
  })
})

describe('ISO 8601 checks', () => {
  it.each(['2026-01-31', '2024-02-29'])('accepts the date %s', (value) => {
    expect(isIsoDate(value)).toBe(true)
  })

  it.each(['2026-02-29', '2026-13-01', '26-01-01', '2026-1-1'])('refuses the date %s', (value) => {
    expect(isIsoDate(value)).toBe(false)
  })

  it.each([
    '2026-01-31T10:00:00Z',
    '2026-01-31T10:00Z',
    '2026-01-31T10:00:00.123+02:00',
    '2026-01-31T23:59:59',
    '2026-01-31T10:00:00,5-0330',
    '2026-01-31T10:00+02',
  ])('accepts the date-time %s', (value) => {
    expect(isIsoDateTime(value)).toBe(true)
  })

  it.each([
    '2026-01-31T24:00:00Z',
    '2026-01-31 10:00:00Z',
    '2026-01-31T10:60Z',
    '2026-02-30T00:00:00Z',
    '2026-01-31T10Z',
    '20260131T1000Z',
    '2026-01-31T10:00+24:00',
  ])('refuses the date-time %s', (value) => {
    expect(isIsoDateTime(value)).toBe(false)
  })
})
