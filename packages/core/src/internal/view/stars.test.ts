import { describe, expect, it } from 'vitest'
import { getTextFormatter } from '../i18n/translate.ts'
import { ratingTenths, STAR_RATING, starRating } from './stars.ts'

const en = getTextFormatter('en')

describe('ratingTenths', () => {
  it('rounds to the nearest tenth, halves up as the decimal reads', () => {
    expect([4.64, 4.65, 1.15, 2.35, 0.05, 0.04].map(ratingTenths)).toEqual([46, 47, 12, 24, 1, 0])
  })

  it('keeps the tenths from 0 to 50, and reads what is not a number as 0', () => {
    expect([7, 5.04, -1, -0.04, Number.NaN, Number.POSITIVE_INFINITY].map(ratingTenths)).toEqual([
      50, 50, 0, 0, 0, 0,
    ])
  })

  it('gives one of the 51 values styles.css knows', () => {
    for (let value = -1; value <= 6; value += 0.013) {
      const tenths = ratingTenths(value)
      expect(Number.isInteger(tenths) && tenths >= 0 && tenths <= STAR_RATING.maxTenths).toBe(true)
    }
  })
})

describe('starRating', () => {
  it('gives the rating in tenths for data-r, and the rating they make', () => {
    expect(starRating(2.5, undefined, en)).toMatchObject({ rating: 2.5, tenths: 25 })
    expect(starRating(4.56, undefined, en)).toMatchObject({ rating: 4.6, tenths: 46 })
  })

  it('keeps the rating from 0 to 5, and reads what is not a number as 0', () => {
    expect(starRating(7, undefined, en).rating).toBe(5)
    expect(starRating(-1, undefined, en).rating).toBe(0)
    expect(starRating(Number.NaN, undefined, en).rating).toBe(0)
  })

  it('names the rating, with the review count when given', () => {
    expect(starRating(4.56, undefined, en).label).toBe('4.6 out of 5')
    expect(starRating(4.56, 128, en).label).toBe('4.6 out of 5, 128 reviews')
  })

  it('names the tenth the stars show, even where the number format would round the other way', () => {
    expect(starRating(1.15, undefined, en)).toMatchObject({ tenths: 12, label: '1.2 out of 5' })
  })

  it('gives a short text for a page without the stylesheet, in the language', () => {
    expect(starRating(4.56, 128, en).text).toBe('4.6/5')
    expect(starRating(4.56, 128, getTextFormatter('fr')).text).toBe('4,6/5')
  })
})
