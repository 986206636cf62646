import { describe, expect, it } from 'vitest'
import { readReviewsQuery } from './reviews-endpoint.ts'

const limits = { defaultLimit: 10, maxLimit: 50 }
const read = (query: string) => readReviewsQuery(new URLSearchParams(query), limits)
const problemOf = (query: string) => {
  const result = read(query)
  return 'problem' in result ? result.problem.field : undefined
}

describe('readReviewsQuery', () => {
  it('gives the defaults for a query naming only the product', () => {
    expect(read('product_variation_id=SKU-001')).toEqual({
      query: { productId: 'SKU-001', limit: 10, cursor: undefined, sort: 'newest', rate: [], locale: 'en' },
    })
  })

  it('reads every parameter', () => {
    expect(
      read('product_variation_id=SKU-1&limit=50&cursor=abc_-9&sort=lowest&rate=5,3,5&locale=fr-CA'),
    ).toEqual({
      query: { productId: 'SKU-1', limit: 50, cursor: 'abc_-9', sort: 'lowest', rate: [3, 5], locale: 'fr' },
    })
  })

  it('reads an empty cursor and an empty rate as absent', () => {
    expect(read('product_variation_id=SKU-1&cursor=&rate=')).toMatchObject({
      query: { cursor: undefined, rate: [] },
    })
  })

  it.each([
    ['product_variation_id=SKU-1&page=2', 'page'],
    ['product_variation_id=SKU-1&limit=5&limit=6', 'limit'],
    ['limit=5', 'product_variation_id'],
    ['product_variation_id=', 'product_variation_id'],
    ['product_variation_id=SKU-1,SKU-2', 'product_variation_id'],
    ['product_variation_id=SKU%201', 'product_variation_id'],
    [`product_variation_id=${'A'.repeat(256)}`, 'product_variation_id'],
    ['product_variation_id=SKU-1&limit=51', 'limit'],
    ['product_variation_id=SKU-1&limit=0', 'limit'],
    ['product_variation_id=SKU-1&limit=1.5', 'limit'],
    ['product_variation_id=SKU-1&limit=', 'limit'],
    ['product_variation_id=SKU-1&cursor=a%20b', 'cursor'],
    ['product_variation_id=SKU-1&cursor=%C3%A9', 'cursor'],
    [`product_variation_id=SKU-1&cursor=${'a'.repeat(1025)}`, 'cursor'],
    ['product_variation_id=SKU-1&sort=publish_date', 'sort'],
    ['product_variation_id=SKU-1&rate=6', 'rate'],
    ['product_variation_id=SKU-1&rate=4,,5', 'rate'],
    ['product_variation_id=SKU-1&locale=xx', 'locale'],
    ['product_variation_id=SKU-1&locale=ja', 'locale'],
    ['product_variation_id=SKU-1&locale=', 'locale'],
    ['product_variation_id=SKU-1&locale=en;q=1', 'locale'],
  ])('refuses %s, naming %s', (query, field) => {
    expect(problemOf(query)).toBe(field)
  })
})
