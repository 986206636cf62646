import { describe, expect, it } from 'vitest'
import { getTextFormatter } from '../i18n/translate.ts'
import { STARS_SVG, starRating } from './stars.ts'

const en = getTextFormatter('en')

describe('starRating', () => {
  it('fills the stars in proportion to the rating', () => {
    expect(starRating(2.5, undefined, en)).toMatchObject({ rating: 2.5, filledWidth: 60 })
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
})

describe('STARS_SVG', () => {
  it('draws five stars in a view box five cells wide', () => {
    expect(STARS_SVG.viewBox).toBe('0 0 120 24')
    expect(STARS_SVG.path.match(/M/g)).toHaveLength(STARS_SVG.stars)
  })
})
