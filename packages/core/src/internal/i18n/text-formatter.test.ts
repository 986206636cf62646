import {
  formatDate,
  formatNumber,
  formatPercent,
  formatRating,
  getMessages,
  languageName,
  type MessageKey,
  SUPPORTED_LOCALES,
  t,
} from '@verified-reviews/core/i18n'
import { describe, expect, it } from 'vitest'
import { createText, untyped } from './text.ts'

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

describe('createText', () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`renders every message as the core does in ${locale}`, () => {
      const text = createText(locale, getMessages(locale))
      for (const key of Object.keys(getMessages(locale)) as MessageKey[]) {
        for (const count of [0, 1, 2, 5, 21, 1_280]) {
          const params = { ...PARAMS, count }
          expect(untyped(text)(key, params)).toBe((t as (...args: unknown[]) => string)(locale, key, params))
        }
      }
    })

    it(`formats dates, numbers, ratings, shares and language names as the core does in ${locale}`, () => {
      const text = createText(locale, getMessages(locale))
      expect(text.date('2025-03-04T10:20:30Z')).toBe(formatDate(locale, '2025-03-04T10:20:30Z'))
      expect(text.date('2025-12-31T23:59:59.999Z')).toBe(formatDate(locale, '2025-12-31T23:59:59.999Z'))
      expect(text.number(12_345.5)).toBe(formatNumber(locale, 12_345.5))
      expect(text.rating(4)).toBe(formatRating(locale, 4))
      expect(text.percent(0.426)).toBe(formatPercent(locale, 0.426))
      expect(text.languageName('fr')).toBe(languageName(locale, 'fr'))
    })
  }

  it('reads a message it was not given as its key', () => {
    const text = createText('en', { moreReviews: 'More reviews' })
    expect(text.t('moreReviews')).toBe('More reviews')
    expect(text.t('nextPage')).toBe('nextPage')
  })

  it('gives no date for text that is not an ISO 8601 date', () => {
    const text = createText('en', {})
    expect(text.date('&#60;')).toBeUndefined()
    expect(text.date('2025-13-45')).toBeUndefined()
    expect(text.date(null)).toBeUndefined()
  })

  it('names an unknown language code by the code itself', () => {
    expect(createText('en', {}).languageName('not a code')).toBe('not a code')
  })
})
