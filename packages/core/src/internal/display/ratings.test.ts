import { describe, expect, it } from 'vitest'
import type { RatingCounts } from '../../types/published.ts'
import { getTextFormatter } from '../i18n/translate.ts'
import { countOrZero, emptyBrandRating, histogramRows, ratingCriteria, ratingPeriods } from './ratings.ts'

const en = getTextFormatter('en')
const counts: RatingCounts = { count_5: 3, count_4: 1, count_3: 0, count_2: 0, count_1: Number.NaN }

describe('countOrZero', () => {
  it('reads what is not a positive number as zero', () => {
    expect([4, 0, -2, Number.NaN, Number.POSITIVE_INFINITY, undefined].map(countOrZero)).toEqual([
      4, 0, 0, 0, 0, 0,
    ])
  })
})

describe('histogramRows', () => {
  it('gives 5 to 1 stars with counts, shares and bar values', () => {
    const rows = histogramRows(counts, en)
    expect(rows.map((row) => [row.rate, row.count, row.share, row.bar])).toEqual([
      [5, 3, 0.75, 0.75],
      [4, 1, 0.25, 0.25],
      [3, 0, 0, 0],
      [2, 0, 0, 0],
      [1, 0, 0, 0],
    ])
    expect(rows[0]?.label).toBe(en.t('starCount', { count: 5 }))
  })

  it('rounds the bar to three decimals, so that the markup stays short', () => {
    const rows = histogramRows({ count_5: 1, count_4: 2, count_3: 0, count_2: 0, count_1: 0 }, en)
    expect(rows.slice(0, 2).map((row) => row.bar)).toEqual([0.333, 0.667])
  })

  it('keeps only the rate links that are relative or http(s)', () => {
    const rows = histogramRows(counts, en, (rate) => (rate === 5 ? '?vr_rate=5' : 'javascript:alert(1)'))
    expect(rows.map((row) => row.href)).toEqual(['?vr_rate=5', undefined, undefined, undefined, undefined])
  })
})

describe('ratingCriteria', () => {
  it('reads summary and rating criteria alike, leaving out those without a name or an average', () => {
    const criteria = [
      { type: 'rate', display_name: 'Quality', label: 'quality', rate: { average: 4.5, count: 10 } },
      { label: 'Price', average: 4, count: 3 },
      { type: 'rate', display_name: '', label: '', rate: { average: 3, count: 1 } },
    ] as Parameters<typeof ratingCriteria>[0]
    expect(ratingCriteria(criteria)).toEqual([
      { name: 'Quality', average: 4.5, count: 10 },
      { name: 'Price', average: 4, count: 3 },
    ])
  })
})

describe('ratingPeriods', () => {
  it('gives the last 12 months, then the last 5 years, with their review counts', () => {
    const rating = { ...emptyBrandRating(undefined), one_year: { average: 4, ...counts } }
    expect(ratingPeriods(rating, en).map(({ key, label, count }) => [key, label, count])).toEqual([
      ['one-year', en.t('lastTwelveMonths'), 4],
      ['five-year', en.t('lastFiveYears'), 0],
    ])
  })
})
