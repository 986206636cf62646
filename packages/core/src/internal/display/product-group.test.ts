import { describe, expect, it } from 'vitest'
import type { ProductSummary } from '../../types/published.ts'
import { combineProductSummaries, combineRatings, newestFirst, variationIds } from './product-group.ts'

function counts(c5: number, c4: number, c3: number, c2: number, c1: number) {
  const total = c5 + c4 + c3 + c2 + c1
  const average = Math.round(((5 * c5 + 4 * c4 + 3 * c3 + 2 * c2 + c1) / total) * 100) / 100
  return { average, count_total: total, count_5: c5, count_4: c4, count_3: c3, count_2: c2, count_1: c1 }
}

function summary(overrides: Partial<ProductSummary>): ProductSummary {
  return {
    ratings: counts(1, 0, 0, 0, 0),
    product_variation_id: 'A',
    website_id: 'w',
    extras: [],
    ...overrides,
  }
}

describe('combineRatings', () => {
  it('counts every review of every variation once, averaging from the per-star counts', () => {
    expect(combineRatings([counts(2, 1, 0, 0, 0), counts(0, 0, 1, 0, 1)])).toEqual({
      average: 3.6,
      count_total: 5,
      count_5: 2,
      count_4: 1,
      count_3: 1,
      count_2: 0,
      count_1: 1,
    })
  })

  it('weights the averages by their counts when per-star counts are missing', () => {
    const rating = combineRatings([
      { average: 4.5, count_total: 2 },
      { average: 3, count_total: 1 },
    ])
    expect(rating).toMatchObject({ average: 4, count_total: 3 })
  })

  it('leaves out variations without a review, and is undefined when none has one', () => {
    expect(combineRatings([undefined, { average: 0, count_total: 0 }])).toBeUndefined()
    expect(combineRatings([undefined, counts(0, 1, 0, 0, 0)])).toMatchObject({ average: 4, count_total: 1 })
  })
})

describe('combineProductSummaries', () => {
  it('combines ratings and criteria and keeps the first AI summary of the group', () => {
    const combined = combineProductSummaries([
      summary({
        ratings: counts(1, 0, 0, 0, 0),
        extras: [{ type: 'rate', display_name: 'Quality', label: 'quality', rate: { average: 5, count: 1 } }],
      }),
      summary({
        ratings: counts(0, 0, 1, 0, 0),
        review_summary: { content: 'Warm.', last_updated_at: '2025-01-01T00:00:00Z' },
        extras: [{ type: 'rate', display_name: 'Quality', label: 'quality', rate: { average: 3, count: 3 } }],
      }),
    ])
    expect(combined).toEqual({
      ratings: counts(1, 0, 1, 0, 0),
      review_summary: { content: 'Warm.', last_updated_at: '2025-01-01T00:00:00Z' },
      extras: [{ type: 'rate', display_name: 'Quality', label: 'quality', rate: { average: 3.5, count: 4 } }],
    })
  })

  it('is undefined when the API knows none of the variations', () => {
    expect(combineProductSummaries([undefined, undefined])).toBeUndefined()
  })
})

describe('newestFirst', () => {
  it('merges the reviews of several variations, newest published first', () => {
    const a = [{ publish_date: '2025-03-03T00:00:00Z' }, { publish_date: '2025-03-01T00:00:00Z' }]
    const b = [{ publish_date: '2025-03-02T00:00:00Z' }, { publish_date: 'not a date' }]
    expect(newestFirst([a, b]).map((review) => review.publish_date)).toEqual([
      '2025-03-03T00:00:00Z',
      '2025-03-02T00:00:00Z',
      '2025-03-01T00:00:00Z',
      'not a date',
    ])
  })
})

describe('variationIds', () => {
  it('gives a single id or a group of ids as a list, each once, in order', () => {
    expect(variationIds('A')).toEqual(['A'])
    expect(variationIds(['B', 'A', 'B'])).toEqual(['B', 'A'])
  })
})
