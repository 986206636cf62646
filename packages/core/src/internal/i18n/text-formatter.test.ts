import { describe, expect, it } from 'vitest'
import { formatDate, formatNumber, formatPercent, formatRating, languageName } from './format.ts'
import { SUPPORTED_LOCALES } from './locale.ts'
import { createTextFormatter } from './text-formatter.ts'
import { getMessages, getTextFormatter, t } from './translate.ts'
import type { MessageKey } from './types.ts'

type AnyMessage = (...args: unknown[]) => string

const PARAMS = {
  count: 3,
  rating: 4.56,
  name: 'Lyon',
  provider: 'Verified Reviews',
  source: 'Acme',
  merchant: 'Acme',
  language: 'français',
  author: 'Marie D.',
  date: '1 March 2025',
  stars: '5 stars',
}

describe('createTextFormatter', () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`renders every message as the core does in ${locale}`, () => {
      const text = createTextFormatter(locale, getMessages(locale))
      for (const key of Object.keys(getMessages(locale)) as MessageKey[]) {
        for (const count of [0, 1, 2, 5, 21, 1_280]) {
          const params = { ...PARAMS, count }
          expect((text.t as AnyMessage)(key, params)).toBe((t as AnyMessage)(locale, key, params))
        }
      }
    })

    it(`formats dates, numbers, ratings, shares and language names as the core does in ${locale}`, () => {
      const text = createTextFormatter(locale, getMessages(locale))
      expect(text.date('2025-03-04T10:20:30Z')).toBe(formatDate(locale, '2025-03-04T10:20:30Z'))
      expect(text.date('2025-12-31T23:59:59.999Z')).toBe(formatDate(locale, '2025-12-31T23:59:59.999Z'))
      expect(text.number(12_345.5)).toBe(formatNumber(locale, 12_345.5))
      expect(text.rating(4)).toBe(formatRating(locale, 4))
      expect(text.percent(0.426)).toBe(formatPercent(locale, 0.426))
      expect(text.languageName('fr')).toBe(languageName(locale, 'fr'))
    })
  }

  it('reads a message it was not given as its key', () => {
    const text = createTextFormatter('en', { moreReviews: 'More reviews' })
    expect(text.t('moreReviews')).toBe('More reviews')
    expect(text.t('nextPage')).toBe('nextPage')
  })

  it('gives no date for text that is not an ISO 8601 date', () => {
    const text = createTextFormatter('en', {})
    expect(text.date('&#60;')).toBeUndefined()
    expect(text.date('2025-13-45')).toBeUndefined()
    expect(text.date(null)).toBeUndefined()
  })

  it('gives each date and rating as Intl does, whatever it was asked before', () => {
    const text = createTextFormatter('de', getMessages('de'))
    // Three days in a row, times of one day, each side of a UTC midnight, and days before 1970 (negative times).
    const dates = [
      '2025-03-03T12:00:00Z',
      '2025-03-04T00:00:00Z',
      '2025-03-04T23:59:59.999Z',
      '2025-03-05T00:00:00.000Z',
      '2025-03-04T23:30:00-02:00',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:00:00Z',
      '1901-06-15',
    ]
    for (const date of [...dates, ...dates]) expect(text.date(date), date).toBe(formatDate('de', date))
    // More days than it keeps: the first ones are still right once it started again.
    const start = Date.parse('2000-01-01T12:00:00Z')
    for (let day = 0; day < 5_000; day += 1) text.date(new Date(start + day * 86_400_000).toISOString())
    for (const date of dates) expect(text.date(date), date).toBe(formatDate('de', date))
    for (const rating of [0, -0, 4.6, 4.65, 4.6499, 5, Number.NaN, 0, -0]) {
      expect(text.rating(rating), String(rating)).toBe(formatRating('de', rating))
    }
    for (let rating = 0; rating < 2_000; rating += 1) text.rating(rating / 100)
    expect(text.rating(4.65)).toBe(formatRating('de', 4.65))
  })

  it('names an unknown language code by the code itself', () => {
    expect(createTextFormatter('en', {}).languageName('not a code')).toBe('not a code')
  })
})

describe('getTextFormatter', () => {
  it('speaks the supported language that best matches the locale, with its whole catalogue', () => {
    const text = getTextFormatter('fr-CA')
    expect(text.locale).toBe('fr')
    expect(text.t('ratingLabel', { rating: text.rating(4.56), count: 1280 })).toBe(
      t('fr', 'ratingLabel', { rating: '4,6', count: 1280 }),
    )
  })

  it('speaks English without a locale', () => {
    expect(getTextFormatter(undefined).t('nextPage')).toBe(t('en', 'nextPage'))
  })
})
